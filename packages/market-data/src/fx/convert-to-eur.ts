import { Decimal } from 'decimal.js';
import { MarketDataError } from '../errors.js';
import type { FxProvider, FxRate } from '../fx-rate.js';
import { isIsoDate, normaliseCurrency } from '../validation.js';

/** Decimal arithmetic for money: 34 significant digits, banker's rounding. */
const Money = Decimal.clone({ precision: 34, rounding: Decimal.ROUND_HALF_EVEN });

/** Result of {@link convertToEur}. */
export interface EurConversion {
  /** The amount in EUR as a decimal string rounded to cents (half-even), e.g. `"1234.57"`. */
  readonly amount: string;
  /** The unrounded amount in EUR (34 significant digits), for further arithmetic. */
  readonly exact: Decimal;
  /** The EUR → `currency` rate used (`rate` units of currency per EUR); rate 1 for EUR. */
  readonly rate: FxRate;
}

/**
 * Converts `amount` of `currency` into EUR at the ECB reference rate of `asOf` (`YYYY-MM-DD`, or
 * the last business day before it): `EUR = amount ÷ (currency per EUR)`, in decimal arithmetic, never
 * binary floats. Pass amounts as decimal strings to keep every digit (`"1234.5678"`); numbers
 * are read through their shortest decimal form.
 *
 * @throws {MarketDataError} `invalid_argument` when the amount is not a finite decimal or the
 *   currency not three letters; `not_found` when no rate exists on or before `asOf`; the FX
 *   provider's own errors.
 * @example
 * ```ts
 * const eur = await convertToEur('1000', 'USD', fx, '2024-06-07'); // rate 1.0898 USD per EUR
 * eur.amount; // "917.60"
 * ```
 */
export async function convertToEur(
  amount: string | number | Decimal,
  currency: string,
  fx: FxProvider,
  asOf: string,
): Promise<EurConversion> {
  const value = toMoney(amount);
  const code = normaliseCurrency(currency);
  if (!isIsoDate(asOf)) throw new MarketDataError('invalid_argument', `asOf must be YYYY-MM-DD`);
  const rate =
    code === 'EUR'
      ? { base: 'EUR', quote: 'EUR', rate: 1, asOf, source: 'identity' }
      : await fx.getRate('EUR', code, { asOf });
  if (rate === null) {
    throw new MarketDataError('not_found', `no EUR/${code} rate on or before ${asOf}`);
  }
  const exact = value.div(new Money(String(rate.rate)));
  return { amount: exact.toFixed(2), exact, rate };
}

function toMoney(amount: string | number | Decimal): Decimal {
  try {
    const value = new Money(amount);
    if (value.isFinite()) return value;
  } catch (error) {
    throw new MarketDataError('invalid_argument', `not a decimal amount: ${String(amount)}`, {
      cause: error,
    });
  }
  throw new MarketDataError('invalid_argument', `not a finite amount: ${String(amount)}`);
}
