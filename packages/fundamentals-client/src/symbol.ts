import { normaliseTicker, TICKER_SYMBOL_RULE } from '@svc/schemas';
import { FundamentalsError } from './errors.js';

/**
 * Normalises a ticker symbol with the one rule of `@svc/schemas` (`normaliseTicker` over
 * `TickerSymbol`): trims, upper-cases, and writes share-class separators as `-` (SEC's
 * `company_tickers.json` spelling), so `bf.b`, `BF.B` and `BF-B` all become `BF-B`.
 *
 * @throws {FundamentalsError} code `invalid_symbol` unless the trimmed symbol is 1–10 characters
 *   of `A–Z`, `0–9`, `.` and `-` and contains at least one letter or digit.
 * @example
 * ```ts
 * normaliseSymbol(' brk.b ') // 'BRK-B'
 * ```
 */
export function normaliseSymbol(symbol: string): string {
  const normalised = normaliseTicker(symbol);
  if (normalised === undefined) {
    throw new FundamentalsError(
      'invalid_symbol',
      `Invalid symbol ${JSON.stringify(symbol)}: ${TICKER_SYMBOL_RULE}`,
    );
  }
  return normalised;
}
