import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import {
  createDatabase,
  createRepositories,
  type Database,
  migrateToLatest,
} from '@svc/portfolio-store';
import { createQuoteSource } from '@svc/providers';
import { createQuotaService } from '@svc/quota';
import { ServedEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillEvaluationCache } from '../src/jobs/fill-cache.js';
import { createEvaluationHistoryService } from '../src/moat/evaluation-history.js';
import { EvaluationDiff, EvaluationHistoryPage } from '../src/moat/evaluation-history-schemas.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { keepEvaluation } from '../src/moat/keep-evaluation.js';
import { COMPANYFACTS_DIR, PRICES_DIR } from './shared-data.js';

let database: Database;
let repos: ReturnType<typeof createRepositories>;
const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });

/** The real AAPL companyfacts, first without its latest fiscal year: "before the 10-K came". */
let beforeLatest10K = true;
const provider: FundamentalsProvider = {
  name: snapshot.name,
  async getFundamentals(ticker, options) {
    const full = await snapshot.getFundamentals(ticker, options);
    return beforeLatest10K ? { ...full, years: full.years.slice(0, -1) } : full;
  },
};
let clock = new Date('2026-10-01T00:00:00Z');
const now = () => clock;

beforeAll(async () => {
  database = await createDatabase({});
  await migrateToLatest(database.db);
  repos = createRepositories(database.db);
});
afterAll(() => database.close());

