import { Decimal } from 'decimal.js';
import { z } from 'zod';

/**
 * The decimal constructor used by every computation of this package: 40 significant digits,
 * half-even rounding (banker's rounding, as in IEEE 754-2008 decimal arithmetic), so that sums and
 * products of money amounts and quantities are exact and only divisions round.
 */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
/** An instance of {@link Dec}. */
export type Dec = InstanceType<typeof Dec>;

/** Decimal places of every decimal string this package outputs (half-even rounding). */
export const OUTPUT_SCALE = 10;

/** Shape of a decimal string: optional minus, digits, optional fraction. No exponent, no `+`. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * Renders a decimal as a plain decimal string, rounded half-even to {@link OUTPUT_SCALE} places,
 * without exponent and without trailing zeros (`1.50` → `"1.5"`, `-0` → `"0"`).
 */
export function formatDecimal(value: Dec): string {
  const rounded = value.toDecimalPlaces(OUTPUT_SCALE, Decimal.ROUND_HALF_EVEN);
  return rounded.isZero() ? '0' : rounded.toFixed();
}

/** Parses a decimal string (see {@link DECIMAL_PATTERN}); `undefined` when it is not one. */
export function parseDecimal(value: string): Dec | undefined {
  return DECIMAL_PATTERN.test(value) ? new Dec(value) : undefined;
}

const decimalString = (description: string, pattern = DECIMAL_PATTERN, message = SHAPE) =>
  z.string().max(40).regex(pattern, message).describe(description);

const SHAPE = 'must be a decimal string such as "12.34" (no exponent)';

/**
 * A decimal number carried as a string (`"1234.5678"`), never a JSON number: JSON numbers are
 * IEEE 754 doubles in most clients, which cannot hold `0.1` exactly and lose digits past 2^53, so
 * money and fractional share counts travel as strings and are computed with decimal arithmetic.
 */
export const DecimalString = decimalString(
  'Decimal number as a string (e.g. "1234.5678"): no exponent, no thousands separator',
);

/**
 * Shape of a decimal string whose value is strictly greater than zero: no sign, and a digit other
 * than 0 before or after the point. The pattern is the whole rule, so the OpenAPI document states
 * exactly what the server accepts (`0`, `0.00` and `-1` fail it).
 */
const POSITIVE_DECIMAL_PATTERN = /^(\d*[1-9]\d*(\.\d+)?|\d+\.\d*[1-9]\d*)$/;

/** Shape of a decimal string whose value is zero or greater: no sign. */
const NON_NEGATIVE_DECIMAL_PATTERN = /^\d+(\.\d+)?$/;

/** A decimal string whose value is strictly greater than zero (see {@link POSITIVE_DECIMAL_PATTERN}). */
export const PositiveDecimalString = decimalString(
  'Decimal number as a string, strictly greater than 0',
  POSITIVE_DECIMAL_PATTERN,
  'must be a decimal string greater than 0, such as "12.34" (no sign, no exponent)',
);

/** A decimal string whose value is zero or greater (see {@link NON_NEGATIVE_DECIMAL_PATTERN}). */
export const NonNegativeDecimalString = decimalString(
  'Decimal number as a string, 0 or greater',
  NON_NEGATIVE_DECIMAL_PATTERN,
  'must be a decimal string of 0 or more, such as "12.34" (no sign, no exponent)',
);
