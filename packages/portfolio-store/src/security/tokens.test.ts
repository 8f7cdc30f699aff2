import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashToken,
  looksLikePersonalAccessToken,
  mintPersonalAccessToken,
  safeEqual,
} from './tokens.js';

describe('mintPersonalAccessToken', () => {
  it('mints svc_pat_ + 32 random bytes in base64url, a display prefix and its SHA-256', () => {
    const minted = mintPersonalAccessToken();
    expect(minted.token).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(minted.token.slice(8), 'base64url')).toHaveLength(32);
    expect(minted.token.startsWith(minted.prefix)).toBe(true);
    expect(minted.prefix).toHaveLength(14);
    expect(minted.hash).toBe(createHash('sha256').update(minted.token).digest('hex'));
    expect(looksLikePersonalAccessToken(minted.token)).toBe(true);
  });

  it('never mints the same token twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => mintPersonalAccessToken().token));
    expect(tokens.size).toBe(200);
  });
});

describe('hashToken', () => {
  it('matches the published SHA-256 test vector for "abc"', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('looksLikePersonalAccessToken', () => {
  it.each(['svc_pat_short', 'ghp_0123456789012345678901234567890123456789012', ''])(
    'rejects %j',
    (value) => expect(looksLikePersonalAccessToken(value)).toBe(false),
  );
});

describe('safeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['', '', true],
  ])('safeEqual(%j, %j) is %s', (a, b, expected) => expect(safeEqual(a, b)).toBe(expected));
});
