/**
 * Issue 39: cached evaluations of an older methodology are computed again by the refresh pass's
 * methodology step, kept in the history, and done once even when two passes race.
 */
import { createSnapshotProvider } from '@svc/fundamentals-client';
import { METHODOLOGY_VERSION } from '@svc/moat-scoring';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescoreOlderMethodology } from '../src/jobs/methodology-refresh.js';
import { refreshDepsFor } from '../src/jobs/refresh.js';
import { evaluateCompany } from '../src/moat/evaluate-company.js';
import { COMPANYFACTS_DIR } from './shared-data.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const fundamentals = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const evaluate = {
  fundamentals,
  quotes: null,
  now: () => new Date('2026-11-21T10:00:00Z'),
};

describe.each(backends)('the methodology step on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('computes again the cached evaluations of another methodology, once', async () => {
    const repos = createRepositories(database.db);
    const current = await evaluateCompany('COST', evaluate);
    const { methodologyVersion: _v, ...unversioned } = await evaluateCompany('CL', evaluate);
    await repos.evaluations.upsert(current);
    await repos.evaluations.upsert({ ...unversioned, totalScore: 1 });
    await repos.evaluations.upsert({ ...current, symbol: 'MNST', methodologyVersion: '1' });

    const deps = refreshDepsFor(database.db, {
      sec: {
        dailyIndex: async () => ({ found: false, status: 404 }),
        tickers: async () => new Map(),
      },
      evaluate,
    });
    const staleSymbols = deps.staleSymbols as NonNullable<typeof deps.staleSymbols>;
    // two passes at once: each row is recomputed and kept once
    const [a, b] = await Promise.all([
      rescoreOlderMethodology({ ...deps, staleSymbols }),
      rescoreOlderMethodology({ ...deps, staleSymbols }),
    ]);
    // each stale row evaluated exactly once; the other pass skipped it or no longer listed it
    const all = [...a, ...b];
    const evaluated = all.filter((r) => r.outcome === 'evaluated').map((r) => r.symbol);
    expect(evaluated.sort()).toEqual(['CL', 'MNST']);
    expect(all.filter((r) => r.outcome !== 'evaluated').every((r) => r.outcome === 'skipped')).toBe(
      true,
    );
    expect(all.find((r) => r.symbol === 'MNST' && r.outcome === 'evaluated')).toMatchObject({
      previousVersion: '1',
    });
    expect(all.find((r) => r.symbol === 'CL' && r.outcome === 'evaluated')).toMatchObject({
      previousVersion: null,
    });
    const cl = (await repos.evaluations.get('CL'))?.evaluation;
    expect(cl).toMatchObject({ methodologyVersion: METHODOLOGY_VERSION });
    expect(cl?.totalScore).toBeGreaterThan(1);
    expect((await repos.evaluationHistory.list('CL', { limit: 5, offset: 0 })).items).toMatchObject(
      [{ trigger: 'fill-cache', totalScore: cl?.totalScore }],
    );
    expect((await repos.evaluationHistory.list('COST', { limit: 5, offset: 0 })).total).toBe(0);
    expect(await rescoreOlderMethodology({ ...deps, staleSymbols })).toEqual([]);
  });
});
