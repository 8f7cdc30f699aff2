/**
 * SIC code ranges treated as financials, whose balance sheet is their raw material: banks and
 * thrifts (6020–6036) and insurance carriers (6311–6399). Source: the exclusion list of
 * dassus98/buffett-screener (`screener/exclusions.py`), methodology §6; Damodaran: for banks
 * "debt is raw material, not capital".
 */
export const FINANCIAL_SIC_RANGES: readonly (readonly [number, number])[] = [
  [6020, 6036],
  [6311, 6399],
];

/**
 * Whether a 4-digit SIC code is a bank, thrift or insurer ({@link FINANCIAL_SIC_RANGES}).
 * `null` or a non-numeric code is not financial.
 */
export function isFinancialSic(sicCode: string | null): boolean {
  if (sicCode === null) return false;
  const code = Number.parseInt(sicCode, 10);
  if (!Number.isFinite(code)) return false;
  return FINANCIAL_SIC_RANGES.some(([low, high]) => code >= low && code <= high);
}

/**
 * SIC codes of regulated utilities (issue 39): electric services (4911), natural gas
 * transmission and distribution (4922–4924), electric and other services combined (4931), gas and
 * other services combined (4932), combination utilities (4939) and water supply (4941): the SIC
 * industries of SEC major group 49 whose rates a public utility commission (or FERC) sets on the
 * cost of service plus an allowed return. Sanitary services (4950–4959), steam (4961), irrigation
 * (4971) and cogeneration (4991, independent power) are not rate-regulated and stay out. Source:
 * SIC Manual major group 49 (OSHA SIC table, `shared/data/sec/sic`); Morningstar: most regulated
 * utilities are rated narrow because regulators cap returns (research notes, calibration).
 */
export const REGULATED_UTILITY_SIC_RANGES: readonly (readonly [number, number])[] = [
  [4911, 4911],
  [4922, 4924],
  [4931, 4932],
  [4939, 4939],
  [4941, 4941],
];

/**
 * Industries inside a provider's "Utilities" sector that are not rate-regulated (independent
 * power producers, renewable developers, merchant generation): kept out of
 * {@link isRegulatedUtility}.
 */
const UNREGULATED_UTILITY_INDUSTRY = /independent power|renewable|merchant|unregulated/i;

/** What {@link isRegulatedUtility} reads of a company (the `company` block of the fundamentals). */
export interface IndustryFields {
  readonly sicCode: string | null;
  readonly sector: string | null;
  readonly industry: string | null;
}

/**
 * Whether a company is a regulated utility: a SIC code in {@link REGULATED_UTILITY_SIC_RANGES}
 * (SEC filers), or, with no SIC code, the sector `Utilities` (SimFin's companies/industries files,
 * GICS) unless its industry is independent power or renewables. Pure: the sector arrives with the
 * fundamentals; nothing is looked up.
 */
export function isRegulatedUtility(company: IndustryFields): boolean {
  if (company.sicCode !== null) {
    const code = Number.parseInt(company.sicCode, 10);
    if (Number.isFinite(code)) {
      return REGULATED_UTILITY_SIC_RANGES.some(([low, high]) => code >= low && code <= high);
    }
  }
  if (company.sector === null || company.sector.trim().toLowerCase() !== 'utilities') return false;
  return !UNREGULATED_UTILITY_INDUSTRY.test(company.industry ?? '');
}
