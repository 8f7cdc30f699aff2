import type { CriterionKey } from '@svc/schemas';

/** Static description of one criterion of the scoring model (interface spec 2.3). */
export interface CriterionDefinition {
  /** Criterion key, one of `CRITERION_KEYS` of `@svc/schemas`. */
  readonly key: CriterionKey;
  /** Display name, as in interface spec 2.3. */
  readonly name: string;
  /** The pass rule followed by its source, copied into every `Criterion.benchmark`. */
  readonly benchmark: string;
  /** Where the formula and thresholds come from. */
  readonly source: string;
}

function define(
  key: CriterionKey,
  name: string,
  rule: string,
  source: string,
): CriterionDefinition {
  return { key, name, benchmark: `${rule} (${source})`, source };
}

/**
 * The criteria in the order of `CRITERION_KEYS` (interface spec 2.3: eight). Each `benchmark` is
 * the pass rule plus its source (research notes `moat-methodology.md` §4); every criterion is
 * worth `CRITERION_MAX_SCORE` points (100 shared equally: 12.5) when it applies.
 */
export const CRITERIA: readonly CriterionDefinition[] = [
  define(
    'earnings_consistency',
    'Earnings Consistency',
    'EPS trend growth ≥ 7%/yr and R² ≥ 0.80 over 10 years, few down-years, no loss in the last 3 years',
    'Buffett & Clark 2008 (10-year EPS consistency); NAIC R² bands; dassus98/buffett-screener decline multipliers and 8-of-10 positive years',
  ),
  define(
    'gross_margin',
    'Gross Margin',
    'Median gross margin ≥ 40%, stable or rising over 10 years (no drop > 5 pp within 3 years)',
    'Buffett & Clark 2008 (≥ 40% DCA, ≤ 20% fierce competition); dassus98/buffett-screener 3-year drop signal',
  ),
  define(
    'net_margin',
    'Net Margin',
    'Median net margin ≥ 15% (≥ 20% strong), positive in ≥ 90% of years, not falling',
    'Buffett & Clark 2008 (> 20% durable, < 10% competitive); Dorsey/Morningstar 15%; dassus98/buffett-screener 8-of-10 positive years',
  ),
  define(
    'retained_earnings',
    'Retained Earnings',
    'Without material buybacks: retained earnings grow ≥ 7%/yr; with buybacks: buybacks covered ≥ 1× by free cash flow after dividends, not by new debt',
    'Buffett & Clark 2008 (retained earnings growth); Buffett 1984 $1 retention test; Buffettology / dassus98 retention return ≥ 12%',
  ),
  define(
    'return_on_invested_capital',
    'Return on Invested Capital',
    'Median ROIC = NOPAT / invested capital ≥ 15% (not ROE), ≥ 15% in at least 60% of years',
    'Greenwald (15–25% after-tax ROIC); Phil Town Rule #1 (≥ 10%); McKinsey invested capital (financing and operating approaches); Damodaran (ROE for banks)',
  ),
  define(
    'debt_sustainability',
    'Debt Sustainability',
    'Debt repayable from ≤ 4 years of net income and interest ≤ 15% of operating income',
    'Buffett & Clark 2008 (3–4 years of earnings; interest < 15% of operating income); dassus98/buffett-screener (≥ 5 years fail, 30% interest fail)',
  ),
  define(
    'capex_efficiency',
    'CapEx Efficiency',
    'Capital expenditure ≤ 50% of net income over 10 years (≤ 25% excellent); growth capex set aside when ROIC passes',
    'Buffett & Clark 2008 (capex / net earnings 50% / 25%); Greenwald maintenance capex (Value Investing, EPV chapter)',
  ),
  define(
    'product_durability',
    'Product Durability',
    'Steadiness score ≥ 75/100 from the worst revenue year (falls with rising operating income not counted), the largest margin fall below its running peak (pricing power), cost structure (SG&A, R&D, D&A vs gross profit) and operating-margin stability; a thin margin (median net < 5%) without ROIC ≥ 15% is at best a warning',
    'Buffett on pricing power (FCIC 2010); Buffett & Clark 2008 cost ratios; Stoffel R&D and D&A ≤ 30% / 10% of gross profit; Greenwald & Kahn 2005 (without barriers returns sink to the cost of capital)',
  ),
];
