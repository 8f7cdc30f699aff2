import { OUTPUT_SCALE } from '@svc/portfolio';
import { Decimal } from 'decimal.js';

/** Decimal arithmetic of the portfolio flows: 40 significant digits, half-even, as `@svc/portfolio`. */
const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/**
 * A provider's JSON number (`179.660004`, `1.0813`) as a plain decimal string, through its
 * shortest round-trip decimal form (decimal.js reads numbers that way), never with an exponent.
 */
export function numberToDecimal(value: number): string {
  return new Dec(value).toFixed();
}

/**
 * `amount ÷ rate` (rate: units of the currency per 1 EUR, ECB convention), rounded half-even to
 * `OUTPUT_SCALE` (10) places without trailing zeros: the formula and scale `valueHoldings` uses for
 * every EUR value, so a quote's `priceEur` and a holding's values agree.
 */
export function divideToScale(amount: string, rate: string): string {
  const value = new Dec(amount).div(new Dec(rate)).toDecimalPlaces(OUTPUT_SCALE);
  return value.isZero() ? '0' : value.toFixed();
}

/** The UTC day `YYYY-MM-DD` of an instant. */
export function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The UTC day `days` before `day` (`YYYY-MM-DD`). */
export function daysBefore(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000));
}
