export {
  type CompanyEvaluation,
  type EvaluateCompanyDeps,
  evaluateCompany,
} from './evaluate-company.js';
export { type FilingReference, filingsBehind } from './filings.js';
export {
  createFundamentalsProvider,
  createQuoteSource,
  FUNDAMENTALS_PROVIDER_NAMES,
  type FundamentalsSettings,
  type QuoteSettings,
  type QuoteSource,
} from './providers.js';
