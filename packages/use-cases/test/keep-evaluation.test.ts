/**
 * Issue 37: one `keepEvaluation` for every producer. The history row, the change event, its outbox
 * row and the cache row are one unit of work: a fault before any of its statements leaves none of
 * them written. On PostgreSQL and PGlite.
 */
import { createSnapshotProvider, type FundamentalsProvider } from '@svc/fundamentals-client';
import { createRepositories, type Executor, type HistoryEvaluation } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { createQuotaService } from '@svc/quota';
import type { Criterion, MoatEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillEvaluationCache } from '../src/jobs/fill-cache.js';
import { EvaluationChangeEvent } from '../src/moat/evaluation-changes.js';
import { type ComparedEvaluation, evaluationChange } from '../src/moat/evaluation-diff.js';
import { createEvaluationService } from '../src/moat/evaluation-service.js';
import { keepEvaluation } from '../src/moat/keep-evaluation.js';
import { COMPANYFACTS_DIR } from './shared-data.js';
import { InjectedFault, withFault } from './support/faults.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const MODERATE = 'Moderate Competitive Advantage' as MoatEvaluation['verdict'];

const criterion = (key: string, score: number, status: string) =>
  ({ key, name: key, score, maxScore: 12.5, status, value: `${score}` }) as Criterion;

/** A hand-made evaluation: `net_margin` with `status`, `roic` making up the total. */
function made(
  symbol: string,
  totalScore: number,
  status = 'pass',
  methodologyVersion?: string,
): HistoryEvaluation {
  return {
    symbol,
    companyName: `${symbol} Inc.`,
    totalScore,
    maxScore: 100,
    verdict: MODERATE,
    criteria: [criterion('net_margin', 10, status), criterion('roic', totalScore - 10, 'pass')],
    _fiscalYears: [2022, 2023, 2024],
    ...(methodologyVersion ? { methodologyVersion } : {}),
  } as HistoryEvaluation;
}

const compared = (evaluation: HistoryEvaluation): ComparedEvaluation => ({
  ...evaluation,
  evaluatedAt: '2026-01-01T00:00:00.000Z',
  fiscalYears: evaluation._fiscalYears ?? [],
  evaluation,
});

describe('the change rule (CONTRACT §7), beside the diff', () => {
  it('counts the verdict, the total by a point, or a status; and says why', () => {
    const before = compared(made('RULE', 60));
    expect(evaluationChange('RULE', before, compared(made('RULE', 60.5)))).toBeNull();
    // float noise of the same figure is no point
    expect(evaluationChange('RULE', before, compared(made('RULE', 60 + 0.1 + 0.2 + 0.7)))).toEqual(
      expect.objectContaining({ cause: 'data' }),
    );
    expect(
      evaluationChange('RULE', before, compared(made('RULE', 60 + 0.999_999_9))),
    ).toMatchObject({ changes: [{ key: 'roic' }] });
    const status = evaluationChange('RULE', before, compared(made('RULE', 60, 'warning')));
    expect(status).toMatchObject({
      symbol: 'RULE',
      cause: 'data',
      previous: { totalScore: 60, methodologyVersion: '1' },
      current: { totalScore: 60, methodologyVersion: '1' },
      changes: [{ key: 'net_margin', status: { from: 'pass', to: 'warning' } }],
    });
    const filing = { accession: '0000320193-25-000079', form: '10-K', filed: '2025-10-31' };
    expect(evaluationChange('RULE', before, compared(made('RULE', 70)), filing)).toMatchObject({
      cause: 'filing',
      filing,
    });
    // A new method, not a new company: `methodology`, even when a filing came with it.
    const method = evaluationChange(
      'RULE',
      before,
      compared(made('RULE', 70, 'pass', '2')),
      filing,
    );
    expect(method).toMatchObject({
      cause: 'methodology',
      previous: { methodologyVersion: '1' },
      current: { methodologyVersion: '2' },
    });
    expect(
      evaluationChange('RULE', compared(made('RULE', 60, 'pass', '1')), compared(made('RULE', 70))),
    ).toMatchObject({ cause: 'data' });
    // RECONCILE_PROVIDER set, changed or turned off between the two: the server's way of scoring
    // changed, not the company; a second provider asked but unavailable counts as asked
    const reconciled = (provider: string | null, status = 'compared') =>
      compared({
        ...made('RULE', 70),
        _reconciliation: provider === null ? null : { provider, status },
      } as HistoryEvaluation);
    const unreconciled = compared(made('RULE', 60));
    expect(evaluationChange('RULE', unreconciled, reconciled('simfin'), filing)).toMatchObject({
      cause: 'methodology',
      previous: { methodologyVersion: '1', reconciledWith: null },
      current: { methodologyVersion: '1', reconciledWith: 'simfin' },
    });
    expect(evaluationChange('RULE', reconciled('simfin'), reconciled('sec-edgar'))).toBeNull();
    const changedProvider = { ...reconciled('sec-edgar'), totalScore: 80 };
    expect(evaluationChange('RULE', reconciled('simfin'), changedProvider)).toMatchObject({
      cause: 'methodology',
    });
    expect(
      evaluationChange('RULE', reconciled('simfin'), { ...unreconciled, totalScore: 50 }),
    ).toMatchObject({ cause: 'methodology', current: { reconciledWith: null } });
    expect(
      evaluationChange('RULE', reconciled('simfin', 'unavailable'), {
        ...reconciled('simfin'),
        totalScore: 80,
      }),
    ).toMatchObject({ cause: 'data' });
  });
});

