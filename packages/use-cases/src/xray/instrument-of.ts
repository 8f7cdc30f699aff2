import type { Holding } from '@svc/portfolio';
import { normaliseTicker, XrayInstrument } from '@svc/schemas';
import { ISIN_PATTERN } from '../portfolio/isin-symbols.js';

/**
 * The instrument of a holding (CONTRACT §9), the one place the X-ray learns what a holding is.
 * A holding that carries `instrument` (issue 38's instruments) answers it as stored; until then it
 * is derived from the symbol: a ticker (`normaliseTicker` accepts it) is a share identified by the
 * export (`resolution: "export"`), an ISIN or any other text is `unresolved` (kind `other`), with
 * the holding's currency and name.
 *
 * @example
 * instrumentOf(holding) // { ticker: 'AAPL', currency: 'USD', name: 'Apple Inc.', kind: 'share', resolution: 'export' }
 */
export function instrumentOf(holding: Holding & { readonly instrument?: unknown }): XrayInstrument {
  if (holding.instrument !== undefined) {
    const stored = XrayInstrument.safeParse(holding.instrument);
    if (stored.success) return stored.data;
  }
  const name = holding.name && holding.name !== holding.symbol ? { name: holding.name } : {};
  const base = { currency: holding.currency, ...name };
  if (ISIN_PATTERN.test(holding.symbol)) {
    return { isin: holding.symbol, ...base, kind: 'other', resolution: 'unresolved' };
  }
  const ticker = normaliseTicker(holding.symbol);
  if (ticker === undefined) return { ...base, kind: 'other', resolution: 'unresolved' };
  return { ticker, ...base, kind: 'share', resolution: 'export' };
}
