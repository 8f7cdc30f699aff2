import type { Figure, Fundamentals, MetricKey } from '@svc/schemas';
import {
  type FigureMark,
  type FigureMarkSymbol,
  figureMarks,
  formatYearRanges,
  markOf,
} from './figure-marks.js';

/** How a row's values are scaled for display. */
export type RowUnit = 'millions' | 'perShare' | 'sharesMillions';

/** Display label and unit of every metric, in statement order. */
export const METRIC_ROWS: readonly { key: MetricKey; label: string; unit: RowUnit }[] = [
  { key: 'revenue', label: 'Revenue', unit: 'millions' },
  { key: 'costOfRevenue', label: 'Cost of revenue', unit: 'millions' },
  { key: 'grossProfit', label: 'Gross profit', unit: 'millions' },
  { key: 'sellingGeneralAdministrative', label: 'SG&A', unit: 'millions' },
  { key: 'researchDevelopment', label: 'R&D', unit: 'millions' },
  { key: 'depreciationAmortization', label: 'D&A', unit: 'millions' },
  { key: 'operatingIncome', label: 'Operating income', unit: 'millions' },
  { key: 'interestExpense', label: 'Interest expense', unit: 'millions' },
  { key: 'pretaxIncome', label: 'Pre-tax income', unit: 'millions' },
  { key: 'incomeTaxExpense', label: 'Income tax', unit: 'millions' },
  { key: 'netIncome', label: 'Net income', unit: 'millions' },
  { key: 'incomeFromContinuingOperations', label: 'Income, continuing ops', unit: 'millions' },
  { key: 'dilutedEps', label: 'Diluted EPS', unit: 'perShare' },
  { key: 'dilutedShares', label: 'Diluted shares (M)', unit: 'sharesMillions' },
  { key: 'operatingCashFlow', label: 'Operating cash flow', unit: 'millions' },
  { key: 'capitalExpenditure', label: 'Capital expenditure', unit: 'millions' },
  { key: 'dividendsPaid', label: 'Dividends paid', unit: 'millions' },
  { key: 'shareRepurchases', label: 'Share repurchases', unit: 'millions' },
  { key: 'cash', label: 'Cash', unit: 'millions' },
  { key: 'shortTermDebt', label: 'Short-term debt', unit: 'millions' },
  { key: 'longTermDebt', label: 'Long-term debt', unit: 'millions' },
  { key: 'totalEquity', label: 'Total equity', unit: 'millions' },
  { key: 'retainedEarnings', label: 'Retained earnings', unit: 'millions' },
  { key: 'currentAssets', label: 'Current assets', unit: 'millions' },
  { key: 'currentLiabilities', label: 'Current liabilities', unit: 'millions' },
  { key: 'propertyPlantEquipmentNet', label: 'PP&E, net', unit: 'millions' },
  { key: 'goodwill', label: 'Goodwill', unit: 'millions' },
  { key: 'intangibleAssets', label: 'Intangible assets', unit: 'millions' },
  { key: 'sharesOutstanding', label: 'Shares outstanding (M)', unit: 'sharesMillions' },
];

/** One cell: the displayed number (scaled), or `null` for a missing value. */
export interface TableCell {
  readonly fiscalYear: number;
  /** Millions of currency units, currency per share (EPS), or millions of shares. */
  readonly value: number | null;
  readonly derived: boolean;
  /** Provenance tag (`us-gaap:Revenues`, `derived:revenue-costOfRevenue`). */
  readonly tag: string | null;
  /** `*` derived, `†` adjusted or of another scope/tag than the year before; `null` otherwise. */
  readonly mark: FigureMarkSymbol | null;
  /** Why the figure is marked (see `markOf`); `null` when it is not. */
  readonly reason: string | null;
}

/** The table model behind {@link formatFundamentalsTable}, for JSON output. */
export interface FundamentalsTable {
  readonly ticker: string;
  readonly name: string;
  readonly currency: string;
  readonly provider: string;
  readonly fiscalYears: readonly number[];
  readonly periodEnds: readonly string[];
  readonly rows: readonly {
    readonly metric: MetricKey;
    readonly label: string;
    readonly unit: RowUnit;
    readonly cells: readonly TableCell[];
  }[];
  readonly issues: Fundamentals['issues'];
  /** The marked figures grouped by metric, mark and reason (the table's footnotes). */
  readonly marks: readonly FigureMark[];
}

/** Options of the formatters. */
export interface FundamentalsTableOptions {
  /** Show only the latest N fiscal years. Default 10; `Infinity` for all. */
  readonly maxYears?: number;
}

