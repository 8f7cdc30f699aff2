import type { MoatEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase } from '../test-support/backends.js';
import { createRepositories, type Repositories } from './index.js';

const NONE = 'No Clear Moat Detected' as MoatEvaluation['verdict'];

function made(symbol: string, totalScore: number, extra: Partial<MoatEvaluation> = {}) {
  return {
    symbol,
    companyName: `${symbol} Inc.`,
    totalScore,
    maxScore: 100,
    verdict: NONE,
    criteria: [],
    ...extra,
  } as MoatEvaluation;
}

describe.each(backends)('evaluations as of a day, and by methodology, on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  it('keeps one evaluation per symbol and day, apart from the latest one', async () => {
    const cache = repos.evaluations;
    await cache.upsert(made('ASOF', 80, { asOf: null }), {
      cachedAt: new Date('2026-03-01T00:00:00Z'),
    });
    await cache.upsertAsOf(
      made('asof', 40, { asOf: '2019-06-30' }),
      '2019-06-30',
      new Date('2026-03-02T00:00:00Z'),
    );
    await cache.upsertAsOf(
      made('ASOF', 30, { asOf: '2012-01-01' }),
      '2012-01-01',
      new Date('2026-03-02T00:00:00Z'),
    );
    // replaced in place
    await cache.upsertAsOf(
      made('ASOF', 45, { asOf: '2019-06-30' }),
      '2019-06-30',
      new Date('2026-03-03T00:00:00Z'),
    );

    expect((await cache.get('ASOF'))?.evaluation.totalScore).toBe(80);
    expect(await cache.getAsOf('asof', '2019-06-30')).toEqual({
      symbol: 'ASOF',
      evaluation: expect.objectContaining({ totalScore: 45, asOf: '2019-06-30' }),
      marketCap: null,
      cachedAt: '2026-03-03T00:00:00.000Z',
    });
    expect((await cache.getAsOf('ASOF', '2012-01-01'))?.evaluation.totalScore).toBe(30);
    expect(await cache.getAsOf('ASOF', '2012-01-02')).toBeUndefined();
    // the screener and the refresh pass see the latest evaluations only
    expect(await cache.symbols()).toEqual(['ASOF']);
  });

  it('rejects a day that is not a date', async () => {
    await expect(
      repos.evaluations.upsertAsOf(made('BAD', 1), '2019-02-30', new Date()),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('lists the cached symbols scored by another methodology', async () => {
    const cache = repos.evaluations;
    await cache.upsert(made('OLDA', 50));
    await cache.upsert(made('OLDB', 50, { methodologyVersion: '1' }));
    await cache.upsert(made('NEWC', 50, { methodologyVersion: '2' }));
    const off = (methodologyVersion: string) => ({ methodologyVersion, reconcileProvider: null });
    expect(await cache.staleSymbols(off('2'), 10)).toEqual(['ASOF', 'OLDA', 'OLDB']);
    expect(await cache.staleSymbols(off('2'), 2)).toEqual(['ASOF', 'OLDA']);
    expect(await cache.staleSymbols(off('1'), 10)).toEqual(['ASOF', 'NEWC', 'OLDA']);
  });

  it('lists, and locks, the cached symbols reconciled otherwise than the server is configured', async () => {
    const cache = repos.evaluations;
    const v = { methodologyVersion: '9' };
    await cache.upsert(made('RNONE', 50, { ...v, _reconciliation: null } as never));
    await cache.upsert(
      made('RSIM', 50, {
        ...v,
        _reconciliation: { provider: 'simfin', status: 'compared' },
      } as never),
    );
    // asked but unavailable: reconciled with simfin all the same (asking again changes nothing)
    await cache.upsert(
      made('RSIMU', 50, {
        ...v,
        _reconciliation: { provider: 'simfin', status: 'unavailable', detail: 'no company' },
      } as never),
    );
    await cache.upsert(
      made('RSEC', 50, {
        ...v,
        _reconciliation: { provider: 'sec-edgar', status: 'compared' },
      } as never),
    );
    // made before reconciliation was recorded: none
    await cache.upsert(made('RUNREC', 50, v));
    const ours = (symbols: string[]) => symbols.filter((s) => s.startsWith('R'));
    const stale = async (reconcileProvider: string | null) =>
      ours(await cache.staleSymbols({ methodologyVersion: '9', reconcileProvider }, 100));

    expect(await stale(null)).toEqual(['RSEC', 'RSIM', 'RSIMU']);
    expect(await stale('simfin')).toEqual(['RNONE', 'RSEC', 'RUNREC']);
    expect(await stale('snapshot')).toEqual(['RNONE', 'RSEC', 'RSIM', 'RSIMU', 'RUNREC']);

    const current = { methodologyVersion: '9', reconcileProvider: 'simfin' };
    await database.db.transaction().execute(async (trx) => {
      const locking = createRepositories(trx).evaluations;
      expect(await locking.lockStale('RSIM', current)).toBeUndefined();
      expect(await locking.lockStale('RSEC', current)).toEqual({
        previousVersion: '9',
        previousReconcileProvider: 'sec-edgar',
      });
      expect(await locking.lockStale('runrec', current)).toEqual({
        previousVersion: '9',
        previousReconcileProvider: null,
      });
      expect(
        await locking.lockStale('RSIM', { methodologyVersion: '10', reconcileProvider: 'simfin' }),
      ).toEqual({ previousVersion: '9', previousReconcileProvider: 'simfin' });
      expect(await locking.lockStale('ABSENT', current)).toBeUndefined();
    });
  });
});
