import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate.js';
import { mintPersonalAccessToken } from '../security/tokens.js';
import { backends, migratorOf, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { createRepositories, type Repositories } from './index.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const MINUTE = 60_000;

describe.each(backends)('token scopes and activity on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  async function tokenOf(userId: string, scopes: string[]) {
    const minted = mintPersonalAccessToken();
    const token = await repos.tokens.create(userId, {
      name: 'agent',
      prefix: minted.prefix,
      tokenHash: minted.hash,
      scopes,
    });
    return { token, hash: minted.hash };
  }

  it('stores, lists, verifies and changes the scopes of a token, for its owner only', async () => {
    const owner = await repos.users.create({ email: uniqueEmail('scopes') });
    const other = await repos.users.create({ email: uniqueEmail('other') });
    const { token, hash } = await tokenOf(owner.id, ['portfolio:read', 'moat:read']);
    expect(token.scopes).toEqual(['portfolio:read', 'moat:read']);
    expect((await repos.tokens.list(owner.id))[0]?.scopes).toEqual(['portfolio:read', 'moat:read']);
    expect((await repos.tokens.findActiveByHash(hash, NOW))?.token.scopes).toEqual([
      'portfolio:read',
      'moat:read',
    ]);

    expect(await repos.tokens.updateScopes(other.id, token.id, ['moat:read'])).toBeUndefined();
    const changed = await repos.tokens.updateScopes(owner.id, token.id, ['moat:read']);
    expect(changed?.scopes).toEqual(['moat:read']);
    expect((await repos.tokens.findActiveByHash(hash, NOW))?.token.scopes).toEqual(['moat:read']);
    expect(await repos.tokens.owns(owner.id, token.id)).toBe(true);
    expect(await repos.tokens.owns(other.id, token.id)).toBe(false);

    await repos.tokens.revoke(owner.id, token.id, NOW);
    expect(await repos.tokens.updateScopes(owner.id, token.id, ['portfolio:read'])).toBeUndefined();
    // a revoked token's record stays its owner's (its activity remains readable)
    expect(await repos.tokens.owns(owner.id, token.id)).toBe(true);
  });

  it('records calls and pages them newest first, per token and only for its owner', async () => {
    const owner = await repos.users.create({ email: uniqueEmail('audit') });
    const other = await repos.users.create({ email: uniqueEmail('audit-other') });
    const { token } = await tokenOf(owner.id, ['moat:read']);
    const { token: second } = await tokenOf(owner.id, ['moat:read']);
    for (let i = 0; i < 5; i += 1) {
      await repos.tokenActivity.record({
        tokenId: token.id,
        userId: owner.id,
        at: new Date(NOW.getTime() + i * MINUTE),
        tool: i === 4 ? 'getMoatEvaluation' : 'screenMoat',
        outcome: i === 4 ? 'error' : 'ok',
        errorCode: i === 4 ? 'quota_exceeded' : null,
        quotaSpent: i === 3 ? { stock_evaluation: 1 } : {},
        durationMs: 12.6,
        arguments: i === 0 ? null : { limit: i },
      });
    }
    await repos.tokenActivity.record({
      tokenId: second.id,
      userId: owner.id,
      at: NOW,
      tool: 'listPortfolios',
      outcome: 'ok',
      errorCode: null,
      quotaSpent: {},
      durationMs: 1,
      arguments: null,
    });

    const since = new Date(NOW.getTime() - MINUTE);
    const first = await repos.tokenActivity.page(owner.id, token.id, {
      since,
      limit: 2,
      offset: 0,
    });
    expect(first.total).toBe(5);
    expect(first.items.map((a) => a.at)).toEqual([
      new Date(NOW.getTime() + 4 * MINUTE).toISOString(),
      new Date(NOW.getTime() + 3 * MINUTE).toISOString(),
    ]);
    expect(first.items[0]).toMatchObject({
      tool: 'getMoatEvaluation',
      outcome: 'error',
      errorCode: 'quota_exceeded',
      quotaSpent: {},
      durationMs: 13,
      arguments: { limit: 4 },
    });
    expect(first.items[1]?.quotaSpent).toEqual({ stock_evaluation: 1 });
    const last = await repos.tokenActivity.page(owner.id, token.id, { since, limit: 2, offset: 4 });
    expect(last.items.map((a) => a.arguments)).toEqual([null]);

    const recent = new Date(NOW.getTime() + 2 * MINUTE);
    expect(
      (await repos.tokenActivity.page(owner.id, token.id, { since: recent, limit: 10, offset: 0 }))
        .total,
    ).toBe(3);
    expect(
      await repos.tokenActivity.page(other.id, token.id, { since, limit: 10, offset: 0 }),
    ).toEqual({ items: [], total: 0 });

    expect(await repos.tokenActivity.purge(recent)).toBeGreaterThanOrEqual(3);
    const kept = await repos.tokenActivity.page(owner.id, token.id, {
      since,
      limit: 10,
      offset: 0,
    });
    expect(kept.items.map((a) => a.at)).toEqual([
      new Date(NOW.getTime() + 4 * MINUTE).toISOString(),
      new Date(NOW.getTime() + 3 * MINUTE).toISOString(),
      recent.toISOString(),
    ]);
  });

  it('records several calls in one statement, committed synchronously when any spent a unit', async () => {
    const owner = await repos.users.create({ email: uniqueEmail('audit-many') });
    const { token } = await tokenOf(owner.id, ['moat:read']);
    const call = (i: number, quotaSpent: Record<string, number>) => ({
      tokenId: token.id,
      userId: owner.id,
      at: new Date(NOW.getTime() + i * MINUTE),
      tool: `tool-${i}`,
      outcome: i === 1 ? 'error' : 'ok',
      errorCode: i === 1 ? 'not_found' : null,
      quotaSpent,
      durationMs: i + 0.4,
      arguments: i === 0 ? undefined : { symbol: `S${i}`, note: "it's \u00e9" },
    });
    await repos.tokenActivity.recordMany([]);
    await repos.tokenActivity.recordMany([call(0, {}), call(1, {}), call(2, {})]);
    await repos.tokenActivity.recordMany([call(3, {}), call(4, { stock_evaluation: 1 })]);
    const since = new Date(NOW.getTime() - MINUTE);
    const page = await repos.tokenActivity.page(owner.id, token.id, {
      since,
      limit: 10,
      offset: 0,
    });
    expect(page.total).toBe(5);
    expect(page.items.map((a) => [a.tool, a.outcome, a.errorCode, a.durationMs])).toEqual([
      ['tool-4', 'ok', null, 4],
      ['tool-3', 'ok', null, 3],
      ['tool-2', 'ok', null, 2],
      ['tool-1', 'error', 'not_found', 1],
      ['tool-0', 'ok', null, 0],
    ]);
    expect(page.items[0]?.quotaSpent).toEqual({ stock_evaluation: 1 });
    expect(page.items[2]?.arguments).toEqual({ symbol: 'S2', note: "it's \u00e9" });
    expect(page.items[4]?.arguments).toBeNull();
  });

  it('writes none of a batch when one of its rows is refused', async () => {
    const owner = await repos.users.create({ email: uniqueEmail('audit-bad') });
    const { token } = await tokenOf(owner.id, ['moat:read']);
    const good = {
      tokenId: token.id,
      userId: owner.id,
      at: NOW,
      tool: 'screenMoat',
      outcome: 'ok',
      errorCode: null,
      quotaSpent: {},
      durationMs: 1,
      arguments: null,
    };
    // a token id that does not exist breaks the foreign key
    const bad = { ...good, tokenId: '00000000-0000-4000-8000-000000000000' };
    await expect(repos.tokenActivity.recordMany([good, bad])).rejects.toThrow();
    const page = await repos.tokenActivity.page(owner.id, token.id, {
      since: new Date(NOW.getTime() - MINUTE),
      limit: 10,
      offset: 0,
    });
    expect(page.total).toBe(0);
  });

  it('gives the tokens that existed before migration 0010 every scope', async () => {
    const migrator = migratorOf(database);
    expect((await migrator.migrateTo('0009-screener-sort-indexes')).error).toBeUndefined();
    const user = await repos.users.create({ email: uniqueEmail('legacy') });
    await sql`insert into personal_access_tokens (user_id, name, prefix, token_hash)
      values (${user.id}, 'old', 'svc_pat_old', ${`legacy-${user.id}`})`.execute(database.db);
    await migrateToLatest(database.db);
    expect((await repos.tokens.list(user.id))[0]?.scopes).toEqual([
      'portfolio:read',
      'portfolio:values',
      'moat:read',
      'moat:fresh',
      'ai:consult',
      'reports:write',
    ]);
    // no default afterwards: a new token names its scopes
    await expect(
      sql`insert into personal_access_tokens (user_id, name, prefix, token_hash)
        values (${user.id}, 'new', 'svc_pat_new', ${`new-${user.id}`})`.execute(database.db),
    ).rejects.toThrow(/scopes/);
  });
});
