import { errors, jwtVerify, SignJWT } from 'jose';

/** The claims of a session JWT (CONTRACT §2): user id, session row id, issued-at and expiry. */
export interface SessionClaims {
  /** User id (`sub`). */
  readonly sub: string;
  /** Server-side session row id (`sid`); the row decides whether the session is still valid. */
  readonly sid: string;
  /** Issued-at, seconds since the epoch. */
  readonly iat: number;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
}

/** Signs and verifies the service's HS256 JWTs (sessions and the short-lived OIDC state). */
export interface SignedTokens {
  /** Signs a session JWT for `userId`/`sessionId`, valid until `expiresAt`. */
  signSession(input: {
    userId: string;
    sessionId: string;
    now: Date;
    expiresAt: Date;
  }): Promise<string>;
  /** Verifies a session JWT; `undefined` when the signature, algorithm, audience or expiry fail. */
  verifySession(token: string, now: Date): Promise<SessionClaims | undefined>;
  /** Signs an arbitrary payload for `purpose`, valid for `ttlSeconds`. */
  signPayload(
    purpose: string,
    payload: Record<string, string>,
    now: Date,
    ttlSeconds: number,
  ): Promise<string>;
  /** Verifies a payload signed by {@link SignedTokens.signPayload} for the same `purpose`. */
  verifyPayload(
    purpose: string,
    token: string,
    now: Date,
  ): Promise<Record<string, unknown> | undefined>;
}

const SESSION_AUDIENCE = 'session';
const ALGORITHM = 'HS256';
const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * Creates the JWT signer of the service (`jose`, HS256 with the configured secret). The issuer
 * is the public base URL; each purpose has its own audience so a token of one kind is never
 * accepted as another (an OIDC state cookie is not a session).
 *
 * @example
 * const tokens = createSignedTokens({ secret: config.sessionSecret, issuer: config.baseUrl });
 * const jwt = await tokens.signSession({ userId, sessionId, now, expiresAt });
 */
export function createSignedTokens(options: { secret: Uint8Array; issuer: string }): SignedTokens {
  const { secret, issuer } = options;
  if (secret.length < 32) throw new RangeError('the session secret must be at least 32 bytes');

  async function verify(token: string, audience: string, now: Date) {
    try {
      const { payload } = await jwtVerify(token, secret, {
        algorithms: [ALGORITHM],
        issuer,
        audience,
        currentDate: now,
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  }

  return {
    signSession: ({ userId, sessionId, now, expiresAt }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setAudience(SESSION_AUDIENCE)
        .setIssuedAt(seconds(now))
        .setExpirationTime(seconds(expiresAt))
        .sign(secret),
    async verifySession(token, now) {
      const payload = await verify(token, SESSION_AUDIENCE, now);
      const { sub, sid, iat, exp } = payload ?? {};
      if (typeof sub !== 'string' || typeof sid !== 'string') return undefined;
      if (typeof iat !== 'number' || typeof exp !== 'number') return undefined;
      return { sub, sid, iat, exp };
    },
    signPayload: (purpose, payload, now, ttlSeconds) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(purpose)
        .setIssuedAt(seconds(now))
        .setExpirationTime(seconds(now) + ttlSeconds)
        .sign(secret),
    verifyPayload: (purpose, token, now) => verify(token, purpose, now),
  };
}