describe.each(backends)('keepEvaluation on $name', (backend) => {
  let database: TestDatabase;
  const snapshot = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
  /** The real companyfacts; while `truncated`, without each company's latest fiscal year. */
  const state = { truncated: true };
  const provider: FundamentalsProvider = {
    name: snapshot.name,
    async getFundamentals(ticker, options) {
      const full = await snapshot.getFundamentals(ticker, options);
      return state.truncated ? { ...full, years: full.years.slice(0, -1) } : full;
    },
  };
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  /** What is written of `symbol`: history rows, events, outbox rows, the cached total. */
  async function written(symbol: string) {
    const count = async (table: 'evaluation_history' | 'evaluation_events' | 'event_outbox') => {
      const row = await database.db
        .selectFrom(table)
        .where('symbol', '=', symbol)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const cached = await createRepositories(database.db).evaluations.get(symbol);
    return {
      history: await count('evaluation_history'),
      events: await count('evaluation_events'),
      outbox: await count('event_outbox'),
      cachedTotal: cached?.evaluation.totalScore ?? null,
    };
  }

  it('writes history, event, outbox and cache together, or none of them', async () => {
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
    const first = await keepEvaluation(database.db, {
      evaluation: made('unit', 60),
      trigger: 'request',
      evaluatedAt: at(0),
    });
    expect(first.event).toBeUndefined();
    expect(first.record).toMatchObject({ symbol: 'UNIT', scoreChange: null });
    expect(await written('UNIT')).toEqual({ history: 1, events: 0, outbox: 0, cachedTotal: 60 });

    // A fault before each statement of a keep that writes everything leaves it all as it was.
    await keepEvaluation(database.db, {
      evaluation: made('COUNT', 60),
      trigger: 'request',
      evaluatedAt: at(0),
    });
    const counting = withFault(database.db, () => false);
    const counted = await keepEvaluation(counting.db, {
      evaluation: made('COUNT', 70.25),
      trigger: 'request',
      evaluatedAt: at(1),
    });
    expect(counted.event).toBeDefined();
    const statements = counting.statements();
    expect(statements).toBeGreaterThanOrEqual(6); // lock, previous, history, event, outbox, cache
    for (let k = 1; k <= statements; k += 1) {
      const faulty = withFault(database.db, (s) => s.index === k);
      await expect(
        keepEvaluation(faulty.db, {
          evaluation: made('UNIT', 70.25),
          trigger: 'fill-cache',
          evaluatedAt: at(k),
        }),
      ).rejects.toBeInstanceOf(InjectedFault);
      expect(await written('UNIT'), `fault before statement ${k}`).toEqual({
        history: 1,
        events: 0,
        outbox: 0,
        cachedTotal: 60,
      });
    }

    const second = await keepEvaluation(database.db, {
      evaluation: made('UNIT', 70.25),
      trigger: 'fill-cache',
      evaluatedAt: at(10),
    });
    expect(second.record.scoreChange).toBe(10.25);
    expect(EvaluationChangeEvent.parse(second.event)).toMatchObject({
      type: 'evaluation.changed',
      timestamp: at(10).toISOString(),
      data: { symbol: 'UNIT', cause: 'data', previous: { totalScore: 60 } },
    });
    expect(await written('UNIT')).toEqual({ history: 2, events: 1, outbox: 1, cachedTotal: 70.25 });
    // The outbox row is the event: same id, type, timestamp and data.
    const rows = await database.db
      .selectFrom('event_outbox')
      .where('symbol', '=', 'UNIT')
      .select(['id', 'type', 'data', 'created_at'])
      .execute();
    expect(rows.map((r) => [r.id, r.type, r.data, new Date(r.created_at).toISOString()])).toEqual([
      [second.event?.id, 'evaluation.changed', second.event?.data, at(10).toISOString()],
    ]);
    // Given a transaction, it writes in it: rolled back with it.
    await expect(
      database.db.transaction().execute(async (trx) => {
        await keepEvaluation(trx, {
          evaluation: made('UNIT', 90),
          trigger: 'request',
          evaluatedAt: at(11),
        });
        throw new Error('the caller fails after');
      }),
    ).rejects.toThrow('the caller fails after');
    expect((await written('UNIT')).history).toBe(2);
  });

  it('is what the request and the fill go through: a fault at the outbox keeps nothing', async () => {
    const repos = createRepositories(database.db);
    const user = await repos.users.create({ email: `producers-${backend.name}@example.com` });
    const producers: [string, (db: Executor) => Promise<unknown>][] = [
      [
        'JNJ',
        (db) =>
          createEvaluationService({
            fundamentals: provider,
            quotes: null,
            now: () => new Date(),
            cache: repos.evaluations,
            quotas: createQuotaService({ db: database.db }),
            keep: (input) => keepEvaluation(db, input),
          }).getEvaluation({
            symbol: 'JNJ',
            fresh: true,
            actor: { id: user.id, plan: user.plan },
          }),
      ],
      [
        'KR',
        async (db) => {
          const summary = await fillEvaluationCache({
            tickers: ['KR'],
            evaluate: { fundamentals: provider, quotes: null, now: () => new Date() },
            db,
          });
          if (summary.failed.length > 0) throw new Error(summary.failed[0]?.message);
        },
      ],
    ];
    for (const [symbol, produce] of producers) {
      state.truncated = true;
      await produce(database.db);
      const before = await written(symbol);
      expect(before, symbol).toMatchObject({ history: 1, events: 0, outbox: 0 });
      // The latest fiscal year arrives: the evaluation changes, and the outbox insert fails.
      state.truncated = false;
      const faulty = withFault(database.db, (s) => s.into === 'event_outbox');
      await expect(produce(faulty.db), symbol).rejects.toThrow('injected fault');
      expect(await written(symbol), symbol).toEqual(before);
      await produce(database.db);
      expect(await written(symbol), symbol).toMatchObject({ history: 2, events: 1, outbox: 1 });
    }
  });
});
