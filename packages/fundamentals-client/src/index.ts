export {
  type ParseCompanyFactsOptions,
  parseCompanyFacts,
} from './companyfacts/parse-company-facts.js';
export {
  FUNDAMENTALS_ERROR_CODES,
  FundamentalsError,
  type FundamentalsErrorCode,
} from './errors.js';
export {
  buildFundamentalsTable,
  type FundamentalsTable,
  type FundamentalsTableOptions,
  formatFundamentalsJson,
  formatFundamentalsTable,
  METRIC_ROWS,
  type RowUnit,
  type TableCell,
} from './format/fundamentals-table.js';
export { type SicClassification, sicToSector } from './profile/sic-to-sector.js';
export type { FetchLike } from './providers/http-json.js';
export type { FundamentalsProvider, GetFundamentalsOptions } from './providers/provider.js';
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
export { normaliseSymbol } from './symbol.js';
