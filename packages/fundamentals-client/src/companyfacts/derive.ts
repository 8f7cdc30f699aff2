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
  fillSingleComponents(picks);
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
