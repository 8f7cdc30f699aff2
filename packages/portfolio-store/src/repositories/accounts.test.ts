import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../errors.js';
import { hashPassword, verifyPassword } from '../security/passwords.js';
import { hashToken, mintPersonalAccessToken } from '../security/tokens.js';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { createRepositories, type Repositories } from './index.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const HOUR = 3_600_000;

describe.each(backends)('accounts on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  describe('users', () => {
    it('stores e-mails lower-cased and refuses a case variant as a conflict', async () => {
      const email = uniqueEmail('Mixed.Case');
      const user = await repos.users.create({ email: `  ${email.toUpperCase()} ` });
      expect(user.email).toBe(email.toLowerCase());
      expect(user.plan).toBe('free');
      expect(user.hasPassword).toBe(false);
      await expect(repos.users.create({ email: email.toLowerCase() })).rejects.toMatchObject({
        code: 'conflict',
      });
      expect((await repos.users.findByEmail(email.toUpperCase()))?.id).toBe(user.id);
    });

    it('returns the password hash only through findCredentialsByEmail', async () => {
      const email = uniqueEmail();
      const passwordHash = await hashPassword('pw-1234567');
      const user = await repos.users.create({ email, passwordHash, name: 'Ann' });
      expect(user).not.toHaveProperty('passwordHash');
      const found = await repos.users.findCredentialsByEmail(email);
      expect(found?.user.id).toBe(user.id);
      expect(await verifyPassword(found?.passwordHash, 'pw-1234567')).toBe(true);
      expect(await repos.users.findCredentialsByEmail(uniqueEmail('nobody'))).toBeUndefined();
    });

    it('resolves OIDC sign-ins: same identity, link by e-mail, or a new user', async () => {
      const email = uniqueEmail('oidc');
      const existing = await repos.users.create({ email, passwordHash: 'x' });
      const identity = { issuer: 'https://id.example', subject: `sub-${existing.id}`, email };
      const linked = await repos.users.findOrCreateByOidc(identity);
      expect(linked.id).toBe(existing.id);
      expect((await repos.users.findOrCreateByOidc(identity)).id).toBe(existing.id);
      expect((await repos.users.findByOidcSubject(identity.issuer, identity.subject))?.id).toBe(
        existing.id,
      );

      const fresh = await repos.users.findOrCreateByOidc({
        issuer: 'https://id.example',
        subject: 'sub-new',
        email: uniqueEmail('new'),
        name: 'New',
      });
      expect(fresh.id).not.toBe(existing.id);
      expect(fresh.hasPassword).toBe(false);

      // The e-mail now belongs to a user linked to another identity: no silent takeover.
      await expect(
        repos.users.findOrCreateByOidc({ ...identity, subject: 'someone-else' }),
      ).rejects.toMatchObject({ code: 'conflict' });
    });

    it('sets the plan, and reports an unknown user', async () => {
      const user = await repos.users.create({ email: uniqueEmail() });
      expect((await repos.users.setPlan(user.id, 'pro')).plan).toBe('pro');
      expect((await repos.users.findById(user.id))?.plan).toBe('pro');
      const error = await repos.users
        .setPlan('00000000-0000-4000-8000-000000000000', 'pro')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe('not_found');
    });
  });

  describe('sessions', () => {
    it('finds a live session only for its user, until revoked or expired', async () => {
      const a = await repos.users.create({ email: uniqueEmail('a') });
      const b = await repos.users.create({ email: uniqueEmail('b') });
      const session = await repos.sessions.create(a.id, {
        expiresAt: new Date(NOW.getTime() + HOUR),
        userAgent: 'vitest',
        ip: '127.0.0.1',
      });
      expect((await repos.sessions.findActive(a.id, session.id, NOW))?.userAgent).toBe('vitest');
      expect(await repos.sessions.findActive(b.id, session.id, NOW)).toBeUndefined();
      const later = new Date(NOW.getTime() + 2 * HOUR);
      expect(await repos.sessions.findActive(a.id, session.id, later)).toBeUndefined();

      expect(await repos.sessions.revoke(b.id, session.id, NOW)).toBe(false);
      expect(await repos.sessions.revoke(a.id, session.id, NOW)).toBe(true);
      expect(await repos.sessions.revoke(a.id, session.id, NOW)).toBe(false);
      expect(await repos.sessions.findActive(a.id, session.id, NOW)).toBeUndefined();
    });

    it('revokes every session of one user and none of another', async () => {
      const a = await repos.users.create({ email: uniqueEmail('a') });
      const b = await repos.users.create({ email: uniqueEmail('b') });
      const expiresAt = new Date(NOW.getTime() + HOUR);
      await repos.sessions.create(a.id, { expiresAt });
      await repos.sessions.create(a.id, { expiresAt });
      const other = await repos.sessions.create(b.id, { expiresAt });
      expect(await repos.sessions.revokeAllForUser(a.id, NOW)).toBe(2);
      expect(await repos.sessions.findActive(b.id, other.id, NOW)).toBeDefined();
    });
  });

  describe('personal access tokens', () => {
    it('authenticates by hash, touches lastUsedAt, and never lists the secret', async () => {
      const user = await repos.users.create({ email: uniqueEmail() });
      const minted = mintPersonalAccessToken();
      const created = await repos.tokens.create(user.id, {
        name: 'laptop',
        prefix: minted.prefix,
        tokenHash: minted.hash,
        scopes: ['moat:read'],
      });
      expect(created.lastUsedAt).toBeNull();

      const found = await repos.tokens.findActiveByHash(hashToken(minted.token), NOW);
      expect(found?.userId).toBe(user.id);
      expect(found?.token.lastUsedAt).toBe(NOW.toISOString());
      expect(
        await repos.tokens.findActiveByHash(hashToken(`${minted.token}x`), NOW),
      ).toBeUndefined();

      const listed = await repos.tokens.list(user.id);
      expect(listed).toEqual([{ ...created, lastUsedAt: NOW.toISOString() }]);
      expect(JSON.stringify(listed)).not.toContain(minted.hash);
      expect(JSON.stringify(listed)).not.toContain(minted.token);
    });

    it('stops accepting a token once revoked by its owner or expired', async () => {
      const owner = await repos.users.create({ email: uniqueEmail('owner') });
      const intruder = await repos.users.create({ email: uniqueEmail('intruder') });
      const minted = mintPersonalAccessToken();
      const token = await repos.tokens.create(owner.id, {
        name: 'ci',
        prefix: minted.prefix,
        tokenHash: minted.hash,
        expiresAt: new Date(NOW.getTime() + HOUR),
        scopes: ['moat:read'],
      });
      const later = new Date(NOW.getTime() + 2 * HOUR);
      expect(await repos.tokens.findActiveByHash(minted.hash, later)).toBeUndefined();
      expect(await repos.tokens.revoke(intruder.id, token.id, NOW)).toBe(false);
      expect(await repos.tokens.findActiveByHash(minted.hash, NOW)).toBeDefined();
      expect(await repos.tokens.revoke(owner.id, token.id, NOW)).toBe(true);
      expect(await repos.tokens.findActiveByHash(minted.hash, NOW)).toBeUndefined();
      expect(await repos.tokens.list(owner.id)).toEqual([]);
      expect(await repos.tokens.revoke(owner.id, 'not-a-uuid', NOW)).toBe(false);
    });

    it('refuses a duplicate token hash', async () => {
      const user = await repos.users.create({ email: uniqueEmail() });
      const minted = mintPersonalAccessToken();
      const token = { name: 'a', prefix: minted.prefix, tokenHash: minted.hash, scopes: [] };
      await repos.tokens.create(user.id, token);
      await expect(repos.tokens.create(user.id, token)).rejects.toMatchObject({ code: 'conflict' });
    });
  });
});
