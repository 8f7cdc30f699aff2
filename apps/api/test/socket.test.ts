import { freePort } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

describe('over a real listening socket', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { BASE_URL: base } });
    await ctx.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => ctx.close());

  it('registers, reads the session with the cookie, logs out and is refused', async () => {
    const json = { 'content-type': 'application/json', origin: base };
    const reg = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'net@example.com', password: 'correct horse battery' }),
    });
    expect(reg.status).toBe(201);
    const cookie = reg.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^service_session=/);
    const me = await fetch(`${base}/api/auth/session`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe('net@example.com');
    const out = await fetch(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, origin: base },
    });
    expect(out.status).toBe(204);
    const after = await fetch(`${base}/api/auth/session`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.headers.get('content-type')).toContain('application/problem+json');
  });

  it('serves /openapi.json and answers unknown paths with problem+json', async () => {
    const doc = await fetch(`${base}/openapi.json`);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const missing = await fetch(`${base}/missing`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
  });
});
