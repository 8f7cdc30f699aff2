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