function scale(figure: Figure | null | undefined, unit: RowUnit): number | null {
  if (!figure) return null;
  return unit === 'perShare' ? figure.value : figure.value / 1e6;
}

/**
 * Builds the table model: years as columns (oldest first), metrics as rows, money in millions
 * of the reporting currency, EPS in currency per share, share counts in millions.
 */
export function buildFundamentalsTable(
  f: Fundamentals,
  options: FundamentalsTableOptions = {},
): FundamentalsTable {
  const years = f.years.slice(-(options.maxYears ?? 10));
  return {
    ticker: f.company.ticker,
    name: f.company.name,
    currency: f.company.currency,
    provider: f.provider,
    fiscalYears: years.map((y) => y.fiscalYear),
    periodEnds: years.map((y) => y.periodEnd),
    rows: METRIC_ROWS.map((row) => ({
      metric: row.key,
      label: row.label,
      unit: row.unit,
      cells: years.map((y, i) => {
        const figure = y[row.key];
        const mark = markOf(figure, i > 0 ? years[i - 1]?.[row.key] : null);
        return {
          fiscalYear: y.fiscalYear,
          value: scale(figure, row.unit),
          derived: figure?.source.derived ?? false,
          tag: figure?.source.tag ?? null,
          mark: mark?.mark ?? null,
          reason: mark?.reason ?? null,
        };
      }),
    })),
    issues: f.issues,
    marks: figureMarks(
      { ...f, years },
      METRIC_ROWS.map((r) => r.key),
    ),
  };
}

/**
 * Footnote lines for marked figures: `  Gross profit *  FY2015–FY2024: derived: revenue-costOfRevenue`.
 */
export function formatFigureMarks(marks: readonly FigureMark[]): string[] {
  const labels = new Map(METRIC_ROWS.map((r) => [r.key, r.label] as const));
  return marks.map(
    (m) =>
      `  ${m.mark} ${labels.get(m.metric) ?? m.metric}, ${formatYearRanges(m.fiscalYears)}: ${m.reason}`,
  );
}

const MILLIONS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const SMALL_MILLIONS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const PER_SHARE = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

function formatCell(cell: TableCell, unit: RowUnit): string {
  if (cell.value === null) return '—';
  const n = cell.value;
  const text =
    unit === 'perShare'
      ? PER_SHARE.format(n)
      : Math.abs(n) < 100 && n !== 0
        ? SMALL_MILLIONS.format(n)
        : MILLIONS.format(n);
  return `${text}${cell.mark ?? ' '}`;
}

/**
 * Formats fundamentals as a plain-text table for terminals: a header with the company, then years
 * as columns and metrics as rows. Money in millions of the reporting currency (whole millions,
 * one decimal below 100 M), EPS in currency per share with two decimals, share counts in
 * millions; `—` for a missing value; derived values marked `*`, reported values that were
 * adjusted or whose tag (scope) differs from the year before marked `†`, each with its reason in a
 * footnote. A footer counts the data issues by kind.
 *
 * @example
 * ```ts
 * console.log(formatFundamentalsTable(await provider.getFundamentals('AAPL'), { maxYears: 5 }));
 * ```
 */
export function formatFundamentalsTable(
  f: Fundamentals,
  options: FundamentalsTableOptions = {},
): string {
  const t = buildFundamentalsTable(f, options);
  const head = ['', ...t.fiscalYears.map((y) => `FY${y} `)];
  const ends = ['Period end', ...t.periodEnds.map((e) => `${e} `)];
  const body = t.rows.map((r) => [r.label, ...r.cells.map((c) => formatCell(c, r.unit))]);
  const rows = [head, ends, ...body];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  '),
  );
  const counts = new Map<string, number>();
  for (const issue of t.issues) counts.set(issue.kind, (counts.get(issue.kind) ?? 0) + 1);
  const issueText = [...counts].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  return [
    `${t.ticker} — ${t.name} (${t.provider}; ${t.currency} millions, EPS in ${t.currency} per share, shares in millions)`,
    ...lines,
    `* derived from other figures; † adjusted, or another tag (scope) than the year before. Data issues: ${issueText}.`,
    ...formatFigureMarks(t.marks),
  ].join('\n');
}

/**
 * The JSON form of {@link formatFundamentalsTable}: the {@link FundamentalsTable} model,
 * pretty-printed, for `--json` output of the CLI.
 */
export function formatFundamentalsJson(
  f: Fundamentals,
  options: FundamentalsTableOptions = {},
): string {
  return JSON.stringify(buildFundamentalsTable(f, options), null, 2);
}
