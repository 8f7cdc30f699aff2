import type { Provenance } from '@svc/schemas';
import type { Pick } from './select-series.js';

/** The picks of one fiscal year by metric or helper key. */
export type YearPicks = Map<string, Pick>;

interface Formula {
  /** Metric the formula fills when no reported value exists. */
  readonly target: string;
  /** Provenance tag, `derived:<formula>`. */
  readonly tag: string;
  readonly inputs: readonly string[];
  readonly compute: (v: readonly number[]) => number;
}

/**
 * Formulas for metrics a filer does not tag, applied in order (later ones may use earlier
 * results). Sources: research notes §2.6 (gross profit, EPS) and §3 (operating income fallback
 * for NUE/XOM/JNJ, long-term debt when only the total including the current portion is tagged,
 * pre-tax income as domestic + foreign).
 */
const FORMULAS: readonly Formula[] = [
  {
    target: 'pretaxIncome',
    tag: 'derived:pretaxDomestic+pretaxForeign',
    inputs: ['pretaxDomestic', 'pretaxForeign'],
    compute: ([a = 0, b = 0]) => a + b,
  },
  {
    // Continuing operations attributable to the parent: net income less discontinued operations
    // (PG FY2017: 15,326 M − 5,217 M = 10,109 M, which PG reports as continuing operations
    // 10,194 M less 85 M of noncontrolling interests).
    target: 'incomeFromContinuingOperations',
    tag: 'derived:netIncome-discontinuedOperations',
    inputs: ['netIncome', 'discontinuedOperations'],
    compute: ([a = 0, b = 0]) => a - b,
  },
  {
    target: 'grossProfit',
    tag: 'derived:revenue-costOfRevenue',
    inputs: ['revenue', 'costOfRevenue'],
    compute: ([a = 0, b = 0]) => a - b,
  },
  {
    target: 'operatingIncome',
    tag: 'derived:pretaxIncome+interestExpense',
    inputs: ['pretaxIncome', 'interestExpense'],
    compute: ([a = 0, b = 0]) => a + b,
  },
  {
    target: 'sellingGeneralAdministrative',
    tag: 'derived:sellingAndMarketing+generalAndAdministrative',
    inputs: ['sellingAndMarketing', 'generalAndAdministrative'],
    compute: ([a = 0, b = 0]) => a + b,
  },
  {
    target: 'longTermDebt',
    tag: 'derived:longTermDebtTotal-longTermDebtCurrent',
    inputs: ['longTermDebtTotal', 'longTermDebtCurrent'],
    compute: ([a = 0, b = 0]) => a - b,
  },
  {
    target: 'shortTermDebt',
    tag: 'derived:longTermDebtCurrent+shortTermBorrowings',
    inputs: ['longTermDebtCurrent', 'shortTermBorrowings'],
    compute: ([a = 0, b = 0]) => a + b,
  },
  {
    // Same scope as reported diluted EPS, which is read from continuing operations first.
    target: 'dilutedEps',
    tag: 'derived:incomeFromContinuingOperations/dilutedShares',
    inputs: ['incomeFromContinuingOperations', 'dilutedShares'],
    compute: ([a = 0, b = 0]) => a / b,
  },
  {
    target: 'dilutedEps',
    tag: 'derived:netIncome/dilutedShares',
    inputs: ['netIncome', 'dilutedShares'],
    compute: ([a = 0, b = 0]) => a / b,
  },
];

/**
 * Fills metrics the filings do not report from other figures of the same year. A derived value
 * has `derived: true`, a `derived:<formula>` tag, no filing of its own (`form`/`accession`/
 * `filed` null) and a note naming its inputs. A formula runs only when all inputs exist (a
 * missing input leaves the metric `null`, never 0) and the result is finite.
 */
export function deriveMissing(picks: YearPicks): void {
  dropMismatchedGrossProfit(picks);
  for (const f of FORMULAS) {
    if (picks.has(f.target)) continue;
    const inputs = f.inputs.map((k) => picks.get(k));
    if (inputs.some((p) => p === undefined)) continue;
    const values = inputs.map((p) => (p as Pick).value);
    const value = f.compute(values);
    if (!Number.isFinite(value)) continue;
    const note = f.inputs
      .map((k, i) => `${k} = ${values[i]} (${describe((inputs[i] as Pick).source)})`)
      .join('; ');
    picks.set(f.target, { value, source: derivedSource(f.tag, note), history: [] });
  }
  const setAside = picks.get('grossProfitReported');
  const derivedGp = picks.get('grossProfit');
  if (setAside && derivedGp) {
    picks.set(
      'grossProfit',
      withNote(
        derivedGp,
        `reported ${setAside.source.tag} ${setAside.value} (${setAside.source.accession}) is on a narrower revenue line than total revenue and was set aside`,
      ),
    );
  }
  noteCostScope(picks);
  fillSingleComponents(picks);
}

