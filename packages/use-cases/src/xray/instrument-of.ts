import type { Holding } from '@svc/portfolio';
import { type Instrument, normaliseTicker } from '@svc/schemas';
import { ISIN_PATTERN } from '../portfolio/isin-symbols.js';

/**
 * The instrument of a holding (CONTRACT §9), the one place the X-ray learns what a holding is.
 * A holding answers its own `instrument` (issue 38: resolved when its rows were written, or by
 * the start-up pass); one without (a holding built elsewhere) derives it from the symbol: a ticker (`normaliseTicker` accepts it) is a share identified by the
 * export (`resolution: "export"`), an ISIN or any other text is `unresolved` (kind `other`), with
 * the holding's currency and name.
 *
 * @example
 * instrumentOf(holding) // { ticker: 'AAPL', currency: 'USD', name: 'Apple Inc.', kind: 'share', resolution: 'export' }
 */
export function instrumentOf(
  holding: Omit<Holding, 'instrument'> & { readonly instrument?: Instrument | null },
): Instrument {
  if (holding.instrument) return holding.instrument;
  const name = holding.name && holding.name !== holding.symbol ? { name: holding.name } : {};
  const base = { currency: holding.currency, ...name };
  if (ISIN_PATTERN.test(holding.symbol)) {
    return { isin: holding.symbol, ...base, kind: 'other', resolution: 'unresolved' };
  }
  const ticker = normaliseTicker(holding.symbol);
  if (ticker === undefined) return { ...base, kind: 'other', resolution: 'unresolved' };
  return { ticker, ...base, kind: 'share', resolution: 'export' };
}
