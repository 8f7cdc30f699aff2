import type { Instrument } from '@svc/schemas';

/**
 * ISO 10383 MICs of the exchanges the service knows, with the suffix Yahoo Finance and Stooq
 * put after a ticker for them (Yahoo: `VWRL.AS`, `SAP.DE`; Stooq: `sap.de`, `vod.uk`, `aapl.us`)
 * and the currency most listings there trade in. US exchanges have no Yahoo suffix.
 * Sources: ISO 10383 MIC list; Yahoo Finance's exchange suffix table; Stooq's symbol pages.
 */
export const EXCHANGES: Readonly<
  Record<string, { readonly yahoo: string; readonly stooq: string; readonly currency: string }>
> = {
  XNYS: { yahoo: '', stooq: '.us', currency: 'USD' },
  XNAS: { yahoo: '', stooq: '.us', currency: 'USD' },
  XASE: { yahoo: '', stooq: '.us', currency: 'USD' },
  ARCX: { yahoo: '', stooq: '.us', currency: 'USD' },
  XETR: { yahoo: '.DE', stooq: '.de', currency: 'EUR' },
  XFRA: { yahoo: '.F', stooq: '.de', currency: 'EUR' },
  XAMS: { yahoo: '.AS', stooq: '.nl', currency: 'EUR' },
  XPAR: { yahoo: '.PA', stooq: '.fr', currency: 'EUR' },
  XBRU: { yahoo: '.BR', stooq: '.be', currency: 'EUR' },
  XMIL: { yahoo: '.MI', stooq: '.it', currency: 'EUR' },
  XMAD: { yahoo: '.MC', stooq: '.es', currency: 'EUR' },
  XLON: { yahoo: '.L', stooq: '.uk', currency: 'GBP' },
  XSWX: { yahoo: '.SW', stooq: '.ch', currency: 'CHF' },
  XTSE: { yahoo: '.TO', stooq: '.ca', currency: 'CAD' },
};

/**
 * The exchanges of {@link EXCHANGES} by their Yahoo-style suffix, upper case (`.DE` → XETR's entry,
 * `.AS` → XAMS's): how a quote symbol as the service spells it (`listingSymbol`) names its
 * exchange. US exchanges, which have no suffix, are not in it; where two exchanges share a suffix
 * the later in {@link EXCHANGES} wins (none does today).
 */
export const EXCHANGE_BY_YAHOO_SUFFIX: ReadonlyMap<string, (typeof EXCHANGES)[string]> = new Map(
  Object.values(EXCHANGES)
    .filter((e) => e.yahoo !== '')
    .map((e) => [e.yahoo.toUpperCase(), e] as const),
);

/** How a quote provider spells a listing: Yahoo's suffixes (the CSV files, the HTTP API) or Stooq's. */
export type ListingStyle = 'yahoo' | 'stooq';

/**
 * The symbol a quote provider is asked for an instrument's listing: the ticker with the
 * exchange's suffix for that provider (`VWRL` on XAMS → `VWRL.AS` for Yahoo, `vwrl.nl`-style for
 * Stooq, which the Stooq provider lower-cases itself), the bare ticker for a US listing or an
 * exchange not in {@link EXCHANGES}, and `undefined` for an instrument without a ticker (an ISIN
 * nobody resolved: it has no quote). A ticker that already carries a suffix (`NOVN.SW`) is kept.
 *
 * @example
 * ```ts
 * listingSymbol({ ticker: 'SAP', mic: 'XETR', currency: 'EUR', kind: 'share', resolution: 'openfigi' }) // 'SAP.DE'
 * listingSymbol({ ticker: 'AAPL', mic: 'XNAS', currency: 'USD', kind: 'share', resolution: 'sec' })    // 'AAPL'
 * ```
 */
export function listingSymbol(
  instrument: Pick<Instrument, 'ticker' | 'mic'>,
  style: ListingStyle = 'yahoo',
): string | undefined {
  const ticker = instrument.ticker?.toUpperCase();
  if (!ticker) return undefined;
  if (/\.[A-Z]{1,3}$/.test(ticker)) return ticker;
  const exchange = instrument.mic ? EXCHANGES[instrument.mic] : undefined;
  if (!exchange) return ticker;
  const suffix = style === 'yahoo' ? exchange.yahoo : exchange.stooq;
  if (style === 'stooq' && suffix === '.us') return ticker;
  return `${ticker}${suffix.toUpperCase()}`;
}
