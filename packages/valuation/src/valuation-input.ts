import { Fundamentals } from '@svc/schemas';
import { z } from 'zod';
import { ValuationError } from './errors.js';

/**
 * A share price as the valuation needs it: a positive amount per share in `currency`, the trading
 * day it belongs to and who reported it. The price must be on the same share basis as the EPS it
 * is divided by (see `splitFactor` of {@link ValuationInput}).
 */
export const ValuationPrice = z
  .object({
    value: z.number().finite().positive().describe('Price per share, in `currency`'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .describe('ISO 4217 currency of the price, e.g. USD'),
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Trading day of the price, YYYY-MM-DD'),
    source: z.string().min(1).describe('Who reported the price, e.g. yahoo-csv'),
  })
  .meta({ id: 'ValuationPrice' });
/** A share price input, see the {@link ValuationPrice} schema. */
export type ValuationPrice = z.infer<typeof ValuationPrice>;

const positiveFinite = z.number().finite().positive();

/**
 * Input of {@link computeValuation}.
 *
 * - `fundamentals`: normalised annual figures (`@svc/schemas` `Fundamentals`), oldest first.
 * - `price`: the share price, or `null` when none is available (then every price-based ratio is
 *   `null` and a note says why).
 * - `forwardEps`: next fiscal year's consensus diluted EPS in the reporting currency, on the
 *   price's share basis; `null`/absent when no estimate is available.
 * - `fxRate`: reporting-currency units per one price-currency unit (price in EUR, reporting
 *   currency USD: USD per EUR, e.g. 1.12). Needed only when the two currencies differ.
 * - `splitFactor`: shares on the price's basis per share on the EPS's basis, i.e. the product of
 *   the split ratios effective after the fundamentals' share basis and on or before the price date
 *   (NVDA EPS of FY2024 as filed, priced after the 10:1 split of 2024-06-10: 10). Default 1.
 *   Historical EPS (the growth series) is a ratio of EPS values and does not need it.
 */
export interface ValuationInput {
  readonly fundamentals: Fundamentals;
  readonly price: ValuationPrice | null;
  readonly forwardEps?: number | null;
  readonly fxRate?: number | null;
  readonly splitFactor?: number;
  /**
   * Longest accepted gap in days between the trailing EPS's fiscal year end and the price date;
   * beyond it P/E, PEG and the sell trigger are null with a note. Default
   * `MAX_TRAILING_EPS_AGE_DAYS` (548, 18 months).
   */
  readonly maxEpsAgeDays?: number;
}

/** Validates the scalar inputs; throws {@link ValuationError} `invalid_input` on the first bad one. */
export function assertValidInput(input: ValuationInput): void {
  check(Fundamentals.safeParse(input.fundamentals), 'fundamentals');
  if (input.price !== null) check(ValuationPrice.safeParse(input.price), 'price');
  if (input.forwardEps != null)
    check(z.number().finite().safeParse(input.forwardEps), 'forwardEps');
  if (input.fxRate != null) check(positiveFinite.safeParse(input.fxRate), 'fxRate');
  if (input.maxEpsAgeDays !== undefined) {
    check(positiveFinite.safeParse(input.maxEpsAgeDays), 'maxEpsAgeDays');
  }
  if (input.splitFactor !== undefined) {
    check(positiveFinite.safeParse(input.splitFactor), 'splitFactor');
  }
}

function check(result: { success: boolean; error?: unknown }, field: string): void {
  if (!result.success) {
    throw new ValuationError('invalid_input', `invalid ${field}`, { cause: result.error });
  }
}
