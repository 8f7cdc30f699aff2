import { FundamentalsError } from './errors.js';

const SYMBOL_PATTERN = /^[A-Z0-9.-]{1,10}$/;

/**
 * Normalises a ticker symbol: trims, upper-cases, and writes share-class separators as `-`
 * (SEC's `company_tickers.json` spelling), so `bf.b`, `BF.B` and `BF-B` all become `BF-B`.
 *
 * @throws {FundamentalsError} code `invalid_symbol` unless the trimmed symbol is 1–10 characters
 *   of `A–Z`, `0–9`, `.` and `-` and contains at least one letter or digit.
 * @example
 * ```ts
 * normaliseSymbol(' brk.b ') // 'BRK-B'
 * ```
 */
export function normaliseSymbol(symbol: string): string {
  const upper = typeof symbol === 'string' ? symbol.trim().toUpperCase() : '';
  if (!SYMBOL_PATTERN.test(upper) || !/[A-Z0-9]/.test(upper)) {
    throw new FundamentalsError(
      'invalid_symbol',
      `Invalid symbol ${JSON.stringify(symbol)}: expected 1–10 characters of A–Z, 0–9, "." or "-"`,
    );
  }
  return upper.replaceAll('.', '-');
}
