import { createHash } from 'node:crypto';
import { UseCaseError } from '../errors.js';

/**
 * JSON of `value` with the keys of every object sorted (undefined members left out): equal data,
 * equal text. Entity tags and the broker import's preview tokens hash it.
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The strong entity tag (RFC 9110 §8.8.3) of a representation: `"` + the first 128 bits of the
 * SHA-256 of its canonical JSON (keys sorted), base64url + `"`. It changes whenever any field of
 * the answered representation changes (a transaction's price, fee or note; a portfolio's name or
 * realised P&L), and two equal representations have equal tags, on every process. It is what a
 * transaction or portfolio route answers as `ETag`, what `If-Match` is compared with, and the
 * version an advisor proposal records of the row its summary describes.
 *
 * @example
 * entityTag({ id: 't1', type: 'buy', quantity: '10' }); // '"…22 characters…"'
 */
export function entityTag(representation: unknown): string {
  const digest = createHash('sha256').update(canonical(representation)).digest();
  return `"${digest.subarray(0, 16).toString('base64url')}"`;
}

/**
 * Whether an `If-Match` field value (RFC 9110 §13.1.1) lets a write of the resource whose
 * current tag is `current` (undefined: it does not exist) proceed: absent header → yes; `*` →
 * when the resource exists; otherwise when one listed tag equals `current` by the strong
 * comparison (a weak tag `W/"…"` never matches).
 */
export function ifMatchAllows(ifMatch: string | undefined, current: string | undefined): boolean {
  if (ifMatch === undefined) return true;
  const value = ifMatch.trim();
  if (value === '*') return current !== undefined;
  if (current === undefined) return false;
  return value
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === current);
}

/**
 * Refuses a write whose `If-Match` no longer matches the resource (`ifMatchAllows`) with the
 * problem `precondition_failed` (412), naming `what`.
 * @throws UseCaseError `precondition_failed`.
 */
export function requireMatch(
  ifMatch: string | undefined,
  current: string | undefined,
  what: string,
): void {
  if (ifMatchAllows(ifMatch, current)) return;
  throw new UseCaseError(
    'precondition_failed',
    `${what} changed since it was read (If-Match ${ifMatch?.trim()} does not match ${current ?? 'a resource that is gone'}); nothing was written`,
  );
}
