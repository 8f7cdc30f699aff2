import type { FundamentalsProvider } from '@svc/fundamentals-client';
import { createOpenFigiClient } from '@svc/market-data';
import {
  createRepositories,
  createSharedCounter,
  type Database,
  pendingMigrations,
  type SharedCounterOptions,
} from '@svc/portfolio-store';
import {
  createFxProvider,
  createPriceHistory,
  createQuoteSource,
  type QuoteSource,
} from '@svc/providers';
import { createQuotaService } from '@svc/quota';
import {
  createWebhookDispatcher,
  loadIsinTable,
  openSessionChangeFeed,
  sharedSecBudget,
} from '@svc/use-cases';
import { createAccountServices } from './accounts.js';
import { createAiFlows } from './advisor/flows.js';
import { openMigratedDatabase } from './commands.js';
import type { AppConfig, ConfigLogger } from './config.js';
import type { AppDeps } from './deps.js';
import { startJobs } from './jobs.js';
import { createServiceMetrics } from './metrics/service-metrics.js';
import { createEvaluationFills } from './moat/evaluation-fills.js';
import { openFundamentalsProvider, openReconcileProvider } from './moat/fundamentals.js';
import { createMoatServices } from './moat/services.js';
import { createPortfolioFlows } from './portfolio/flows.js';
import { composeRefreshPass } from './refresh-pass.js';
import { settleWithin } from './settle-within.js';
import { createWebhookTransport } from './webhooks/pinned-http.js';

/** The long-lived resources of a running service and how to release them. */
export interface Runtime {
  readonly deps: AppDeps;
  /** The engine in use: `postgres` (DATABASE_URL) or the embedded `pglite`. */
  readonly dialect: 'postgres' | 'pglite';
  /**
   * Stops the background work and closes the database within `budgetMs` (default
   * `SHUTDOWN_GRACE_SECONDS`), so that the close ends inside the grace instead of the process
   * being killed by it: a job under way (refresh pass, evaluation fill) gets at most half of it
   * (then pg-boss leaves the job to its retry); a step that does not finish in its share, or
   * fails, is logged (`logger.warn`, naming the step) and the close goes on. Never throws.
   */
  close(budgetMs?: number): Promise<void>;
}

/**
 * Opens the database (PostgreSQL when `DATABASE_URL` is set, else PGlite under `DATA_DIR`),
 * migrates it to the latest schema, and creates once the repositories, the quota service, the
 * fundamentals provider, the quote source, the moat flows (evaluation, screener, reports), the FX
 * provider (`createFxProvider`), the portfolio and quote flows, the AI flows (narrative,
 * advisor, proposals) with the `openai` client built once (`createAiFlows`), the shared counters
 * (login throttle, request limit), on PostgreSQL the feed of ended sessions, and last the account
 * services (`createAccountServices`: auth, sessions, personal access tokens with their memo, token
 * activity and its hourly purge), which both servers take from here rather than build.
 *
 * A fundamentals provider that cannot be created (e.g. `sec-edgar` without `SEC_USER_AGENT`)
 * does not stop the start: `logger.warn` says why, and `GET /api/stock-evaluation` answers 503
 * `upstream_unavailable` for symbols that are not cached.
 *
 * @throws whatever the database raises when it cannot be opened or migrated.
 * @example
 * const runtime = await openRuntime(config, logger);
 * const app = await buildApp(runtime.deps);
 */
