import { FundamentalsError, type FundamentalsProvider } from '@svc/fundamentals-client';
import type { Quote, QuoteProvider, StockSplit } from '@svc/market-data';
import { splitFactor } from '@svc/market-data';
import { evaluateMoat, MoatScoringError } from '@svc/moat-scoring';
import type { DataQualityFlag, Fundamentals, MoatEvaluation } from '@svc/schemas';
import { computeValuation, type ValuationResult } from '@svc/valuation';
import { UseCaseError } from '../errors.js';
import { type FilingReference, filingsBehind } from './filings.js';

/** What {@link evaluateCompany} needs; created once by the app and passed in. */
export interface EvaluateCompanyDeps {
  /** The server's fundamentals provider (never chosen by the client). */
  readonly fundamentals: FundamentalsProvider;
  /** Where the share price comes from; `null` when none is configured (valuation fields null). */
  readonly quotes: QuoteProvider | null;
  /**
   * Known stock splits of a symbol, so that a price on today's share basis is divided by an EPS
   * on the same basis (the EPS basis is the filing date of the latest 10-K). Default: none known.
   */
  readonly splitsOf?: (symbol: string) => readonly StockSplit[];
  /** The clock, injected (ISO instant of `_evaluatedAt`). */
  readonly now: () => Date;
  /**
   * A second fundamentals provider to reconcile with (issue 39, `RECONCILE_PROVIDER`): asked for
   * the same ticker and `asOf`, its figures go to `evaluateMoat` as `reconcileWith`, so a
   * criterion resting on a series the two disagree on carries a `provider_mismatch` flag and earns
   * no points from the gap. When it lacks the company or fails, the evaluation goes on without it
   * and says so (`_reconciliation`, a `reconcile_unavailable` flag). Absent or null: off.
   */
  readonly reconcile?: FundamentalsProvider | null;
}

/** Per-call options of {@link evaluateCompany}. */
export interface EvaluateCompanyOptions {
  /** Cancels the provider's reads. */
  readonly signal?: AbortSignal;
  /** Read the fundamentals again, past the provider's in-memory copy. */
  readonly fresh?: boolean;
  /**
   * Point in time, `YYYY-MM-DD` (issue 39): fundamentals as filed by then (`GetFundamentalsOptions.asOf`)
   * and the close on or before it; the evaluation carries it as `asOf`.
   */
  readonly asOf?: string;
}

/** Code of the evaluation-level flag saying the second provider could not be compared. */
export const RECONCILE_UNAVAILABLE = 'reconcile_unavailable';

/**
 * Provenance of a reconciliation (`_reconciliation` of an evaluation): which second provider was
 * asked and whether its figures were compared (`compared`) or could not be had (`unavailable`,
 * with `detail`: the company is not covered, the provider failed, it cannot read `asOf`).
 */
export interface Reconciliation {
  /** The second provider's name (`simfin`, `sec-edgar`, `snapshot`). */
  readonly provider: string;
  readonly status: 'compared' | 'unavailable';
  /** Why it is `unavailable` (the provider's message). */
  readonly detail?: string;
}

/**
 * A `MoatEvaluation` (interface spec 2.1) with the extension fields an evaluation adds:
 * - `_fiscalYears`: the fiscal years scored, oldest first;
 * - `_provider`: the fundamentals provider (`sec-edgar`, `snapshot`, `simfin`);
 * - `_filings`: the filings behind the figures used (form, accession number, filed date);
 * - `_marketCap`: price × shares outstanding in the reporting currency, or null;
 * - `_currency`: the reporting currency (ISO 4217);
 * - `_reconciliation`: the second provider compared with, or null when none is configured.
 */
export type CompanyEvaluation = MoatEvaluation & {
  /** Valuation signals (interface spec 2.5) with their explanation fields. */
  valuation: ValuationResult;
  /** The point in time evaluated (`YYYY-MM-DD`), null for the latest figures. */
  asOf: string | null;
  /** `METHODOLOGY_VERSION` of `@svc/moat-scoring` that scored it. */
  methodologyVersion: string;
  /** Data-quality flags of the evaluation (each criterion carries its own). */
  dataQuality: DataQualityFlag[];
  _fiscalYears: number[];
  _provider: string;
  _filings: FilingReference[];
  _marketCap: number | null;
  _currency: string;
  _reconciliation: Reconciliation | null;
};

