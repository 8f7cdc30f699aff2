import type { LedgerTransaction } from '../derive-holdings.js';
import type { LedgerEvent } from './ledger-events.js';

/**
 * A daily series of one instrument's closes or one currency's EUR rates, oldest first.
 *
 * - Closes: per unit, in `currency`, each on the share basis of its own trading day (an actual
 *   close, not split- or dividend-adjusted: splits and dividends are transactions of the ledger).
 * - EUR rates: ECB convention, units of the currency per 1 EUR (`currency` is that currency).
 */
export interface DailySeries {
  /** ISO 4217 currency of the values (closes), or the currency the rates are of. */
  readonly currency: string;
  /** Days `YYYY-MM-DD`, strictly ascending. */
  readonly dates: readonly string[];
  /** One value per date, > 0 (or 0 with {@link DailySeries.zeroIsPrice}). */
  readonly values: readonly number[];
  /**
   * Whether a value of 0 is a price rather than a gap (issue 38): a holding nobody publishes
   * closes for, valued at the only price its ledger knows, nothing (shares received at zero cost,
   * e.g. a stock distribution). Default false: values that are not > 0 are skipped.
   */
  readonly zeroIsPrice?: boolean;
}

/** Inputs of {@link buildTimeline}. The module reads no clock and does no I/O. */
export interface TimelineInputs {
  /** The portfolio's ledger, any order (sorted as `deriveHoldings` sorts). */
  readonly transactions: readonly LedgerTransaction[];
  /** Daily closes per symbol (upper case), in the series' own currency. */
  readonly prices: ReadonlyMap<string, DailySeries>;
  /** Daily EUR rates per currency (units per 1 EUR); EUR itself is 1 and need not be present. */
  readonly eurRates: ReadonlyMap<string, DailySeries>;
  /** Last day valued, `YYYY-MM-DD` (the caller's "today"); later transactions are left out. */
  readonly end: string;
  /**
   * Largest age in days of a close or a rate used for a day (a weekend, a holiday): older ones
   * count as missing. Default {@link MAX_PRICE_AGE_DAYS}.
   */
  readonly maxAgeDays?: number;
}

/**
 * Default tolerance of {@link TimelineInputs.maxAgeDays}: Good Friday to Easter Monday leaves a
 * Thursday close 4 days old on the Monday; anything older is a gap, not a holiday.
 */
export const MAX_PRICE_AGE_DAYS = 4;

/** Why a figure cannot be given. */
export type UnavailableCode =
  | 'missing_price'
  | 'missing_fx_rate'
  | 'no_capital'
  | 'no_solution'
  | 'multiple_solutions'
  | 'no_history';

/** A day the method needed a close or a rate and had none within the tolerance. */
export interface MissingInput {
  /** Index into the timeline. */
  readonly index: number;
  readonly code: 'missing_price' | 'missing_fx_rate';
  /** The symbol whose close is missing (absent for a rate). */
  readonly symbol?: string;
  /** The currency of the close, or whose EUR rate is missing. */
  readonly currency: string;
}

/** A weekday valued with an older close or rate (a holiday), within the tolerance. */
export interface StaleUse {
  readonly index: number;
  readonly kind: 'price' | 'fx_rate';
  readonly symbol?: string;
  readonly currency: string;
  /** Days between the day valued and the day of the value used. */
  readonly ageDays: number;
}

/**
 * The daily record of one entity (the portfolio or one holding), index `i` = day
 * `timeline.firstDay + i`. Index 0 is the day before the first transaction (value 0).
 *
 * EUR: `valueEur[i]` at the end of day i; `inEur[i]`/`outEur[i]` the external flows of the day
 * (inflows counted at the start of the day, outflows at its end; see {@link buildTimeline}).
 * Local: the day's growth factor without the currency move is `numLocal[i] / denLocal[i]`.
 */
export interface Track {
  readonly valueEur: Float64Array;
  readonly inEur: Float64Array;
  readonly outEur: Float64Array;
  readonly numLocal: Float64Array;
  readonly denLocal: Float64Array;
  /** Dividends received that day, EUR at the day's rate (net of withholding tax, as recorded). */
  readonly dividendsEur: Float64Array;
  /**
   * Fees paid that day (fee transactions and trade fees, withholding tax apart), EUR at the day's
   * rate.
   */
  readonly feesEur: Float64Array;
  /** Tax withheld that day (fee transactions noted `withholding tax`), EUR at the day's rate. */
  readonly withholdingTaxEur: Float64Array;
  /** Days a needed input was missing, ascending by index. */
  readonly missing: MissingInput[];
  /**
   * Weekdays valued with a stale (older) close or rate, ascending by index. On the tracks of
   * `buildTimeline` a getter of their class (not an own property): the walk records the uses as
   * numbers and the objects are made on first read, the same array each time.
   */
  readonly stale: StaleUse[];
}

/** A holding's track plus who it is. */
export interface HoldingTrack extends Track {
  readonly symbol: string;
  /** The currency the holding is bought in (its "local" currency). */
  readonly currency: string;
}

/**
 * How external flows were found: `recorded` (the ledger has deposits or withdrawals: those are
 * the flows, cash is part of the portfolio, a negative balance a liability) or `implicit` (no
 * deposit recorded: each purchase not covered by cash in its currency is funded from outside,
 * an implicit deposit of the shortfall).
 */
export type CashFlowBasis = 'recorded' | 'implicit';

/** Result of {@link buildTimeline}. */
export interface Timeline {
  /** Epoch day of index 0. */
  readonly firstDay: number;
  /** Number of days (indexes 0 … length − 1; the last is `end`). */
  readonly length: number;
  readonly cashFlowBasis: CashFlowBasis;
  readonly portfolio: Track;
  /** By `symbol currency`, sorted by symbol then currency. */
  readonly holdings: ReadonlyMap<string, HoldingTrack>;
  /** Day (`YYYY-MM-DD`) of the last index. */
  readonly end: string;
  /** Largest age of a close or rate used ({@link TimelineInputs.maxAgeDays}). */
  readonly maxAgeDays: number;
  /**
   * The walk's state at the end of a day {@link RESUME_WINDOW_DAYS} before `end`, from which
   * {@link extendTimeline} continues; absent on a timeline shorter than that.
   */
  readonly checkpoint?: TimelineCheckpoint;
}

/**
 * How many of a timeline's last days {@link extendTimeline} walks again instead of reusing: a
 * close or rate published late (a provider's delay, a holiday) may change them. Older days are
 * taken as final (past closes do not change).
 */
export const RESUME_WINDOW_DAYS = 10;

/**
 * The state of the daily replay at the end of day `index` (opaque to callers): units and the
 * previous day's local value per holding, cash per currency, and how many ledger events were
 * applied.
 */
export interface TimelineCheckpoint {
  readonly index: number;
  readonly next: number;
  readonly cash: ReadonlyMap<string, number>;
  readonly holdings: ReadonlyMap<string, { readonly units: number; readonly prevLocal: number }>;
  /**
   * The ledger read into events in replay order, when the walk had every transaction (none dated
   * after its end): an extension does not read the ledger again.
   */
  readonly ledger?: readonly LedgerEvent[];
}
