import { normaliseTicker, TICKER_SYMBOL_RULE } from '@svc/schemas';
import { UseCaseError } from './errors.js';

/**
 * The ticker a flow works with: the one rule of `@svc/schemas` (`normaliseTicker` over
 * `TickerSymbol`: trimmed, upper-cased, share-class separators written `-`, so `brk.b` is
 * `BRK-B`), applied once where a flow takes a symbol from its caller.
 *
 * @throws {UseCaseError} `validation_failed` with a `symbol` field error (the rule) unless `raw`
 *   is a `TickerSymbol`: the same problem a provider's `invalid_symbol` becomes.
 * @example
 * tickerOf(' brk.b '); // 'BRK-B'
 */
export function tickerOf(raw: string): string {
  const ticker = normaliseTicker(raw);
  if (ticker === undefined) {
    throw new UseCaseError('validation_failed', 'The symbol is not a ticker.', {
      errors: [{ path: 'symbol', message: TICKER_SYMBOL_RULE }],
    });
  }
  return ticker;
}
