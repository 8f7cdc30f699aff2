/**
 * Issue 33: the refresh pass against a local server that replays SEC from the shared data. AAPL
 * and JNJ are cached from companyfacts cut back to the facts filed before AAPL's FY2025 10-K
 * (0000320193-25-000079, filed 2025-10-31); then the real files are served and the daily index
 * of 2025-10-31 names the 10-K.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createSecEdgarProvider, createSecFilingsClient } from '@svc/fundamentals-client';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { createQuoteSource } from '@svc/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillEvaluationCache } from '../src/jobs/fill-cache.js';
import { refreshDepsFor, runRefreshPass, sharedSecBudget } from '../src/jobs/refresh.js';
import { PRICES_DIR } from './shared-data.js';
import { formIndex, startSecReplay } from './support/sec-replay.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const AAPL = '0000320193';
const JNJ = '0000200406';
const TEN_K = '0000320193-25-000079';
const USER_AGENT = 'Issue33 Test test@example.com';
const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });

const INDEX_20251031 = formIndex([
  { form: '10-K', company: 'Apple Inc.', cik: 320193, filed: '2025-10-31', accession: TEN_K },
  {
    form: '8-K',
    company: 'Apple Inc.',
    cik: 320193,
    filed: '2025-10-31',
    accession: '0000320193-25-000080',
  },
  {
    form: '10-Q',
    company: 'JOHNSON & JOHNSON',
    cik: 200406,
    filed: '2025-10-31',
    accession: '0000200406-25-000190',
  },
  {
    form: '10-K',
    company: 'DELTA AIR LINES, INC.',
    cik: 27904,
    filed: '2025-10-31',
    accession: '0000027904-25-000050',
  },
  {
    form: 'SC 13G/A',
    company: 'SOME FUND LP',
    cik: 1234567,
    filed: '2025-10-31',
    accession: '0001234567-25-000001',
  },
]);

async function setUp(database: TestDatabase) {
  const replay = await startSecReplay({
    companyfacts: { [AAPL]: 'AAPL_CIK0000320193.json', [JNJ]: 'JNJ_CIK0000200406.json' },
  });
  replay.state.cutBefore.set(AAPL, '2025-10-31');
  replay.state.cutBefore.set(JNJ, '2025-10-31');
  const repos = createRepositories(database.db);
  const acquire = sharedSecBudget(repos.secRefresh);
  const fundamentals = createSecEdgarProvider({
    userAgent: USER_AGENT,
    baseUrl: replay.url,
    wwwUrl: replay.url,
    acquire,
  });
  const sec = createSecFilingsClient({
    userAgent: USER_AGENT,
    wwwUrl: replay.url,
    dataUrl: replay.url,
    acquire,
  });
  const clock = { now: new Date('2025-11-05T12:00:00Z') };
  const evaluate = { fundamentals, quotes, splitsOf, now: () => clock.now };
  const filled = await fillEvaluationCache({
    tickers: ['AAPL', 'JNJ'],
    evaluate,
    db: database.db,
  });
  expect(filled).toEqual({ evaluated: 2, failed: [] });
  replay.state.cutBefore.clear();
  return { replay, repos, deps: refreshDepsFor(database.db, { sec, evaluate }), clock };
}

describe.each(backends)('the refresh pass on $name', (backend) => {
  let database: TestDatabase;
  let ctx: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    database = await backend.open();
    ctx = await setUp(database);
  });
  afterAll(async () => {
    await ctx?.replay.close();
    await database.cleanup();
  });

  it('re-evaluates the cached company that filed a 10-K, keeps the filing, and makes the event', async () => {
    const { replay, repos, deps } = ctx;
    const before = (await repos.evaluationHistory.latest('AAPL', 1))[0];
    expect(before?.fiscalYears.at(-1)).toBe(2024);
    replay.state.indexes.set('20251031', INDEX_20251031);

    const report = await runRefreshPass(deps, { date: '2025-10-31' });
    expect(report.days).toEqual([
      { day: '2025-10-31', outcome: 'read', httpStatus: 200, annualFilings: 2, ofCached: 1 },
    ]);
    expect(report.filings).toEqual([
      expect.objectContaining({
        accession: TEN_K,
        symbol: 'AAPL',
        form: '10-K',
        filed: '2025-10-31',
        outcome: 'evaluated',
        changed: true,
      }),
    ]);

    const [after] = await repos.evaluationHistory.latest('AAPL', 1);
    expect(after).toMatchObject({
      trigger: 'filing',
      cause: { accession: TEN_K, form: '10-K', filed: '2025-10-31' },
    });
    expect(after?.fiscalYears.at(-1)).toBe(2025);
    expect(after?.filings.map((f) => f.accession)).toContain(TEN_K);
    expect((await repos.evaluations.get('AAPL'))?.evaluation.totalScore).toBe(after?.totalScore);
    const feed = await repos.evaluationEvents.feed({ since: new Date(0), limit: 10 });
    expect(feed.items).toHaveLength(1);
    expect(feed.items[0]?.data).toMatchObject({
      symbol: 'AAPL',
      cause: 'filing',
      previous: { totalScore: before?.totalScore, fiscalYears: before?.fiscalYears },
      current: { totalScore: after?.totalScore },
      filing: { accession: TEN_K, form: '10-K', filed: '2025-10-31' },
    });
    // JNJ filed no annual report: untouched.
    expect((await repos.evaluationHistory.list('JNJ', { limit: 10, offset: 0 })).total).toBe(1);

    // Every SEC request declared the User-Agent.
    expect(replay.state.requests.length).toBeGreaterThan(0);
    expect(new Set(replay.state.requests.map((r) => r.userAgent))).toEqual(new Set([USER_AGENT]));

    // The same day again: nothing is done twice.
    const again = await runRefreshPass(deps, { date: '2025-10-31' });
    expect(again.filings).toEqual([]);
    expect((await repos.evaluationHistory.list('AAPL', { limit: 10, offset: 0 })).total).toBe(2);
    expect(
      (await repos.evaluationEvents.feed({ since: new Date(0), limit: 10 })).items,
    ).toHaveLength(1);
  });

  it('keeps a day whose index is not published yet, and reads it on a later pass', async () => {
    const { replay, repos, deps, clock } = ctx;
    clock.now = new Date('2025-11-04T12:00:00Z'); // a Tuesday: Monday's and Tuesday's indexes
    const first = await runRefreshPass(deps);
    expect(first.days).toEqual([
      { day: '2025-11-03', outcome: 'missing', httpStatus: 403 },
      { day: '2025-11-04', outcome: 'missing', httpStatus: 403 },
    ]);
    replay.state.indexes.set(
      '20251103',
      formIndex([
        {
          form: '10-K/A',
          company: 'JOHNSON & JOHNSON',
          cik: 200406,
          filed: '2025-11-03',
          accession: '0000200406-25-000200',
        },
      ]),
    );
    const second = await runRefreshPass(deps);
    expect(second.days.map((d) => [d.day, d.outcome, d.ofCached])).toEqual([
      ['2025-11-03', 'read', 1],
      ['2025-11-04', 'missing', undefined],
    ]);
    expect(second.filings).toEqual([
      expect.objectContaining({ symbol: 'JNJ', form: '10-K/A', outcome: 'evaluated' }),
    ]);
    expect((await repos.secRefresh.pendingDays()).map((d) => d.day)).toEqual(['2025-11-04']);
  });
});

const postgres = backends.find((backend) => backend.name === 'postgres');

describe.runIf(postgres)('a refresh pass killed with SIGKILL in the middle', () => {
  let database: TestDatabase;
  let ctx: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).open();
    ctx = await setUp(database);
  });
  afterAll(async () => {
    await ctx?.replay.close();
    await database.cleanup();
  });

  it('loses nothing and does nothing twice: the next pass re-evaluates the filing once', async () => {
    const { replay, repos } = ctx;
    replay.state.indexes.set('20251031', INDEX_20251031);
    const facts = `/api/xbrl/companyfacts/CIK${AAPL}.json`;
    replay.state.held.add(facts);
    const seen = replay.state.requests.length;
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, 'support/refresh-child.ts')],
      {
        env: {
          ...process.env,
          DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
          SCHEMA: database.schema ?? '',
          SEC_URL: replay.url,
          DATE: '2025-10-31',
          PRICES_DIR,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.once('exit', (_code, signal) => done(signal)),
    );
    // Kill it while it waits for AAPL's companyfacts: the filing is leased, not yet evaluated.
    await expect
      .poll(() => replay.state.requests.slice(seen).some((r) => r.path === facts), {
        timeout: 60_000,
        interval: 20,
      })
      .toBe(true);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(output).not.toContain('refreshed');
    expect(await repos.secRefresh.filings(TEN_K)).toEqual([
      expect.objectContaining({ symbol: 'AAPL', state: 'pending', attempts: 1 }),
    ]);
    expect((await repos.evaluationHistory.list('AAPL', { limit: 10, offset: 0 })).total).toBe(1);

    // The next pass (its lease ran out) does it, once; a third does nothing.
    replay.state.held.clear();
    ctx.clock.now = new Date(Date.now() + 1_000);
    const next = await runRefreshPass(ctx.deps, { date: '2025-10-31' });
    expect(next.filings.map((f) => [f.symbol, f.outcome, f.changed])).toEqual([
      ['AAPL', 'evaluated', true],
    ]);
    expect((await runRefreshPass(ctx.deps, { date: '2025-10-31' })).filings).toEqual([]);
    expect((await repos.evaluationHistory.list('AAPL', { limit: 10, offset: 0 })).total).toBe(2);
    expect(
      (await repos.evaluationEvents.feed({ since: new Date(0), limit: 10 })).items,
    ).toHaveLength(1);
    expect(await repos.secRefresh.filings(TEN_K)).toEqual([
      expect.objectContaining({ state: 'done', attempts: 2 }),
    ]);
  }, 120_000);
});
