import type { FastifyReply } from 'fastify';

/** Name of the session cookie (interface spec §5). */
export const SESSION_COOKIE = 'service_session';

/** Name of the short-lived cookie carrying the signed OIDC state, nonce and PKCE verifier. */
export const OIDC_COOKIE = 'service_oidc';

/** Path the OIDC cookie is limited to. */
export const OIDC_COOKIE_PATH = '/api/auth/oidc';

/** Sets the session cookie: `HttpOnly; SameSite=Lax; Path=/` plus `Secure` behind HTTPS. */
export function setSessionCookie(
  reply: FastifyReply,
  jwt: string,
  expiresAt: Date,
  secure: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, jwt, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    expires: expiresAt,
  });
}

/** Clears the session cookie (same attributes, expired). */
export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}
