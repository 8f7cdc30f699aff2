export { MarketDataError, type MarketDataErrorCode } from './errors.js';
export { convertToEur, type EurConversion } from './fx/convert-to-eur.js';
export {
  createEcbFileFxProvider,
  type EcbFileFxProviderOptions,
} from './fx/ecb-file-fx-provider.js';
export {
  createEcbHttpFxProvider,
  ECB_DAILY_XML_URL,
  ECB_HIST_90D_XML_URL,
  ECB_HIST_ZIP_URL,
  type EcbHttpFxProviderOptions,
} from './fx/ecb-http-fx-provider.js';
export { parseEcbCsv, parseEcbXml } from './fx/ecb-parsers.js';
export type { EcbDay } from './fx/rate-table.js';
export { type FxCoverage, type FxProvider, FxRate, type FxRateOptions } from './fx-rate.js';
export { EXCHANGES, type ListingStyle, listingSymbol } from './instruments/listings.js';
export {
  createOpenFigiClient,
  type InstrumentQuery,
  OPENFIGI_JOBS_PER_REQUEST,
  type OpenFigiClient,
  type OpenFigiOptions,
} from './instruments/openfigi.js';
export {
  DailyCloses,
  type DailyClosesOptions,
  type PriceHistoryProvider,
} from './price-history.js';
export { Quote, type QuoteOptions, type QuoteProvider } from './quote.js';
export {
  type CsvQuoteProvider,
  type CsvQuoteProviderOptions,
  createCsvQuoteProvider,
  DEFAULT_PRICE_SERIES,
} from './quotes/csv-quote-provider.js';
export {
  createHttpQuoteProvider,
  type HttpQuoteProviderOptions,
  HttpQuoteResponse,
} from './quotes/http-quote-provider.js';
export type { PriceSeriesSource, SeriesKind } from './quotes/price-files.js';
export { KNOWN_SPLITS, type StockSplit, splitFactor } from './quotes/splits.js';
export {
  createStooqHistoryProvider,
  parseStooqCsv,
  STOOQ_DAILY_CSV_URL,
  type StooqHistoryProviderOptions,
  stooqListing,
} from './quotes/stooq-history-provider.js';
