import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { createRepositories, type Repositories } from './index.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const LATER = new Date('2026-03-15T13:00:00Z');

describe.each(backends)('saved reports and advisor proposals on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  const newUser = async () => (await repos.users.create({ email: uniqueEmail() })).id;

  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  describe('moat reports', () => {
    const evaluation = {
      symbol: 'KO',
      companyName: 'Coca-Cola',
      totalScore: 62.5,
      maxScore: 100,
      verdict: 'Moderate Competitive Advantage',
      criteria: [],
    };

    it('filters by tags containing every listed tag, for the owner only', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const a = await repos.reports.create(alice, {
        symbol: 'ko',
        evaluation,
        tags: ['Dividend', 'staples '],
      });
      const b = await repos.reports.create(alice, {
        symbol: 'PEP',
        evaluation,
        tags: ['dividend'],
      });
      const c = await repos.reports.create(alice, { symbol: 'MSFT', evaluation, tags: [] });
      await repos.reports.create(bob, { symbol: 'KO', evaluation, tags: ['dividend', 'staples'] });

      const ids = async (tags?: string[]) =>
        (await repos.reports.list(alice, tags ? { tags } : {})).map((r) => r.id).sort();
      expect(await ids()).toEqual([a.id, b.id, c.id].sort());
      expect(await ids(['dividend'])).toEqual([a.id, b.id].sort());
      expect(await ids(['DIVIDEND', 'staples'])).toEqual([a.id]);
      expect(await ids(['dividend', 'tech'])).toEqual([]);
      expect(await ids([' ', ''])).toEqual([a.id, b.id, c.id].sort());
    });

    it('fills missing summary fields from the evaluation and returns it on get', async () => {
      const user = await newUser();
      const { id } = await repos.reports.create(user, {
        symbol: 'KO',
        evaluation,
        tags: ['b', 'a', 'b'],
      });
      const report = await repos.reports.get(user, id);
      expect(report).toMatchObject({
        id,
        symbol: 'KO',
        companyName: 'Coca-Cola',
        totalScore: 62.5,
        maxScore: 100,
        verdict: 'Moderate Competitive Advantage',
        tags: ['a', 'b'],
        evaluation,
      });
      const [listed] = await repos.reports.list(user);
      expect(listed).not.toHaveProperty('evaluation');
    });

    it('never lets another user read or delete a report', async () => {
      const owner = await newUser();
      const other = await newUser();
      const { id } = await repos.reports.create(owner, { symbol: 'KO', evaluation });
      expect(await repos.reports.get(other, id)).toBeUndefined();
      expect(await repos.reports.delete(other, id)).toBe(false);
      expect(await repos.reports.get(owner, id)).toBeDefined();
      expect(await repos.reports.delete(owner, id)).toBe(true);
      expect(await repos.reports.get(owner, id)).toBeUndefined();
      expect(await repos.reports.delete(owner, 'not-a-uuid')).toBe(false);
    });
  });

  describe('advisor proposals', () => {
    const proposal = {
      kind: 'record_transaction',
      summary: 'Buy 1 KO',
      payload: { symbol: 'KO', quantity: '1' },
      expiresAt: LATER,
    };

    it('applies at most once, even under concurrent confirmations', async () => {
      const user = await newUser();
      const created = await repos.proposals.create(user, proposal);
      expect(created.status).toBe('pending');
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => repos.proposals.markApplied(user, created.id, NOW)),
      );
      const decided = outcomes.filter((o) => o.outcome === 'decided');
      expect(decided).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'conflict')).toHaveLength(9);
      expect(decided[0]).toMatchObject({
        proposal: { status: 'applied', appliedAt: NOW.toISOString() },
      });
      expect(await repos.proposals.markRejected(user, created.id, NOW)).toMatchObject({
        outcome: 'conflict',
        reason: 'already_decided',
      });
    });

    it('refuses expired proposals and other users’ proposals', async () => {
      const user = await newUser();
      const other = await newUser();
      const created = await repos.proposals.create(user, proposal);
      expect(await repos.proposals.markApplied(other, created.id, NOW)).toEqual({
        outcome: 'not_found',
      });
      expect(await repos.proposals.findForUser(other, created.id)).toBeUndefined();
      expect(await repos.proposals.markApplied(user, created.id, LATER)).toMatchObject({
        outcome: 'conflict',
        reason: 'expired',
      });
      expect((await repos.proposals.findForUser(user, created.id))?.status).toBe('pending');
      expect(await repos.proposals.markApplied(user, 'nope', NOW)).toEqual({
        outcome: 'not_found',
      });
    });

    it('rolls the mark back when the work in the same transaction fails', async () => {
      const user = await newUser();
      const created = await repos.proposals.create(user, proposal);
      await expect(
        database.db.transaction().execute(async (trx) => {
          const decision = await createRepositories(trx).proposals.markApplied(
            user,
            created.id,
            NOW,
          );
          expect(decision.outcome).toBe('decided');
          throw new Error('effect failed');
        }),
      ).rejects.toThrow('effect failed');
      expect((await repos.proposals.findForUser(user, created.id))?.status).toBe('pending');
      expect((await repos.proposals.markRejected(user, created.id, NOW)).outcome).toBe('decided');
    });
  });
});
