import type { Valuation } from '@svc/schemas';
import type { PayoutComponents } from './augmented-payout.js';

/**
 * The extension fields that explain a {@link ValuationResult}. Amounts are in the currency named
 * next to them; ratios are plain multiples; growth and payout are in PERCENT.
 */
export interface ValuationExplanation {
  /** Price per share as given, in `_priceCurrency`; `null` without a price. */
  readonly _price: number | null;
  readonly _priceCurrency: string | null;
  /** Trading day of the price, YYYY-MM-DD. */
  readonly _priceAsOf: string | null;
  readonly _priceSource: string | null;
  /** Reporting currency of the fundamentals (ISO 4217). */
  readonly _reportingCurrency: string;
  /** Reporting-currency units per price-currency unit used to convert the price, if any. */
  readonly _fxRate: number | null;
  /** Shares on the price basis per share on the EPS basis (1 unless the caller said otherwise). */
  readonly _splitFactor: number;
  /** Fiscal year whose diluted EPS is the trailing EPS (the latest fiscal year). */
  readonly _epsFiscalYear: number | null;
  /** Last day of that fiscal year, YYYY-MM-DD. */
  readonly _epsPeriodEnd: string | null;
  /** Trailing diluted EPS, reporting currency per share (on the EPS's own share basis). */
  readonly _trailingEps: number | null;
  /** `true` when the trailing EPS was computed as net income / diluted shares. */
  readonly _trailingEpsDerived: boolean;
  /** Next-year EPS estimate used for the forward P/E, reporting currency per share. */
  readonly _forwardEps: number | null;
  /** Historical EPS growth used for the PEG, percent per year; `null` when not meaningful. */
  readonly _epsGrowthPercent: number | null;
  /** How `_epsGrowthPercent` was computed (method and fiscal years). */
  readonly _pegGrowthBasis: string | null;
  /** Fiscal year of the augmented payout ratio. */
  readonly _payoutFiscalYear: number | null;
  /** Which cash returns the payout ratio counts; `null` when it is `null`. */
  readonly _payoutComponents: PayoutComponents | null;
  /** Why a field is `null`, or what was assumed. Empty when everything was computed plainly. */
  readonly _notes: string[];
}

/** The `Valuation` of `@svc/schemas` (interface spec 2.5) plus its explanation fields. */
export type ValuationResult = Valuation & ValuationExplanation;
