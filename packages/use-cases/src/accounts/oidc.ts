import * as client from 'openid-client';
import { UseCaseError } from '../errors.js';

/** OpenID Connect client settings (the service configuration's `oidc`). */
export interface OidcConfig {
  /** Issuer URL; its `/.well-known/openid-configuration` is fetched at start-up. */
  readonly issuerUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Redirect URI registered at the provider; default `{base_url}/api/auth/oidc/callback`. */
  readonly redirectUrl: string;
}

/** What the browser must carry from the login redirect to the callback (kept in a signed cookie). */
export interface OidcChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The identity an OpenID provider vouched for, with a verified e-mail. */
export interface OidcIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly name: string | null;
}

/** Authorization code + PKCE sign-in against one OpenID provider (`openid-client` 6). */
export interface OidcClient {
  /** Builds the provider's authorization URL with fresh state, nonce and PKCE verifier. */
  start(): Promise<{ url: URL; checks: OidcChecks }>;
  /**
   * Redeems the code of a callback (`query` as received) and answers the verified identity.
   * @throws {UseCaseError} `unauthorized` when the provider answer fails a check; `forbidden` without
   * a verified e-mail; `upstream_unavailable` when the provider cannot be reached.
   */
  finish(query: URLSearchParams, checks: OidcChecks): Promise<OidcIdentity>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

/**
 * Creates the OIDC client. Discovery (`/.well-known/openid-configuration`) happens on first use
 * and is cached (retried after a failure). Plain-HTTP issuers are accepted only on loopback
 * (local development and tests); anything else must be HTTPS.
 *
 * @example
 * const oidc = createOidcClient(config.oidc);
 * const { url, checks } = await oidc.start();
 */
export function createOidcClient(config: OidcConfig): OidcClient {
  const issuer = new URL(config.issuerUrl);
  let discovered: Promise<client.Configuration> | undefined;

  const configuration = () => {
    discovered ??= client
      .discovery(issuer, config.clientId, config.clientSecret, undefined, {
        ...(isLoopbackHttp(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw new UseCaseError('upstream_unavailable', 'The identity provider cannot be reached.', {
          cause: error,
        });
      });
    return discovered;
  };

  return {
    async start() {
      const oidc = await configuration();
      const checks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(oidc, {
        redirect_uri: config.redirectUrl,
        scope: 'openid email profile',
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, checks };
    },

    async finish(query, checks) {
      const oidc = await configuration();
      const current = new URL(config.redirectUrl);
      current.search = query.toString();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(oidc, current, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new UseCaseError(
          'unauthorized',
          'The identity provider did not confirm the sign-in.',
          {
            cause: error,
          },
        );
      }
      const claims = tokens.claims();
      if (!claims)
        throw new UseCaseError('unauthorized', 'The identity provider sent no ID token.');
      const info =
        typeof claims.email === 'string'
          ? claims
          : await client.fetchUserInfo(oidc, tokens.access_token, claims.sub);
      if (typeof info.email !== 'string' || info.email_verified !== true) {
        throw new UseCaseError(
          'forbidden',
          'The identity provider did not report a verified e-mail.',
        );
      }
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: info.email,
        name: typeof info.name === 'string' ? info.name : null,
      };
    },
  };
}