export async function openRuntime(
  config: AppConfig,
  logger: Pick<ConfigLogger, 'warn'> = { warn: () => {} },
  options: {
    /**
     * Run the background work of a server process (issue 33): the webhook dispatcher and the
     * pg-boss jobs (the refresh pass, on `REFRESH_SCHEDULE`). The servers' start sets it; tests
     * and commands leave it off.
     */
    readonly background?: boolean;
  } = {},
): Promise<Runtime> {
  const { database } = await openMigratedDatabase(config, (error) =>
    logger.warn(`database connection lost (the pool reconnects): ${error.message}`),
  );
  const repos = createRepositories(database.db);
  const metrics = createServiceMetrics();
  metrics.observePool(database.pool);
  // inside an MCP tool call, spending a quota needs the token's scope for it (and is audited):
  // the flows guard their spending for the call they are given (`tokenCall`, guardQuotaSpending)
  const quotas = createQuotaService({
    db: database.db,
    limits: config.quotaLimits,
    onEvent: metrics.quotaEvent,
    onRefundLost: () => logger.warn('a quota refund failed after every retry; the unit stays used'),
  });
  // SEC's 10 requests a second are shared by every process on this database
  const secAcquire = sharedSecBudget(repos.secRefresh);
  const fundamentals = openFundamentalsProvider({ ...config.fundamentals, secAcquire });
  if (fundamentals.unavailable) logger.warn(fundamentals.unavailable);
  // issue 39: the second provider each evaluation is reconciled with (RECONCILE_PROVIDER)
  const reconcile = openReconcileProvider({ ...config.fundamentals, secAcquire }, logger);
  const opened = createQuoteSource(config.quotes);
  const quoteSource = { ...opened, quotes: metrics.instrument('quotes', opened.quotes) };
  const moat = createMoatServices({
    fundamentals: metrics.instrument('fundamentals', fundamentals.provider),
    reconcile,
    quoteSource,
    repos,
    db: database.db,
    quotas,
    evaluationMemoSeconds: config.evaluationMemoSeconds,
    webhookAllowPrivate: config.webhookAllowPrivate,
  });
  const market = {
    quotes: quoteSource.quotes,
    fx: metrics.instrument('fx', createFxProvider(config.fx)),
  };
  const fills = createEvaluationFills({
    pool: database.pool,
    quotas,
    onError: (error) =>
      logger.warn(`evaluation fill: ${error instanceof Error ? error.message : String(error)}`),
  });
  const isinSymbols = config.isinSymbolsFile
    ? await loadIsinTable(config.isinSymbolsFile)
    : undefined;
  const portfolio = createPortfolioFlows({
    db: database.db,
    ...market,
    // the quote provider (already instrumented) or a history service of its own
    history: config.priceHistoryUrl
      ? metrics.instrument('quotes', createPriceHistory(config.priceHistoryUrl, null))
      : createPriceHistory(undefined, market.quotes),
    ...(isinSymbols ? { isinSymbols } : {}),
    // the X-ray reads the evaluation cache and queues what it misses (issue 38)
    evaluations: moat.evaluations,
    fills,
    ...(config.openFigi
      ? {
          openFigi: createOpenFigiClient({
            baseUrl: config.openFigi.url,
            ...(config.openFigi.apiKey ? { apiKey: config.openFigi.apiKey } : {}),
          }),
        }
      : {}),
  });
  // issue 38: rows stored before instruments get theirs, in the background (OpenFIGI is paced)
  void portfolio.portfolios
    .resolvePendingInstruments()
    .catch((error: unknown) =>
      logger.warn(
        `instruments: the pass over older rows failed (${error instanceof Error ? error.message : String(error)}); it runs again at the next start`,
      ),
    );
  const ai = createAiFlows({
    config,
    db: database.db,
    quotas,
    moat,
    portfolio,
    market,
    onUpstreamError: (error) =>
      logger.warn(
        `model endpoint failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      ),
  });
  // With a PostgreSQL server other processes may end sessions: follow the database's announcements.
  const sessions =
    config.databaseUrl && config.sessionCacheSeconds > 0
      ? openSessionChangeFeed(config.databaseUrl, (error) =>
          logger.warn(
            `session change listener: ${error.message} (session memo off until it reconnects)`,
          ),
        )
      : undefined;
  const inputs = {
    config,
    repos,
    quotas,
    moat,
    metrics,
    counters: (options: SharedCounterOptions) => createSharedCounter(database, options),
    ...(sessions ? { sessionChanges: sessions.feed } : {}),
    portfolio,
    ai,
    pendingMigrations: () => pendingMigrations(database.db),
  };
  const accounts = createAccountServices(inputs, {
    onPurgeError: (error) =>
      logger.warn(
        `token activity purge failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  const background = options.background
    ? await startBackground(
        config,
        database,
        { fundamentals: fundamentals.provider, reconcile },
        quoteSource,
        logger,
      )
    : undefined;
  if (options.background) await fills.work(moat.evaluations);
  return {
    deps: { ...inputs, accounts },
    dialect: database.dialect,
    async close(budgetMs = config.shutdownGraceMs) {
      const started = Date.now();
      const left = () => Math.max(0, budgetMs - (Date.now() - started));
      const step = (name: string, work: Promise<unknown> | undefined, ms: number) =>
        settleWithin(work, ms, (problem) => logger.warn(`closing: ${name} ${problem}`));
      // both queues at once, each within half the budget (pg-boss's floor is 1 s)
      const jobsTimeoutMs = Math.max(1_000, Math.floor(budgetMs / 2));
      await step(
        'background jobs',
        Promise.all([background?.stop(jobsTimeoutMs), fills.close(jobsTimeoutMs)]),
        jobsTimeoutMs + 500,
      );
      accounts.close();
      await step('session change listener', sessions?.close(), Math.min(1_000, left()));
      await step('database', database.close(), left());
    },
  };
}

/**
 * The background work of a server process: the webhook dispatcher (every process; messages are
 * leased in the database) and the pg-boss jobs: the refresh pass queued on `REFRESH_SCHEDULE`
 * (once however many processes run) and worked here; both only when `SEC_USER_AGENT` is set.
 */
async function startBackground(
  config: AppConfig,
  database: Database,
  providers: { fundamentals: FundamentalsProvider; reconcile: FundamentalsProvider | null },
  quoteSource: Pick<QuoteSource, 'quotes' | 'splitsOf'>,
  logger: Pick<ConfigLogger, 'warn'>,
) {
  const repos = createRepositories(database.db);
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const dispatcher = createWebhookDispatcher({
    webhooks: repos.webhooks,
    transport: createWebhookTransport({ allowPrivate: config.webhookAllowPrivate }),
    onError: (error) => logger.warn(`webhook dispatch: ${message(error)}`),
  });
  dispatcher.start();
  const userAgent = config.fundamentals.secUserAgent;
  if (config.refreshSchedule && !userAgent) {
    logger.warn(
      'REFRESH_SCHEDULE is set but SEC_USER_AGENT is not: this process neither schedules nor runs refresh passes',
    );
  }
  const jobs = await startJobs({
    pool: database.pool,
    // without SEC_USER_AGENT no pass can run here: this process neither schedules nor works the
    // pass, and leaves the schedule the other processes keep as it is
    refreshSchedule: userAgent ? config.refreshSchedule : undefined,
    onError: (error) => logger.warn(`jobs: ${message(error)}`),
    ...(userAgent
      ? {
          refresh: composeRefreshPass({
            db: database.db,
            sec: { ...config.fundamentals, secUserAgent: userAgent },
            ...providers,
            quotes: quoteSource,
          }),
        }
      : {}),
  });
  return {
    async stop(jobsTimeoutMs: number) {
      await Promise.all([jobs.stop(jobsTimeoutMs), dispatcher.stop()]);
    },
  };
}
