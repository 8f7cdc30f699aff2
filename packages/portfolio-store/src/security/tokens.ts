import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of every personal access token (interface spec §5). */
export const PAT_PREFIX = 'svc_pat_';

/** Characters of a token kept in clear (`prefix`) to let users recognise it in a list. */
const DISPLAY_PREFIX_LENGTH = PAT_PREFIX.length + 6;

/** A freshly minted personal access token. Only `hash` and `prefix` may be stored. */
export interface MintedToken {
  /** The secret: `svc_pat_` + 32 random bytes in base64url (43 characters). Show it once. */
  token: string;
  /** The first 14 characters (`svc_pat_` + 6), safe to display. */
  prefix: string;
  /** SHA-256 of the token, lower-case hex: the lookup key stored in `token_hash`. */
  hash: string;
}

/**
 * SHA-256 of a token in lower-case hex. A fast hash is enough here: the token carries 256 random
 * bits, so it cannot be guessed from its hash (unlike a password).
 */
export function hashToken(token: string): string {
  // one-shot `crypto.hash` (Node >= 20.12): no Hash object per verified request
  return hash('sha256', token, 'hex');
}

/**
 * Mints a personal access token from 32 bytes of `crypto.randomBytes`.
 *
 * @example
 * ```ts
 * const minted = mintPersonalAccessToken();
 * const record = await repos.tokens.create(userId, { name, prefix: minted.prefix, tokenHash: minted.hash, scopes });
 * reply.code(201).send({ ...record, token: minted.token }); // the only time the secret is shown
 * ```
 */
export function mintPersonalAccessToken(): MintedToken {
  const token = PAT_PREFIX + randomBytes(32).toString('base64url');
  return { token, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashToken(token) };
}

/** True when `value` has the shape of a personal access token (prefix and 43 base64url chars). */
export function looksLikePersonalAccessToken(value: string): boolean {
  return /^svc_pat_[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * Compares two strings in constant time (for their length) with `crypto.timingSafeEqual`,
 * e.g. an OIDC `state` or a CSRF token. Strings of different lengths are unequal; the length
 * itself is not hidden.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}
