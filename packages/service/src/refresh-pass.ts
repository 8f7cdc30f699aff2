import type { FundamentalsProvider } from '@svc/fundamentals-client';
import { createRepositories, type Database } from '@svc/portfolio-store';
import type { FundamentalsSettings, QuoteSource } from '@svc/providers';
import {
  createSecFilingsClient,
  type RefreshReport,
  refreshDepsFor,
  runRefreshPass,
  sharedSecBudget,
} from '@svc/use-cases';

/** What a refresh pass is composed of (see {@link composeRefreshPass}). */
export interface RefreshPassParts {
  /** The store's Kysely instance: the pass's reads and each filing's unit of work. */
  readonly db: Database['db'];
  /** `SEC_USER_AGENT` (required: SEC refuses anonymous requests), `SEC_WWW_URL`, `SEC_DATA_URL`. */
  readonly sec: Pick<FundamentalsSettings, 'secWwwUrl' | 'secDataUrl'> & {
    readonly secUserAgent: string;
  };
  /**
   * The SEC request budget shared by every process (`sharedSecBudget` over the store's
   * `secRefresh` repository, made here when not given); give the one the fundamentals provider
   * spends too, so both count against one budget.
   */
  readonly acquire?: (signal?: AbortSignal) => Promise<void>;
  /** The fundamentals provider, quotes and splits the re-evaluations read. */
  readonly fundamentals: FundamentalsProvider;
  /** The second provider the re-evaluations are reconciled with (`RECONCILE_PROVIDER`); none when absent. */
  readonly reconcile?: FundamentalsProvider | null;
  readonly quotes: Pick<QuoteSource, 'quotes' | 'splitsOf'>;
  /** The clock; default `new Date()`. */
  readonly now?: () => Date;
}

/**
 * The refresh pass, composed once for every process that runs it (the server's pg-boss job,
 * `startBackground` of the runtime, and `svc refresh` of apps/cli): SEC's filings client on the
 * shared budget, `refreshDepsFor` over the store, and `runRefreshPass` of `@svc/use-cases` for
 * a day (`YYYY-MM-DD`) or, without one, the days since the last pass.
 *
 * @throws FundamentalsError `invalid_config` when `sec.secUserAgent` names no contact e-mail.
 * @example
 * const refresh = composeRefreshPass({ db, sec: config.fundamentals, fundamentals, quotes });
 * const report = await refresh('2026-11-27');
 */
export function composeRefreshPass(
  parts: RefreshPassParts,
): (date?: string | undefined) => Promise<RefreshReport> {
  const acquire = parts.acquire ?? sharedSecBudget(createRepositories(parts.db).secRefresh);
  const sec = createSecFilingsClient({
    userAgent: parts.sec.secUserAgent,
    wwwUrl: parts.sec.secWwwUrl,
    dataUrl: parts.sec.secDataUrl,
    acquire,
  });
  const evaluate = {
    fundamentals: parts.fundamentals,
    reconcile: parts.reconcile ?? null,
    quotes: parts.quotes.quotes,
    splitsOf: parts.quotes.splitsOf,
    now: parts.now ?? (() => new Date()),
  };
  return (date) =>
    runRefreshPass(refreshDepsFor(parts.db, { sec, evaluate }), date ? { date } : {});
}
