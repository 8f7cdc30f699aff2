import {
  createSecEdgarProvider,
  createSimfinProvider,
  createSnapshotProvider,
  FundamentalsError,
  type FundamentalsProvider,
} from '@svc/fundamentals-client';
import {
  createCsvQuoteProvider,
  createEcbFileFxProvider,
  createEcbHttpFxProvider,
  createHttpQuoteProvider,
  createStooqHistoryProvider,
  type FxProvider,
  KNOWN_SPLITS,
  type PriceHistoryProvider,
  type QuoteProvider,
  type StockSplit,
} from '@svc/market-data';

// The one place where a provider is chosen by its configured name: fundamentals, quotes, price
// history and FX rates. The composition root (`openRuntime` of `@svc/service`, which re-exports
// these for the command line) calls these with the configuration's settings and only instruments
// what it gets; the flows of `@svc/use-cases` take the providers' interfaces only.

/** Fundamentals providers the server may select (CONTRACT §5; `FUNDAMENTALS_PROVIDER`). */
export const FUNDAMENTALS_PROVIDER_NAMES = ['sec-edgar', 'snapshot', 'simfin'] as const;

/**
 * Second fundamentals providers the evaluations may be reconciled with (`RECONCILE_PROVIDER`,
 * issue 39); `off` reconciles with none.
 */
export const RECONCILE_PROVIDER_NAMES = ['off', ...FUNDAMENTALS_PROVIDER_NAMES] as const;

/** Quote sources for the valuation's share price (`QUOTES_PROVIDER`). */
export const QUOTE_PROVIDER_NAMES = ['csv', 'http', 'none'] as const;

/** EUR reference-rate sources (`FX_PROVIDER`): ECB live daily XML, an ECB CSV file, none. */
export const FX_PROVIDER_NAMES = ['ecb', 'ecb-file', 'none'] as const;

/** The fundamentals part of the service configuration (CONTRACT §5 names in brackets). */
export interface FundamentalsSettings {
  /** `FUNDAMENTALS_PROVIDER`: which source the server reads. */
  readonly provider: (typeof FUNDAMENTALS_PROVIDER_NAMES)[number];
  /** `SEC_USER_AGENT`: contact string SEC requires; needed for `sec-edgar`. */
  readonly secUserAgent?: string | undefined;
  /** `SEC_DATA_URL`: SEC's data API origin (companyfacts, submissions); default data.sec.gov. */
  readonly secDataUrl?: string | undefined;
  /** `SEC_WWW_URL`: SEC's web origin (ticker map, archives); default www.sec.gov. */
  readonly secWwwUrl?: string | undefined;
  /** Awaited before every SEC request: the budget shared by every process (10 a second). */
  readonly secAcquire?: ((signal?: AbortSignal) => Promise<void>) | undefined;
  /** `FUNDAMENTALS_SNAPSHOT_DIR`: folder of companyfacts JSON files; needed for `snapshot`. */
  readonly snapshotDir?: string | undefined;
  /** `SIMFIN_DIR`: folder of SimFin bulk annual CSVs; needed for `simfin`. */
  readonly simfinDir?: string | undefined;
  /**
   * `RECONCILE_PROVIDER`: the second provider every evaluation is reconciled with, its settings
   * the ones above (`SIMFIN_DIR`, …); `off` or absent: none.
   */
  readonly reconcileProvider?: (typeof RECONCILE_PROVIDER_NAMES)[number] | undefined;
}

/**
 * Creates the server's fundamentals provider from its settings. `simfin` gets `KNOWN_SPLITS` of
 * `@svc/market-data`, so its EPS is on the latest split basis like the snapshot's (issue 12);
 * its EPS `filed` then names that basis, and `splitsOf` adds no split twice.
 *
 * @throws FundamentalsError `invalid_config` when the setting the provider needs is missing.
 */
export function createFundamentalsProvider(settings: FundamentalsSettings): FundamentalsProvider {
  switch (settings.provider) {
    case 'sec-edgar':
      return createSecEdgarProvider({
        userAgent: required(settings.secUserAgent, 'SEC_USER_AGENT'),
        ...(settings.secDataUrl ? { baseUrl: settings.secDataUrl } : {}),
        ...(settings.secWwwUrl ? { wwwUrl: settings.secWwwUrl } : {}),
        ...(settings.secAcquire ? { acquire: settings.secAcquire } : {}),
      });
    case 'snapshot':
      return createSnapshotProvider({
        dir: required(settings.snapshotDir, 'FUNDAMENTALS_SNAPSHOT_DIR'),
      });
    case 'simfin':
      return createSimfinProvider({
        dir: required(settings.simfinDir, 'SIMFIN_DIR'),
        splits: KNOWN_SPLITS,
      });
  }
}