/**
 * Evaluates a company end to end: fundamentals through the configured provider, the latest price
 * through the quote provider, valuation signals (`@svc/valuation`) and the moat score
 * (`@svc/moat-scoring`). No cache and no quota: see `createEvaluationService` for the flow with
 * both.
 *
 * A missing or failing quote never fails the evaluation: the price-based valuation fields are
 * null and `valuation._notes` says why.
 *
 * With `options.asOf` everything is as of that day: the fundamentals filed by then, the close on
 * or before it (valuation), and `asOf` on the evaluation.
 *
 * With `deps.reconcile` the second provider's fundamentals of the same ticker and `asOf` are
 * read alongside the price and passed as `reconcileWith`; when they cannot be had the evaluation
 * is scored on the first provider alone, `_reconciliation.status` is `unavailable` and its
 * `dataQuality` carries a `reconcile_unavailable` flag (series `fundamentals`, no criterion's).
 *
 * @throws FundamentalsError `invalid_symbol`, `insufficient_data`, `upstream_unavailable`;
 *   `insufficient_history` with `asOf` when too few fiscal years were filed by then.
 * @throws UseCaseError `validation_failed` with `asOf` when the provider answered without it
 *   (it cannot read a point in time).
 * @throws MoatScoringError `insufficient_data` when fewer than 3 usable fiscal years exist.
 * @example
 * const evaluation = await evaluateCompany('AAPL', { fundamentals, quotes, now: () => new Date() });
 * evaluation.totalScore; // e.g. 80.1 (of evaluation.maxScore)
 */
export async function evaluateCompany(
  symbol: string,
  deps: EvaluateCompanyDeps,
  options: EvaluateCompanyOptions = {},
): Promise<CompanyEvaluation> {
  const fundamentals = await deps.fundamentals.getFundamentals(symbol, options);
  if (options.asOf !== undefined && fundamentals.asOf !== options.asOf) {
    // A provider that cannot read a point in time must not pass its latest figures off as one.
    throw new UseCaseError(
      'validation_failed',
      `The fundamentals provider ${deps.fundamentals.name} cannot evaluate as of a date.`,
      { errors: [{ path: 'asOf', message: `not supported by ${deps.fundamentals.name}` }] },
    );
  }
  const ticker = fundamentals.company.ticker;
  const [quote, second] = await Promise.all([
    latestQuote(deps.quotes, ticker, options),
    secondFundamentals(deps.reconcile ?? null, ticker, options),
  ]);
  const price = quote
    ? { value: quote.price, currency: quote.currency, asOf: quote.asOf, source: quote.source }
    : null;
  const factor = quote ? priceSplitFactor(fundamentals, quote, deps.splitsOf?.(ticker) ?? []) : 1;
  const valuation = computeValuation({
    fundamentals,
    price,
    forwardEps: null,
    splitFactor: factor,
  });
  if (deps.quotes && !quote) valuation._notes.push(`no price found for ${ticker}`);
  // On the last day of a total-return series the adjusted close is the close (bound 0): no note.
  if (quote?.adjustment === 'dividends-estimated' && (quote.maxRelativeError ?? 1) > 0) {
    const bound = ((quote.maxRelativeError ?? 0) * 100).toFixed(2);
    valuation._notes.push(
      `price of ${quote.asOf} reconstructed from a dividend-adjusted series (within ±${bound}%)`,
    );
  }
  const evaluation = scoreAt(options.asOf, () =>
    evaluateMoat(fundamentals, {
      evaluatedAt: deps.now().toISOString(),
      valuation,
      ...(second?.fundamentals ? { reconcileWith: second.fundamentals } : {}),
      ...(second?.flag ? { dataQuality: [second.flag] } : {}),
    }),
  );
  const fiscalYears = evaluation._fiscalYears;
  return {
    ...evaluation,
    valuation,
    _provider: fundamentals.provider,
    _filings: filingsBehind(fundamentals, fiscalYears),
    _marketCap: marketCap(fundamentals, quote, factor),
    _currency: fundamentals.company.currency,
    _reconciliation: second?.reconciliation ?? null,
  };
}

