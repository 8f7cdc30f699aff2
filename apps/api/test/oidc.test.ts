import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, type TestContext } from './helpers.js';

const CLIENT = { id: 'svc-api', secret: 'a-test-client-secret-of-enough-length' };
const CALLBACK = `${BASE_URL}/api/auth/oidc/callback`;

/** A tiny cookie jar for one origin (the provider); enough for its interaction cookies. */
class Jar {
  readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Starts a real OpenID provider (oidc-provider) on 127.0.0.1 with a random port. */
async function startProvider(): Promise<{ issuer: string; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    features: { devInteractions: { enabled: true } },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: `${sub}@idp.example`,
            email_verified: sub !== 'unverified',
            name: `User ${sub}`,
          };
        },
      };
    },
  });
  server.on('request', provider.callback());
  return { issuer, server };
}

/** Drives the provider's dev login and consent forms like a browser; answers the callback URL. */
async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Jar();
  let url = authorizationUrl;
  for (let step = 0; step < 12; step += 1) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location') ?? '', url);
      if (next.href.startsWith(CALLBACK)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    const form = new URLSearchParams({
      prompt,
      ...(prompt === 'login' ? { login, password: 'any' } : {}),
    });
    const posted = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    jar.store(posted);
    url = new URL(posted.headers.get('location') ?? '', url).href;
  }
  throw new Error('the provider never redirected back');
}

describe('OpenID Connect sign-in against a real provider on loopback', () => {
  let provider: { issuer: string; server: Server };
  let ctx: TestContext;

  beforeAll(async () => {
    provider = await startProvider();
    ctx = await createTestContext({
      env: {
        OIDC_ISSUER_URL: provider.issuer,
        OIDC_CLIENT_ID: CLIENT.id,
        OIDC_CLIENT_SECRET: CLIENT.secret,
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise((resolve) => provider.server.close(resolve));
  });

  async function startLogin(returnTo?: string) {
    const url = `/api/auth/oidc/login${returnTo ? `?returnTo=${encodeURIComponent(returnTo)}` : ''}`;
    const res = await ctx.app.inject({ url });
    expect(res.statusCode).toBe(302);
    const state = res.cookies.find((c) => c.name === 'service_oidc');
    expect(state).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc' });
    return { location: String(res.headers.location), stateCookie: `service_oidc=${state?.value}` };
  }

  async function callback(url: URL, stateCookie: string) {
    return ctx.app.inject({
      url: `${url.pathname}${url.search}`,
      headers: { cookie: stateCookie },
    });
  }

  it('runs authorization code + PKCE end to end and opens a session', async () => {
    const { location, stateCookie } = await startLogin('/account/developer');
    const authorize = new URL(location);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK);

    const back = await signInAtProvider(location, 'alice');
    expect(back.searchParams.get('code')).toBeTruthy();
    const res = await callback(back, stateCookie);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/account/developer');
    const session = res.cookies.find((c) => c.name === 'service_session');
    expect(session?.httpOnly).toBe(true);

    const me = await ctx.app.inject({
      url: '/api/auth/session',
      headers: { cookie: `service_session=${session?.value}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ email: 'alice@idp.example', name: 'User alice' });

    // Same identity again: the same user, not a new one.
    const second = await startLogin();
    const res2 = await callback(
      await signInAtProvider(second.location, 'alice'),
      second.stateCookie,
    );
    expect(res2.headers.location).toBe('/');
    const cookie2 = `service_session=${res2.cookies.find((c) => c.name === 'service_session')?.value}`;
    const me2 = await ctx.app.inject({ url: '/api/auth/session', headers: { cookie: cookie2 } });
    expect(me2.json().user.id).toBe(me.json().user.id);
  });

  it('refuses a callback whose state does not match the signed cookie', async () => {
    const first = await startLogin();
    const second = await startLogin();
    const back = await signInAtProvider(first.location, 'mallory');
    const res = await callback(back, second.stateCookie);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
    expect(res.cookies.find((c) => c.name === 'service_session')).toBeUndefined();
  });

  it('refuses a callback without the state cookie (login not started here)', async () => {
    const { location } = await startLogin();
    const back = await signInAtProvider(location, 'bob');
    const res = await ctx.app.inject({ url: `${back.pathname}${back.search}` });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an identity without a verified e-mail (403)', async () => {
    const { location, stateCookie } = await startLogin();
    const res = await callback(await signInAtProvider(location, 'unverified'), stateCookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
  });

  it('answers 404 problem+json when OIDC is not configured', async () => {
    const plain = await createTestContext();
    try {
      const res = await plain.app.inject({ url: '/api/auth/oidc/login' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    } finally {
      await plain.close();
    }
  });
});
