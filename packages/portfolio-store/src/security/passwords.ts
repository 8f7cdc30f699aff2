import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id cost parameters: 19 MiB of memory, 2 passes, 1 lane, the first configuration the OWASP
 * Password Storage Cheat Sheet recommends for Argon2id (and the defaults of `@node-rs/argon2`).
 */
export const PASSWORD_HASH_PARAMETERS = {
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

let dummyHash: Promise<string> | undefined;

/**
 * Hashes a password with Argon2id (`@node-rs/argon2`, a random 16-byte salt per hash) into a PHC
 * string such as `$argon2id$v=19$m=19456,t=2,p=1$…`, to store in `users.password_hash`.
 *
 * @example
 * ```ts
 * await repos.users.create({ email, passwordHash: await hashPassword(password) });
 * ```
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_PARAMETERS);
}

/**
 * Checks a password against a stored PHC hash (the comparison inside argon2 is constant-time).
 * Pass `null`/`undefined` when the user is unknown or has no password: the function then verifies
 * against a throw-away hash and answers `false`, so that an unknown e-mail costs as much time as a
 * wrong password (CONTRACT §2: the same answer for both). A malformed stored hash answers `false`.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
