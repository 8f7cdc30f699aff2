export {
  createFundamentalsProvider,
  createFxProvider,
  createPriceHistory,
  createQuoteSource,
  FUNDAMENTALS_PROVIDER_NAMES,
  type FundamentalsSettings,
  FX_PROVIDER_NAMES,
  type FxSettings,
  QUOTE_PROVIDER_NAMES,
  type QuoteSettings,
  type QuoteSource,
} from './providers.js';
