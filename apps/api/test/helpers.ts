import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountInputs, AppDeps } from '@svc/service';
import {
  createAccountServices,
  createAiFlows,
  createMoatServices,
  createPortfolioFlows,
  createQuoteSource,
  loadConfig,
  type ModelEndpoints,
  type QuoteSource,
} from '@svc/service';
import {
  createEcbFileFxProvider,
  createQuotaService,
  createRepositories,
  createSharedCounter,
  createSnapshotProvider,
  createTestBackends,
  type Database,
  type FundamentalsProvider,
  pendingMigrations,
} from '@svc/service/testing';
import type { EvaluationFills } from '@svc/use-cases';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { COMPANYFACTS_DIR, ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

/**
 * The engines storage suites run against: PGlite always, PostgreSQL when `TEST_DATABASE_URL` is
 * set (an unreachable server fails) or the default local server answers (else skipped with a warning).
 */
export const ENGINES: readonly ('pglite' | 'postgres')[] = backends.map((backend) => backend.name);

export const BASE_URL = 'http://127.0.0.1:3000';
export const ORIGIN = { origin: BASE_URL };
const silent = { info: () => {}, warn: () => {} };

/** The real `snapshot` provider over the shared companyfacts, shared by every suite of a worker. */
export const snapshotProvider = createSnapshotProvider({ dir: COMPANYFACTS_DIR });
/** The real CSV quotes over the shared price files. */
export const csvQuotes: QuoteSource = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });

/** The real ECB reference rates over the shared history file. */
export const ecbFileFx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });
/**
 * Default clock of the portfolio and quote flows in tests: 2024-03-01 22:00 UTC, inside the shared
 * price files (AAPL closed at 179.66 USD; ECB: 1 EUR = 1.0813 USD that day).
 */
export const PORTFOLIO_TEST_NOW = new Date('2024-03-01T22:00:00Z');

/**
 * A provider that records the tickers it is asked for, around another provider; `delayMs` holds
 * each answer back so that requests sent together surely overlap the fetch.
 */
export function countingProvider(inner: FundamentalsProvider = snapshotProvider, delayMs = 0) {
  const calls: string[] = [];
  const provider: FundamentalsProvider = {
    name: inner.name,
    async getFundamentals(ticker, options) {
      calls.push(ticker);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return inner.getFundamentals(ticker, options);
    },
  };
  return { provider, calls };
}

export interface TestContext {
  readonly app: FastifyInstance;
  readonly repos: ReturnType<typeof createRepositories>;
  readonly db: Database['db'];
  readonly quotas: ReturnType<typeof createQuotaService>;
  close(): Promise<void>;
}

/** Opens a fresh database (in-memory PGlite, or a throw-away Postgres schema), migrates, builds the app. */
export async function createTestContext(
  options: {
    engine?: 'pglite' | 'postgres';
    env?: Record<string, string>;
    deps?: Partial<AppDeps>;
    /** Fundamentals provider of the moat flows; default the real snapshot provider. */
    fundamentals?: FundamentalsProvider;
    /** The second provider evaluations are reconciled with (issue 39); default none. */
    reconcile?: FundamentalsProvider;
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** Model endpoints of the AI flows; default from `env` (none: offline). */
    endpoints?: ModelEndpoints;
    /** Clock of the AI flows (proposal expiry); default the real clock. */
    aiNow?: () => Date;
    /** Fastify server options (timeouts, …) passed to `buildApp`. */
    server?: BuildAppOptions['server'];
    /** The X-ray's background fill; default none (missing evaluations are `not-evaluated`). */
    fills?: EvaluationFills;
  } = {},
): Promise<TestContext> {
  const engine = options.engine ?? 'pglite';
  const backend = backends.find((candidate) => candidate.name === engine);
  if (!backend) throw new Error(`engine ${engine} is not available in this run`);
  const database = await backend.open();
  const repos = createRepositories(database.db);
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-api-'));
  const config = await loadConfig(
    {
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      BASE_URL,
      ...options.env,
    },
    silent,
  );
  const now = options.deps?.now;
  const quotas = createQuotaService({
    db: database.db,
    limits: config.quotaLimits,
    ...(now ? { now } : {}),
  });
  const moat = createMoatServices({
    fundamentals: options.fundamentals ?? snapshotProvider,
    ...(options.reconcile ? { reconcile: options.reconcile } : {}),
    quoteSource: csvQuotes,
    repos,
    db: database.db,
    quotas,
    evaluationMemoSeconds: config.evaluationMemoSeconds,
    webhookAllowPrivate: config.webhookAllowPrivate,
    ...(now ? { now } : {}),
  });
  const portfolio = createPortfolioFlows({
    db: database.db,
    quotes: csvQuotes.quotes,
    fx: ecbFileFx,
    now: () => PORTFOLIO_TEST_NOW,
    evaluations: moat.evaluations,
    ...(options.fills ? { fills: options.fills } : {}),
  });
  const ai = createAiFlows({
    config,
    db: database.db,
    quotas,
    moat,
    portfolio,
    market: { quotes: csvQuotes.quotes, fx: ecbFileFx },
    ...(options.endpoints ? { endpoints: options.endpoints } : {}),
    ...(options.aiNow ? { now: options.aiNow } : {}),
  });
  const inputs: AccountInputs = {
    config,
    repos,
    quotas,
    moat,
    portfolio,
    ai,
    pendingMigrations: () => pendingMigrations(database.db),
    counters: (counter) => createSharedCounter(database, counter),
    ...options.deps,
  };
  // as the runtime: the account services are built once, from the other dependencies
  const accounts = options.deps?.accounts ?? createAccountServices(inputs);
  const app = await buildApp(
    { ...inputs, accounts },
    { logger: false, ...(options.server ? { server: options.server } : {}) },
  );
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    repos,
    quotas,
    db: database.db,
    async close() {
      await app.close();
      accounts.close();
      await database.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The `service_session` cookie of a response, as a `Cookie` header value. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'service_session');
  if (!cookie?.value) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `service_session=${cookie.value}`;
}

/** Registers a user and answers its cookie header and id. */
export async function registerUser(
  app: FastifyInstance,
  email: string,
  password = 'correct horse battery',
): Promise<{ cookie: string; userId: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: ORIGIN,
    payload: { email, password },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { cookie: sessionCookie(res), userId: res.json().user.id };
}
