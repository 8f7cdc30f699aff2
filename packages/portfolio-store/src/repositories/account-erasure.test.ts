import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { testLedger } from '../test-support/ledger.js';
import { createRepositories, type Repositories } from './index.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const LATER = new Date('2026-04-15T12:00:00Z');

/** Issue 30: the store's part of revoking other sessions, deleting a portfolio, erasing a user. */
describe.each(backends)('the user’s own data on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  let ledger: ReturnType<typeof testLedger>;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
    ledger = testLedger(database.db);
  });
  afterAll(() => database.cleanup());

  const counterKeys = async () =>
    (await database.db.selectFrom('rate_limits').select('key').orderBy('key').execute()).map(
      (row) => row.key,
    );

  it('revokeOthers revokes every live session but the one kept, and answers their ids', async () => {
    const user = await repos.users.create({ email: uniqueEmail('sessions') });
    const other = await repos.users.create({ email: uniqueEmail('other') });
    const [kept, a, b] = await Promise.all(
      [0, 1, 2].map(() => repos.sessions.create(user.id, { expiresAt: LATER })),
    );
    const foreign = await repos.sessions.create(other.id, { expiresAt: LATER });
    if (!kept || !a || !b) throw new Error('sessions not created');
    const revoked = await repos.sessions.revokeOthers(user.id, kept.id, NOW);
    expect(revoked.sort()).toEqual([a.id, b.id].sort());
    expect(await repos.sessions.findActive(user.id, kept.id, NOW)).toBeDefined();
    expect(await repos.sessions.findActive(user.id, a.id, NOW)).toBeUndefined();
    expect(await repos.sessions.findActive(other.id, foreign.id, NOW)).toBeDefined();
    expect(await repos.sessions.revokeOthers(user.id, kept.id, NOW)).toEqual([]);
  });

  it("portfolios.delete removes only the owner's portfolio, with its ledger", async () => {
    const owner = await repos.users.create({ email: uniqueEmail('owner') });
    const stranger = await repos.users.create({ email: uniqueEmail('stranger') });
    const portfolio = await repos.portfolios.create(owner.id, { name: 'P' });
    await ledger.insert(owner.id, portfolio.id, {
      type: 'deposit',
      amount: '10',
      currency: 'EUR',
      executedAt: NOW,
    });
    expect(await repos.portfolios.delete(stranger.id, portfolio.id)).toBe(false);
    expect(await repos.portfolios.delete(owner.id, 'not-a-uuid')).toBe(false);
    expect(await repos.portfolios.get(owner.id, portfolio.id)).toBeDefined();
    expect(await repos.portfolios.delete(owner.id, portfolio.id)).toBe(true);
    expect(await repos.portfolios.get(owner.id, portfolio.id)).toBeUndefined();
    expect(await repos.transactions.listAll(owner.id, portfolio.id)).toEqual([]);
  });

  it('erase deletes the user, what references it and the counters holding a fragment', async () => {
    const user = await repos.users.create({ email: uniqueEmail('erase') });
    const kept = await repos.users.create({ email: uniqueEmail('kept') });
    const portfolio = await repos.portfolios.create(user.id, { name: 'P' });
    await ledger.insert(user.id, portfolio.id, {
      type: 'deposit',
      amount: '10',
      currency: 'EUR',
      executedAt: NOW,
    });
    await repos.sessions.create(user.id, { expiresAt: LATER });
    const digest = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    await database.db
      .insertInto('rate_limits')
      .values([
        { key: `login:127.0.0.1|${digest}`, points: 1, expire: null },
        { key: `requests:user:${user.id}`, points: 1, expire: null },
        { key: `requests:user:${kept.id}`, points: 1, expire: null },
        { key: 'requests:user:short', points: 1, expire: null },
      ])
      .execute();

    // a fragment shorter than 8 characters is ignored: it could match anyone's key
    expect(
      await repos.users.erase(user.id, { counterKeyFragments: [digest, user.id, 'short'] }),
    ).toBe(true);
    expect(await repos.users.findById(user.id)).toBeUndefined();
    expect(await repos.portfolios.list(user.id)).toEqual([]);
    const { rows } = await sql<{ n: string | number }>`
      select count(*) as n from transactions where user_id = ${user.id}`.execute(database.db);
    expect(Number(rows[0]?.n)).toBe(0);
    const keys = await counterKeys();
    expect(keys).toContain(`requests:user:${kept.id}`);
    expect(keys).toContain('requests:user:short');
    expect(keys.filter((key) => key.includes(user.id) || key.includes(digest))).toEqual([]);
    expect(await repos.users.findById(kept.id)).toBeDefined();
    expect(await repos.users.erase(user.id, { counterKeyFragments: [] })).toBe(false);
  });
});