/**
 * Says so on cost of revenue and gross profit when the cost line excludes depreciation and
 * amortization (`CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization`: KR, UBER):
 * such a gross margin is before D&A and reads higher than one after it.
 */
function noteCostScope(picks: YearPicks): void {
  const cost = picks.get('costOfRevenue');
  if (!cost || !/ExcludingDepreciation/.test(cost.source.tag)) return;
  const note = 'cost of revenue excludes depreciation and amortization: gross margin before D&A';
  picks.set('costOfRevenue', withNote(cost, note));
  const gp = picks.get('grossProfit');
  if (gp) picks.set('grossProfit', withNote(gp, note));
}

/**
 * Reported gross profit further than this fraction of revenue from revenue − cost of revenue is
 * on another revenue scope (COST FY2019: `GrossProfit` 16,465 M is net sales 149,351 M − cost
 * 132,886 M; total revenue including membership fees is 152,703 M). 1%: tagged lines of one
 * statement agree to the million.
 */
export const GROSS_PROFIT_SCOPE_TOLERANCE = 0.01;

/**
 * Keeps gross profit on the scope of the revenue it is divided by: when revenue and cost of
 * revenue are both reported and a reported `GrossProfit` differs from their difference by more
 * than {@link GROSS_PROFIT_SCOPE_TOLERANCE} of revenue, the reported line is set aside and
 * gross profit is derived (revenue − cost of revenue, the formula of the company's other years),
 * with a note naming the set-aside value.
 */
function dropMismatchedGrossProfit(picks: YearPicks): void {
  const gp = picks.get('grossProfit');
  const revenue = picks.get('revenue');
  const cost = picks.get('costOfRevenue');
  if (!gp || !revenue || !cost || gp.source.derived) return;
  const tolerance = GROSS_PROFIT_SCOPE_TOLERANCE * Math.abs(revenue.value);
  if (Math.abs(gp.value - (revenue.value - cost.value)) <= tolerance) return;
  const excise = picks.get('exciseTaxes');
  if (excise && Math.abs(gp.value - (revenue.value - excise.value - cost.value)) <= tolerance) {
    picks.set('revenue', netOfExcise(revenue, excise));
    return;
  }
  picks.delete('grossProfit');
  picks.set('grossProfitReported', gp);
}

/**
 * Revenue net of excise taxes when the tagged revenue line includes them and the filer's own
 * gross profit is computed on net sales (BF-B FY2013–FY2015: `SalesRevenueGoodsNet` 3,946 M
 * includes 955 M of excise taxes; net sales 2,991 M, the scope of its
 * `…ExcludingAssessedTax` revenue from FY2016).
 */
function netOfExcise(revenue: Pick, excise: Pick): Pick {
  return {
    value: revenue.value - excise.value,
    history: [],
    source: derivedSource(
      'derived:revenue-exciseTaxes',
      `revenue net of excise taxes, the scope of the reported gross profit: ${revenue.source.tag} ${revenue.value} (${revenue.source.accession}) − us-gaap:ExciseAndSalesTaxes ${excise.value} (${excise.source.accession})`,
    ),
  };
}

/**
 * Short-term debt when only one of its parts is tagged, and long-term debt when only the total
 * (including any current portion) is: the reported figure is used as is, with a note. When
 * neither debt line resolves at all, a reported total of all debt (`DebtAndCapitalLeaseObligations`,
 * `DebtLongtermAndShorttermCombinedAmount`) becomes long-term debt, with a note saying it includes
 * the current portion, so that total debt (short + long) is right (Ford FY2014–FY2017).
 */
function fillSingleComponents(picks: YearPicks): void {
  if (!picks.has('shortTermDebt')) {
    const part = picks.get('longTermDebtCurrent') ?? picks.get('shortTermBorrowings');
    if (part)
      picks.set('shortTermDebt', withNote(part, 'only one component of short-term debt is tagged'));
  }
  if (!picks.has('longTermDebt')) {
    const total = picks.get('longTermDebtTotal');
    if (total) {
      picks.set(
        'longTermDebt',
        withNote(total, 'total long-term debt; no current portion tagged, so it may include one'),
      );
    }
  }
  const allDebt = picks.get('debtTotal');
  if (allDebt && !picks.has('shortTermDebt') && !picks.has('longTermDebt')) {
    picks.set(
      'longTermDebt',
      withNote(
        allDebt,
        'total debt including the current portion; no current/non-current split is tagged',
      ),
    );
  }
}

function withNote(pick: Pick, note: string): Pick {
  const joined = pick.source.note ? `${pick.source.note}; ${note}` : note;
  return { value: pick.value, source: { ...pick.source, note: joined }, history: pick.history };
}

function describe(source: Provenance): string {
  return source.derived ? source.tag : `${source.tag}, ${source.accession}`;
}

function derivedSource(tag: string, note: string): Provenance {
  return { tag, form: null, accession: null, filed: null, derived: true, note };
}
