import type { Figure, Fundamentals, MetricKey } from '@svc/schemas';

/** `*` derived from other figures; `†` reported, but adjusted or of another scope/tag than its neighbours. */
export type FigureMarkSymbol = '*' | '†';

/** The mark of one figure and why, or `null` for a plain reported figure. */
export interface CellMark {
  readonly mark: FigureMarkSymbol;
  readonly reason: string;
}

/** Marked figures of one metric that share a mark and a reason. */
export interface FigureMark {
  readonly metric: MetricKey;
  readonly mark: FigureMarkSymbol;
  readonly fiscalYears: readonly number[];
  readonly reason: string;
}

/** A clause of a derived value's note that only lists an input (`revenue = 123 (us-gaap:…)`). */
const INPUT_LISTING = /^[a-zA-Z]+ = -?[\d.e+]+ \(/;
/** Clauses longer than this are cut at their first `: ` (the reason comes before the detail). */
const MAX_CLAUSE = 100;

function clauses(note: string | undefined): string[] {
  if (!note) return [];
  return note
    .split('; ')
    .filter((c) => !INPUT_LISTING.test(c))
    .map((c) => (c.length > MAX_CLAUSE && c.includes(': ') ? (c.split(': ')[0] as string) : c));
}

/**
 * The mark of one figure given the figure before it in the same row (the previous fiscal year
 * shown): `*` when derived (reason: the formula and any scope note); `†` when it carries a note
 * (split-adjusted, sign normalised, a cost line excluding D&A, a component standing in for a
 * total…) or its tag differs from the previous year's reported tag (a tag switch, which may be a
 * change of scope). `null` for a plain reported figure.
 */
export function markOf(
  figure: Figure | null | undefined,
  previous: Figure | null | undefined,
): CellMark | null {
  if (!figure) return null;
  const { source } = figure;
  const notes = clauses(source.note);
  if (source.derived) {
    const formula = source.tag.replace(/^derived:/, '');
    return { mark: '*', reason: [`derived: ${formula}`, ...notes].join('; ') };
  }
  const reasons = [...notes];
  if (previous && !previous.source.derived && previous.source.tag !== source.tag) {
    reasons.push(`tag ${previous.source.tag} → ${source.tag}`);
  }
  return reasons.length === 0 ? null : { mark: '†', reason: reasons.join('; ') };
}

/**
 * Every marked figure of `metrics` over the given fiscal years (default: all years), grouped by
 * metric, mark and reason, in row order then year order. For the CLI tables: one line per group
 * says which figures were derived or differ in scope from their neighbours, and why.
 */
export function figureMarks(
  f: Fundamentals,
  metrics: readonly MetricKey[],
  fiscalYears?: readonly number[],
): FigureMark[] {
  const wanted = fiscalYears ? new Set(fiscalYears) : null;
  const years = f.years.filter((y) => wanted === null || wanted.has(y.fiscalYear));
  const out: FigureMark[] = [];
  for (const metric of metrics) {
    const groups = new Map<string, { mark: FigureMarkSymbol; reason: string; years: number[] }>();
    years.forEach((year, i) => {
      const mark = markOf(year[metric], i > 0 ? years[i - 1]?.[metric] : null);
      if (!mark) return;
      const key = `${mark.mark}|${mark.reason}`;
      const group = groups.get(key) ?? { ...mark, years: [] };
      group.years.push(year.fiscalYear);
      groups.set(key, group);
    });
    for (const g of groups.values()) {
      out.push({ metric, mark: g.mark, fiscalYears: g.years, reason: g.reason });
    }
  }
  return out;
}

/** `FY2015–FY2018, FY2021` from a sorted list of fiscal years. */
export function formatYearRanges(years: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  let end: number | undefined;
  const flush = () => {
    if (start === undefined || end === undefined) return;
    parts.push(start === end ? `FY${start}` : `FY${start}–FY${end}`);
  };
  for (const y of years) {
    if (end !== undefined && y === end + 1) {
      end = y;
      continue;
    }
    flush();
    start = y;
    end = y;
  }
  flush();
  return parts.join(', ');
}
