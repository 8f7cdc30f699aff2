export {
  type ParseCompanyFactsOptions,
  parseCompanyFacts,
} from './companyfacts/parse-company-facts.js';
export {
  FUNDAMENTALS_ERROR_CODES,
  FundamentalsError,
  type FundamentalsErrorCode,
} from './errors.js';
export { type SicClassification, sicToSector } from './profile/sic-to-sector.js';
export type { FetchLike } from './providers/http-json.js';
export {
  type FundamentalsProvider,
  type GetFundamentalsOptions,
  isListableProvider,
  type ListableFundamentalsProvider,
} from './providers/provider.js';
export {
  ANNUAL_FORMS,
  createSecFilingsClient,
  type DailyIndexEntry,
  dailyIndexUrl,
  padCik,
  parseFormIndex,
  type SecFilingsClient,
  type SecFilingsClientOptions,
  type SubmittedFiling,
} from './providers/sec-daily-index.js';
export { parseCompanyTickers, parseSubmissions } from './providers/sec-documents.js';
export {
  createSecEdgarProvider,
  SEC_MAX_REQUESTS_PER_SECOND,
  type SecEdgarProviderOptions,
} from './providers/sec-edgar-provider.js';
export {
  createSnapshotProvider,
  type SnapshotProviderOptions,
} from './providers/snapshot-provider.js';
export {
  SIMFIN_FILES,
  type SimfinColumn,
  type SimfinCompanyRows,
  type SimfinRow,
  type SimfinStatement,
} from './simfin/columns.js';
export type { SimfinCompanyInfo } from './simfin/companies.js';
export type { KnownSplit } from './simfin/share-basis.js';
export { createSimfinProvider, type SimfinProviderOptions } from './simfin/simfin-provider.js';
export {
  type SimfinToFundamentalsOptions,
  simfinToFundamentals,
} from './simfin/simfin-to-fundamentals.js';
export { normaliseSymbol } from './symbol.js';
