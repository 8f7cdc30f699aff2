export { parseCompanyFacts, type ParseCompanyFactsOptions } from './companyfacts/parse-company-facts.js';
export { FUNDAMENTALS_ERROR_CODES, FundamentalsError, type FundamentalsErrorCode } from './errors.js';
export { type SicClassification, sicToSector } from './profile/sic-to-sector.js';
export { normaliseSymbol } from './symbol.js';