describe('evaluations that remember (PGlite, real AAPL companyfacts)', () => {
  const history = () =>
    createEvaluationHistoryService({
      history: repos.evaluationHistory,
      cache: repos.evaluations,
      events: repos.evaluationEvents,
    });

  it('keeps each fresh evaluation and says which filing moved which criterion', async () => {
    const user = await repos.users.create({ email: 'h@example.com', name: 'h', plan: 'pro' });
    const actor = { id: user.id, plan: user.plan };
    const evaluations = createEvaluationService({
      fundamentals: provider,
      quotes,
      splitsOf,
      now,
      cache: repos.evaluations,
      quotas: createQuotaService({ db: database.db, now }),
      keep: (input) => keepEvaluation(database.db, input),
    });
    const older = ServedEvaluation.parse(
      await evaluations.getEvaluation({ symbol: 'aapl', fresh: false, actor }),
    );
    // A cache hit is not a fresh evaluation: nothing more is kept.
    await evaluations.getEvaluation({ symbol: 'AAPL', fresh: false, actor });
    beforeLatest10K = false;
    clock = new Date('2026-11-01T00:00:00Z');
    const newer = ServedEvaluation.parse(
      await evaluations.getEvaluation({ symbol: 'AAPL', fresh: true, actor }),
    );

    const page = EvaluationHistoryPage.parse(
      await history().list({ symbol: 'aapl', page: 1, limit: 20 }),
    );
    expect(page).toMatchObject({ symbol: 'AAPL', total: 2, totalPages: 1 });
    expect(page.items.map((i) => [i.evaluatedAt, i.totalScore, i.trigger])).toEqual([
      ['2026-11-01T00:00:00.000Z', newer.totalScore, 'request'],
      ['2026-10-01T00:00:00.000Z', older.totalScore, 'request'],
    ]);
    const [latest] = page.items;
    expect(latest?.fiscalYears).toEqual(newer._fiscalYears);
    expect(latest?.filings).toEqual(newer._filings);
    expect(latest?.provider).toBe('snapshot');

    const diff = EvaluationDiff.parse(await history().diff({ symbol: 'AAPL' }));
    const lastYear = newer._fiscalYears?.at(-1) as number;
    expect(diff.newFiscalYears).toEqual([lastYear]);
    expect(diff.from.evaluatedAt).toBe('2026-10-01T00:00:00.000Z');
    // The filings that came and went, as the two evaluations' provenance gives them.
    const accessions = (e: typeof older) => (e._filings ?? []).map((f) => f.accession);
    expect(diff.newFilings.map((f) => f.accession)).toEqual(
      accessions(newer).filter((a) => !accessions(older).includes(a)),
    );
    // The 10-K that reported the new fiscal year.
    const tenK = newer._filings?.find((f) => f.form === '10-K' && f.fiscalYears.includes(lastYear));
    expect(tenK).toBeDefined();
    expect(diff.totalScore).toEqual({
      from: older.totalScore,
      to: newer.totalScore,
      change: Math.round((newer.totalScore - older.totalScore) * 1e6) / 1e6,
    });
    expect(diff.verdict.changed).toBe(older.verdict !== newer.verdict);
    // Each criterion as the two evaluations give it; a moved one names the new year's figure.
    for (const change of diff.criteria) {
      const a = older.criteria.find((c) => c.key === change.key);
      const b = newer.criteria.find((c) => c.key === change.key);
      expect(change.score.from).toBe(a?.score);
      expect(change.score.to).toBe(b?.score);
      expect(change.moved).toBe(
        a?.score !== b?.score || a?.value !== b?.value || a?.status !== b?.status,
      );
      if (b?._trendYears?.includes(lastYear)) {
        expect(change.figures.map((f) => f.fiscalYear)).toContain(lastYear);
        expect(change.filings.map((f) => f.accession)).toContain(tenK?.accession);
      }
    }
    expect(diff.moved.length).toBeGreaterThan(0);
    expect(diff.summary).toContain(tenK?.accession);

    // The same pair by ids, and the reverse pair, which undoes every change.
    const [to, from] = page.items;
    const byId = await history().diff({ symbol: 'AAPL', from: from?.id, to: to?.id });
    expect(byId.criteria).toEqual(diff.criteria);
    const back = await history().diff({ symbol: 'AAPL', from: to?.id, to: from?.id });
    expect(back.totalScore.change).toBe(
      diff.totalScore.change === 0 ? 0 : -(diff.totalScore.change ?? 0),
    );
    expect(back.droppedFiscalYears).toEqual([lastYear]);
    // One id alone: `from` against the latest, `to` against the one kept before it.
    expect((await history().diff({ symbol: 'AAPL', from: from?.id })).criteria).toEqual(
      diff.criteria,
    );
    expect((await history().diff({ symbol: 'AAPL', to: to?.id })).criteria).toEqual(diff.criteria);

    // The screener sees the change since the previous evaluation.
    const moved = await repos.screener.screen({ minScoreChange: -100 });
    expect(moved.items.map((r) => [r.symbol, r.scoreChange])).toEqual([
      ['AAPL', diff.totalScore.change],
    ]);
  });

  it('answers not_found clearly', async () => {
    await expect(history().diff({ symbol: 'MSFT' })).rejects.toMatchObject({ code: 'not_found' });
    const { items } = await history().list({ symbol: 'AAPL', page: 1, limit: 1 });
    const id = items[0]?.id as string;
    // the oldest kept evaluation has none before it
    const oldest = (await history().list({ symbol: 'AAPL', page: 1, limit: 100 })).items.at(-1);
    await expect(history().diff({ symbol: 'AAPL', to: oldest?.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    // An id of another symbol is not found under this one.
    await expect(history().diff({ symbol: 'MSFT', from: id, to: id })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(history().cached('ZZZZ')).rejects.toMatchObject({ code: 'not_found' });
    expect((await history().cached('aapl'))._cached).toBe(true);
    expect(await history().list({ symbol: 'MSFT', page: 1, limit: 5 })).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it('keeps the evaluations of fill-cache too, as trigger fill-cache', async () => {
    clock = new Date('2026-11-02T00:00:00Z');
    const summary = await fillEvaluationCache({
      tickers: ['AAPL', 'MNST'],
      evaluate: { fundamentals: provider, quotes, splitsOf, now },
      db: database.db,
    });
    expect(summary.evaluated).toBe(2);
    const aapl = await history().list({ symbol: 'AAPL', page: 1, limit: 1 });
    expect(aapl.total).toBe(3);
    expect(aapl.items[0]).toMatchObject({ trigger: 'fill-cache', scoreChange: 0 });
    const mnst = await history().list({ symbol: 'MNST', page: 1, limit: 5 });
    expect(mnst.items.map((i) => [i.trigger, i.scoreChange])).toEqual([['fill-cache', null]]);
  });
});