/**
 * Creates the second fundamentals provider of `settings.reconcileProvider` (issue 39) with the
 * same settings as the first (`SIMFIN_DIR`, `FUNDAMENTALS_SNAPSHOT_DIR`, `SEC_USER_AGENT`, …), or
 * null when it is `off` or absent. Its figures reach the scoring as `reconcileWith`
 * (`evaluateCompany` of `@svc/use-cases`).
 *
 * @throws FundamentalsError `invalid_config` when the setting the provider needs is missing.
 */
export function createReconcileProvider(
  settings: FundamentalsSettings,
): FundamentalsProvider | null {
  const name = settings.reconcileProvider ?? 'off';
  return name === 'off' ? null : createFundamentalsProvider({ ...settings, provider: name });
}

/** The quotes part of the service configuration. */
export interface QuoteSettings {
  /**
   * `QUOTES_PROVIDER`: `csv` (offline daily price files), `http` (a JSON quote API, see
   * `createHttpQuoteProvider` of `@svc/market-data`) or `none`.
   */
  readonly provider: (typeof QUOTE_PROVIDER_NAMES)[number];
  /** `PRICES_DIR`: the folder of price series folders, for `csv`. */
  readonly pricesDir?: string | undefined;
  /** `QUOTES_API_URL`: the quote API root (requests go to `{apiUrl}/quote?symbol=`), for `http`. */
  readonly apiUrl?: string | undefined;
  /** `QUOTES_API_KEY`: sent as `x-api-key` when set, for `http`. */
  readonly apiKey?: string | undefined;
}

/** A quote provider plus the split table that puts its prices on the EPS's share basis. */
export interface QuoteSource {
  readonly quotes: QuoteProvider | null;
  readonly splitsOf: (symbol: string) => readonly StockSplit[];
}

/**
 * Creates the quote provider from its settings (`none`: no prices, valuation fields null).
 * `csv` takes its splits from the price files; `http` quotes are closes on their own day's share
 * basis, so the splits between the latest 10-K and that day come from `KNOWN_SPLITS` of
 * `@svc/market-data` (none for tickers outside that table).
 *
 * @throws FundamentalsError `invalid_config` when `PRICES_DIR` (csv) or `QUOTES_API_URL` (http)
 *   is missing.
 */
export function createQuoteSource(settings: QuoteSettings): QuoteSource {
  switch (settings.provider) {
    case 'none':
      return { quotes: null, splitsOf: () => [] };
    case 'csv': {
      const quotes = createCsvQuoteProvider({ dir: required(settings.pricesDir, 'PRICES_DIR') });
      return { quotes, splitsOf: (symbol) => quotes.getSplits(symbol) };
    }
    case 'http': {
      const quotes = createHttpQuoteProvider({
        baseUrl: required(settings.apiUrl, 'QUOTES_API_URL'),
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
      return { quotes, splitsOf: (symbol) => KNOWN_SPLITS.filter((s) => s.symbol === symbol) };
    }
  }
}

/** The FX part of the service configuration. */
export interface FxSettings {
  /** `FX_PROVIDER`. */
  readonly provider: (typeof FX_PROVIDER_NAMES)[number];
  /** `ECB_FX_FILE`: the ECB history CSV (`eurofxref-hist.csv`), for `ecb-file`. */
  readonly file?: string | undefined;
}

/**
 * The EUR reference-rate provider of `FX_PROVIDER`: `ecb` fetches the ECB's daily XML, and for
 * past days its 90-day XML and full-history zip (all cached by the provider), `ecb-file` reads an
 * ECB history CSV at `ECB_FX_FILE`, `none` gives null (EUR values of non-EUR positions stay null).
 *
 * @throws FundamentalsError `invalid_config` when `ecb-file` has no `ECB_FX_FILE`.
 */
export function createFxProvider(settings: FxSettings): FxProvider | null {
  switch (settings.provider) {
    case 'ecb':
      return createEcbHttpFxProvider();
    case 'ecb-file':
      return createEcbFileFxProvider({ file: required(settings.file, 'ECB_FX_FILE') });
    case 'none':
      return null;
  }
}

/**
 * Where performance figures take daily closes from: a Stooq-format CSV service at `url`
 * (`PRICE_HISTORY_URL`, `{listing}` or `{symbol}` replaced), else the quote provider when it serves history too
 * (the offline CSV provider does), else none (returns `unavailable`).
 */
export function createPriceHistory(
  url: string | undefined,
  quotes: QuoteProvider | null,
): PriceHistoryProvider | null {
  if (url !== undefined) return createStooqHistoryProvider({ urlTemplate: url });
  return quotes !== null && 'getDailyCloses' in quotes ? (quotes as PriceHistoryProvider) : null;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') {
    throw new FundamentalsError('invalid_config', `${name} is not set`);
  }
  return value;
}