/** The second provider's figures, or why there are none (null: no second provider). */
interface SecondFundamentals {
  readonly reconciliation: Reconciliation;
  readonly fundamentals?: Fundamentals;
  readonly flag?: DataQualityFlag;
}

/**
 * Reads `ticker` from the second provider as the first was read (`asOf`, `fresh`, `signal`).
 * Never throws except on abort: a company it does not cover, an outage, or an answer that is not
 * as of the day asked become `unavailable` with the reason.
 */
async function secondFundamentals(
  provider: FundamentalsProvider | null,
  ticker: string,
  options: EvaluateCompanyOptions,
): Promise<SecondFundamentals | null> {
  if (provider === null) return null;
  const unavailable = (detail: string): SecondFundamentals => ({
    reconciliation: { provider: provider.name, status: 'unavailable', detail },
    flag: {
      code: RECONCILE_UNAVAILABLE,
      series: 'fundamentals',
      message: `Not reconciled with ${provider.name}: ${detail}; scored on one provider's figures.`,
    },
  });
  let fundamentals: Fundamentals;
  try {
    fundamentals = await provider.getFundamentals(ticker, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return unavailable(error instanceof Error ? error.message : String(error));
  }
  if (options.asOf !== undefined && fundamentals.asOf !== options.asOf) {
    return unavailable(`it cannot read the figures as of ${options.asOf}`);
  }
  return { reconciliation: { provider: provider.name, status: 'compared' }, fundamentals };
}

/**
 * Scores, turning "too few usable years" at a point in time into `insufficient_history`: the
 * company is known, its history at that date too short (issue 39: a 422, not a partial score).
 */
function scoreAt<T>(asOf: string | undefined, score: () => T): T {
  try {
    return score();
  } catch (error) {
    if (
      asOf !== undefined &&
      error instanceof MoatScoringError &&
      error.code === 'insufficient_data'
    ) {
      throw new FundamentalsError('insufficient_history', `${error.message} (as of ${asOf})`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** The close on or before `asOf` (default: the latest), or null when none or on failure. */
async function latestQuote(
  quotes: QuoteProvider | null,
  ticker: string,
  options: EvaluateCompanyOptions,
): Promise<Quote | null> {
  if (!quotes) return null;
  const { signal, asOf } = options;
  try {
    return await quotes.getQuote(ticker, {
      ...(signal ? { signal } : {}),
      ...(asOf === undefined ? {} : { asOf }),
    });
  } catch {
    // A quote outage must not fail the moat evaluation; the valuation notes say the price is missing.
    return null;
  }
}

/**
 * Shares on the price's basis per share on the EPS's basis: the splits effective after the
 * filing of the latest EPS and on or before the price's share-basis day.
 */
function priceSplitFactor(
  fundamentals: Fundamentals,
  quote: Quote,
  splits: readonly StockSplit[],
): number {
  const latest = fundamentals.years.at(-1);
  const epsFiled = latest?.dilutedEps?.source.filed ?? latest?.netIncome?.source.filed;
  if (!epsFiled || splits.length === 0) return 1;
  return splitFactor(splits, epsFiled, quote.splitBasisAsOf ?? quote.asOf);
}

/**
 * Price × latest shares outstanding (diluted weighted shares as a fallback), in the reporting
 * currency, with the share count moved to the price's basis by `factor`; null without either or
 * when the price is in another currency.
 */
function marketCap(fundamentals: Fundamentals, quote: Quote | null, factor: number): number | null {
  if (!quote || quote.currency !== fundamentals.company.currency) return null;
  const latest = fundamentals.years.at(-1);
  const shares = latest?.sharesOutstanding?.value ?? latest?.dilutedShares?.value;
  if (!shares || shares <= 0) return null;
  const cap = quote.price * shares * factor;
  return Number.isFinite(cap) ? Math.round(cap) : null;
}
