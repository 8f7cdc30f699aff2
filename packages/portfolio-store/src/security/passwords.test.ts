import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('hashPassword / verifyPassword', () => {
  it('produces a salted argon2id PHC string with the OWASP parameters', async () => {
    const a = await hashPassword('correct horse battery staple');
    const b = await hashPassword('correct horse battery staple');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('accepts the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('s3cret-pass');
    expect(await verifyPassword(stored, 's3cret-pass')).toBe(true);
    expect(await verifyPassword(stored, 's3cret-pasS')).toBe(false);
  });

  it('answers false for a missing or malformed hash instead of throwing', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword(undefined, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-phc-string', 'anything')).toBe(false);
  });
});
