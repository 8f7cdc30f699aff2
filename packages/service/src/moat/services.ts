import type { FundamentalsProvider } from '@svc/fundamentals-client';
import type { Executor, Repositories } from '@svc/portfolio-store';
import type { QuoteSource } from '@svc/providers';
import type { QuotaService } from '@svc/quota';
import {
  createEvaluationHistoryService,
  createEvaluationService,
  createReportService,
  createScreenerService,
  createWebhookService,
  type EvaluationHistoryService,
  type EvaluationKeeper,
  type EvaluationService,
  keepEvaluation,
  type ReportService,
  type ScreenerService,
  type WebhookService,
} from '@svc/use-cases';
import { createWebhookTransport } from '../webhooks/pinned-http.js';
import { memoizeEvaluationCache } from './evaluation-memo.js';
import { memoizeScreener } from './screener-memo.js';

/** The moat flows of `@svc/use-cases` the moat routes call, created once per process. */
export interface MoatServices {
  /** Evaluation with cache, quota and one fetch per symbol (`GET /api/stock-evaluation`). */
  readonly evaluations: EvaluationService;
  /** Indexed SQL over the evaluation cache (`GET /api/moat-screener`). */
  readonly screener: ScreenerService;
  /** The user's saved-report library (`/api/moat-reports`). */
  readonly reports: ReportService;
  /**
   * Kept fresh evaluations and their diffs (`GET /api/stock-evaluation/history[/diff]`, MCP
   * `getEvaluationHistory`, `compareEvaluations`), and cache reads that never fetch.
   */
  readonly history: EvaluationHistoryService;
  /** The user's webhook endpoints and their delivery logs (`/api/account/webhooks`). */
  readonly webhooks: WebhookService;
}

/** What {@link createMoatServices} is built from. */
export interface MoatServicesOptions {
  /** The server's fundamentals provider (see `openFundamentalsProvider`). */
  readonly fundamentals: FundamentalsProvider;
  /**
   * The second provider every evaluation is reconciled with (`openReconcileProvider`,
   * `RECONCILE_PROVIDER`); absent or null: none.
   */
  readonly reconcile?: FundamentalsProvider | null;
  /** Quotes and splits for the valuation (`createQuoteSource` of `@svc/use-cases`). */
  readonly quoteSource: QuoteSource;
  /** The evaluation cache, screener and report repositories (`createRepositories(db)`). */
  readonly repos: Pick<
    Repositories,
    | 'evaluations'
    | 'evaluationHistory'
    | 'evaluationEvents'
    | 'screener'
    | 'reports'
    | 'webhooks'
    | 'portfolios'
  >;
  /** The database fresh evaluations are kept in, one transaction each (`keepEvaluation`). */
  readonly db: Executor;
  /**
   * `WEBHOOK_ALLOW_PRIVATE`: accept webhook URLs resolving to loopback, private or link-local
   * addresses (tests, a private network). Default false.
   */
  readonly webhookAllowPrivate?: boolean;
  /** Quotas counted in the database (`createQuotaService` of `@svc/quota`). */
  readonly quotas: Pick<QuotaService, 'withQuota'>;
  /**
   * Seconds a cached evaluation row, and a screener answer, are reused in memory
   * (`EVALUATION_CACHE_MEMO_SECONDS`); stores through this process forget both at once.
   */
  readonly evaluationMemoSeconds: number;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
}

/**
 * Creates the evaluation, history, screener and report flows once, over one set of repositories.
 * Every fresh evaluation is kept by `keepEvaluation` (history, change event, outbox, cache row).
 *
 * @example
 * const moat = createMoatServices({
 *   fundamentals: openFundamentalsProvider(config.fundamentals).provider,
 *   quoteSource: createQuoteSource(config.quotes),
 *   repos: createRepositories(db),
 *   db,
 *   quotas: createQuotaService({ db }),
 *   evaluationMemoSeconds: config.evaluationMemoSeconds,
 * });
 */
export function createMoatServices(options: MoatServicesOptions): MoatServices {
  const { repos, quoteSource } = options;
  const ttlMs = options.evaluationMemoSeconds * 1000;
  const screenerMemo = memoizeScreener(repos.screener, { ttlMs });
  const cache = memoizeEvaluationCache(repos.evaluations, { ttlMs });
  // After the unit of work ends (committed or not), this process forgets what it remembered.
  const keep: EvaluationKeeper = (input) =>
    keepEvaluation(options.db, input).finally(() => {
      cache.forget(input.evaluation.symbol);
      screenerMemo.clear();
    });
  const evaluations = createEvaluationService({
    fundamentals: options.fundamentals,
    reconcile: options.reconcile ?? null,
    quotes: quoteSource.quotes,
    splitsOf: quoteSource.splitsOf,
    now: options.now ?? (() => new Date()),
    cache,
    quotas: options.quotas,
    keep,
    asOfCache: repos.evaluations,
  });
  return {
    evaluations,
    history: createEvaluationHistoryService({
      history: repos.evaluationHistory,
      cache,
      events: repos.evaluationEvents,
    }),
    screener: createScreenerService({ screener: screenerMemo.screener }),
    reports: createReportService({ reports: repos.reports }),
    webhooks: createWebhookService({
      webhooks: repos.webhooks,
      portfolios: repos.portfolios,
      transport: createWebhookTransport({ allowPrivate: options.webhookAllowPrivate ?? false }),
    }),
  };
}
