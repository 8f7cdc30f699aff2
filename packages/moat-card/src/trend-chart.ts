import { escapeMarkup } from './escape.js';
import {
  formatThreshold,
  formatTrendValue,
  type TrendThreshold,
  type TrendUnit,
} from './trend-scales.js';

/** What {@link trendChartSvg} draws. */
export interface TrendChartInput {
  /** Prefix of the ids of the chart's `<title>` and `<desc>` (unique within the document). */
  readonly id: string;
  /** The chart's accessible name, e.g. "Gross Margin: gross margin (% of revenue)". */
  readonly title: string;
  /** The yearly values, oldest first. */
  readonly values: readonly number[];
  /** The fiscal year of each value (same length); without them the points are numbered. */
  readonly years?: readonly number[] | undefined;
  readonly unit: TrendUnit;
  /** ISO 4217 code shown after money values. */
  readonly currency?: string | undefined;
  /** The benchmark line, drawn dashed, and which side of it passes. */
  readonly threshold?: TrendThreshold | undefined;
  /**
   * The fiscal years the evaluation covers (its first and last). With `years`, the axis runs over
   * all of them, so a year without a value before the first point or after the last one is a
   * missing year too (Carnival's payoff years after FY2019, when earnings could not repay debt).
   */
  readonly span?: { readonly first: number; readonly last: number } | undefined;
}

/** The drawing area, in SVG user units (the chart scales to its container's width). */
const WIDTH = 320;
const HEIGHT = 132;
const PAD = { left: 56, right: 10, top: 10, bottom: 22 } as const;
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

const round = (n: number) => Math.round(n * 10) / 10;

/** The value range drawn: the values and the threshold, widened a little; never empty. */
function domain(values: readonly number[], threshold: number | undefined): [number, number] {
  const all = threshold === undefined ? [...values] : [...values, threshold];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (lo === hi) {
    const half = Math.abs(lo) * 0.1 || 1;
    lo -= half;
    hi += half;
  }
  const pad = (hi - lo) * 0.08;
  return [lo - pad, hi + pad];
}

/** At most one point is clipped ("one outlier"); more far-off points are the series' real shape. */
const MAX_CLIPPED = 1;
/** Clip only when the other points would fill less than this share of the unclipped range. */
const FLATTENED_SHARE = 0.5;

/**
 * Which points a scale must clip so that the others stay readable: those outside Tukey's far
 * fences (Q1 − 3·IQR, Q3 + 3·IQR; Tukey 1977, "Exploratory Data Analysis"), at most
 * {@link MAX_CLIPPED} of them, and only when drawing them would squeeze the rest (and the
 * threshold) into less than {@link FLATTENED_SHARE} of the height and the point lies further
 * from the others (and the threshold) than the largest of them is from zero, so that a point of
 * the same order as the rest is drawn, however far it sits. Needs at least 5 values.
 * Returns the indexes of the clipped points (empty: nothing is clipped).
 */
function outlierIndexes(values: readonly number[], threshold?: number): number[] {
  if (values.length < 5) return [];
  const sorted = [...values].sort((a, b) => a - b);
  const quantile = (q: number) => {
    const at = (sorted.length - 1) * q;
    const below = sorted[Math.floor(at)] as number;
    const above = sorted[Math.ceil(at)] as number;
    return below + (above - below) * (at - Math.floor(at));
  };
  const q1 = quantile(0.25);
  const q3 = quantile(0.75);
  const iqr = q3 - q1;
  const out = values.flatMap((v, i) => (v < q1 - 3 * iqr || v > q3 + 3 * iqr ? [i] : []));
  if (out.length === 0 || out.length > MAX_CLIPPED) return [];
  const kept = values.filter((_, i) => !out.includes(i));
  const withLine = threshold === undefined ? kept : [...kept, threshold];
  const all = threshold === undefined ? values : [...values, threshold];
  const span = (xs: readonly number[]) => Math.max(...xs) - Math.min(...xs);
  if (span(withLine) >= FLATTENED_SHARE * span(all)) return [];
  // Of another order than the rest: the outlier lies further from the others' range than the
  // largest of them is from zero (CCL's 5.0 payoff years beside 3.6–4.1 is the series' shape,
  // a −498 % margin beside 20 % is not).
  const v = values[out[0] as number] as number;
  const gap = Math.max(Math.min(...withLine) - v, v - Math.max(...withLine));
  return gap > Math.max(...kept.map(Math.abs)) ? out : [];
}

/** The label of point `i`: its fiscal year (`FY2019`) or its position (`#3`). */
function pointLabel(years: readonly number[] | undefined, i: number): string {
  const year = years?.[i];
  return year === undefined ? `#${i + 1}` : `FY${year}`;
}

/**
 * A small line chart of a yearly series as a self-contained SVG string (no script, no external
 * style: colours come from `currentColor` and the CSS classes `line`, `point`, `threshold`,
 * `zero`, `axis`, `missing`, `clip-arrow`, `clip-label`, which the card's style sets for light
 * and dark). Points are evenly spaced by fiscal year; a missing year leaves a gap of its width
 * that the line does not cross (it is drawn in runs of consecutive years) and a `×` mark on the
 * axis (`<g class="missing" data-year>`, titled "FYyyyy: no data"). When one outlier
 * would flatten the rest ({@link outlierIndexes}), the scale is clipped: such a point sits on the
 * edge with `data-clipped="above" | "below"`, an arrow and its value as a label. The series'
 * highest and lowest drawn values are labelled at their height, each point a `<circle class="point">` with
 * `data-year`, `data-value` and a `<title>`; the threshold, when given, is a dashed line with its
 * rule as a label, and each point says on which side of it it lies (`data-side="pass" | "fail"`).
 * The text alternative: `role="img"`, a `<title>` (the name) and a `<desc>` listing every point
 * in order (a missing year as "no data", a clipped point as "off the scale") and the benchmark, referenced by `aria-labelledby`. An empty series draws nothing
 * (empty string).
 *
 * @example
 * trendChartSvg({ id: 'gm', title: 'Gross margin', values: [38.2, 41.0], years: [2023, 2024],
 *   unit: 'percent', threshold: { value: 40, side: 'atLeast' } });
 */
export function trendChartSvg(input: TrendChartInput): string {
  const { values, unit, threshold, currency } = input;
  if (values.length === 0) return '';
  const years = input.years?.length === values.length ? input.years : undefined;
  const clipped = new Set(outlierIndexes(values, threshold?.value));
  const kept = values.filter((_, i) => !clipped.has(i));
  const [lo, hi] = domain(kept, threshold?.value);
  const y = (v: number) =>
    round(PAD.top + ((hi - Math.min(hi, Math.max(lo, v))) / (hi - lo)) * PLOT_H);
  const axis = years ? axisOf(years, input.span) : undefined;
  const points = placed(values, years, axis, y, clipped, hi);
  const fmt = (v: number) => formatTrendValue(v, unit, currency);
  const rule = threshold ? formatThreshold(threshold, unit) : undefined;
  const missing = missingYears(years, axis);
  const titleId = `${input.id}-title`;
  const descId = `${input.id}-desc`;
  const told = [
    ...points.map((p) => ({
      year: p.year,
      text: `${p.label} ${fmt(p.v)}${p.clip ? ' (off the scale)' : ''}`,
    })),
    ...missing.map((year) => ({ year, text: `FY${year} no data` })),
  ].sort((a, b) => (a.year ?? 0) - (b.year ?? 0));
  const desc = `${told.map((t) => t.text).join(', ')}.${rule ? ` Benchmark ${rule}.` : ''}`;
  return [
    `<svg class="trend-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${titleId}">${escapeMarkup(input.title)}</title>`,
    `<desc id="${descId}">${escapeMarkup(desc)}</desc>`,
    `<line class="frame" x1="${PAD.left}" y1="${PAD.top + PLOT_H}" x2="${PAD.left + PLOT_W}" y2="${PAD.top + PLOT_H}"/>`,
    // Axis labels leave the currency out (the caption names it): they must fit the margin.
    ...valueLabels(kept, y, (v) => formatTrendValue(v, unit)),
    ...guideLines(lo, hi, y, threshold, rule),
    ...pointMarks(points, threshold, years !== undefined, fmt),
    ...missingMarks(missing, axis),
    ...yearLabels(points, axis),
    '</svg>',
  ].join('');
}

/** The first and last fiscal year of the axis: the points' years widened to the evaluation's span. */
interface Axis {
  readonly first: number;
  readonly last: number;
}

function axisOf(years: readonly number[], span: TrendChartInput['span']): Axis {
  const first = years[0] as number;
  const last = years.at(-1) as number;
  if (!span || span.first > span.last) return { first, last };
  return { first: Math.min(first, span.first), last: Math.max(last, span.last) };
}

/** The fiscal years of the axis that have no value (none without years). */
function missingYears(years: readonly number[] | undefined, axis: Axis | undefined): number[] {
  if (!years || !axis || axis.last === axis.first) return [];
  const have = new Set(years);
  const out: number[] = [];
  for (let year = axis.first; year <= axis.last; year += 1) {
    if (!have.has(year)) out.push(year);
  }
  return out;
}

/** x of a fiscal year on the axis (the points are spaced by year). */
function yearX(axis: Axis, year: number): number {
  const span = axis.last - axis.first;
  return round(PAD.left + (span === 0 ? PLOT_W / 2 : ((year - axis.first) / span) * PLOT_W));
}

/** A mark on the axis for each missing fiscal year: a `×` with "FYyyyy: no data" as its title. */
function missingMarks(missing: readonly number[], axis: Axis | undefined): string[] {
  if (!axis) return [];
  const base = PAD.top + PLOT_H;
  return missing.map((year) => {
    const x = yearX(axis, year);
    return `<g class="missing" data-year="${year}"><title>FY${year}: no data</title><line class="missing-tick" x1="${x}" y1="${PAD.top}" x2="${x}" y2="${base}"/><text class="missing-mark" x="${x}" y="${base + 4}" text-anchor="middle">×</text></g>`;
  });
}

/** A point as drawn: its value, position and label (`FY2019` or `#3`). */
interface Placed {
  readonly v: number;
  readonly x: number;
  readonly y: number;
  readonly label: string;
  /** The fiscal year (undefined without years). */
  readonly year: number | undefined;
  /** Off the scale: `above` or `below` the drawn range (see {@link outlierIndexes}). */
  readonly clip: 'above' | 'below' | undefined;
}

/** The points, spaced by fiscal year (or evenly by position without years). */
function placed(
  values: readonly number[],
  years: readonly number[] | undefined,
  axis: Axis | undefined,
  y: (v: number) => number,
  clipped: ReadonlySet<number>,
  hi: number,
): Placed[] {
  const span = values.length - 1;
  return values.map((v, i) => {
    const x =
      years && axis
        ? yearX(axis, years[i] as number)
        : round(PAD.left + (span === 0 ? PLOT_W / 2 : (i / span) * PLOT_W));
    const clip = clipped.has(i) ? (v > hi ? 'above' : 'below') : undefined;
    return { v, x, y: y(v), label: pointLabel(years, i), year: years?.[i], clip };
  });
}

/** The series' own highest and lowest values, labelled at their height in the left margin. */
function valueLabels(
  values: readonly number[],
  y: (v: number) => number,
  text: (v: number) => string,
): string[] {
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  const label = (v: number) =>
    `<text class="axis" x="${PAD.left - 4}" y="${round(y(v) + 4)}" text-anchor="end">${escapeMarkup(text(v))}</text>`;
  return bottom === top ? [label(top)] : [label(top), label(bottom)];
}

/** The zero line when the range crosses zero, and the dashed threshold with its rule. */
function guideLines(
  lo: number,
  hi: number,
  y: (v: number) => number,
  threshold: TrendThreshold | undefined,
  rule: string | undefined,
): string[] {
  const lines: string[] = [];
  const across = (cls: string, at: number, extra = '') =>
    `<line class="${cls}"${extra} x1="${PAD.left}" y1="${at}" x2="${PAD.left + PLOT_W}" y2="${at}"/>`;
  if (lo < 0 && hi > 0) lines.push(across('zero', y(0)));
  if (threshold && rule) {
    const ty = y(threshold.value);
    lines.push(
      across('threshold', ty, ` data-value="${threshold.value}"`),
      `<text class="threshold-label" x="${PAD.left + PLOT_W}" y="${round(ty - 3)}" text-anchor="end">${escapeMarkup(rule)}</text>`,
    );
  }
  return lines;
}

/** The line through the points and a circle per point, with its year, value, side and title. */
function pointMarks(
  points: readonly Placed[],
  threshold: TrendThreshold | undefined,
  hasYears: boolean,
  fmt: (v: number) => string,
): string[] {
  const marks: string[] = [];
  for (const run of runs(points)) {
    if (run.length > 1) {
      marks.push(`<polyline class="line" points="${run.map((p) => `${p.x},${p.y}`).join(' ')}"/>`);
    }
  }
  for (const p of points) {
    const side = threshold ? ` data-side="${passes(p.v, threshold) ? 'pass' : 'fail'}"` : '';
    const year = hasYears ? ` data-year="${p.label.slice(2)}"` : '';
    const clip = p.clip ? ` data-clipped="${p.clip}"` : '';
    const off = p.clip ? ' (off the scale)' : '';
    marks.push(
      `<circle class="point" cx="${p.x}" cy="${p.y}" r="3"${clip}${year} data-value="${p.v}"${side}><title>${escapeMarkup(`${p.label}: ${fmt(p.v)}${off}`)}</title></circle>`,
    );
    if (p.clip) marks.push(clipMark(p, fmt));
  }
  return marks;
}

/** Runs of points in consecutive fiscal years (one run without years): a line never crosses a gap. */
function runs(points: readonly Placed[]): Placed[][] {
  const out: Placed[][] = [];
  let run: Placed[] = [];
  for (const p of points) {
    const prev = run.at(-1);
    if (prev && (p.year === undefined || prev.year === undefined || p.year === prev.year + 1)) {
      run.push(p);
    } else {
      if (run.length > 0) out.push(run);
      run = [p];
    }
  }
  if (run.length > 0) out.push(run);
  return out;
}

/** A clipped point: an arrow toward where it lies and its value as a label. */
function clipMark(p: Placed, fmt: (v: number) => string): string {
  const up = p.clip === 'above';
  const tip = up ? p.y - 9 : p.y + 9;
  const arrow = `M${p.x - 4} ${up ? p.y - 4 : p.y + 4} L${p.x} ${tip} L${p.x + 4} ${up ? p.y - 4 : p.y + 4} Z`;
  const anchor = p.x > PAD.left + PLOT_W / 2 ? 'end' : 'start';
  const dx = anchor === 'end' ? -7 : 7;
  return `<path class="clip-arrow" d="${arrow}"/><text class="clip-label" x="${round(p.x + dx)}" y="${round(up ? p.y + 10 : p.y - 4)}" text-anchor="${anchor}">${escapeMarkup(`${p.label} ${fmt(p.v)}`)}</text>`;
}

/** The first and last point's labels under the plot (one, centred, for a single point). */
function yearLabels(points: readonly Placed[], axis: Axis | undefined): string[] {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return [];
  const text = (x: number, label: string, anchor: string) =>
    `<text class="axis" x="${x}" y="${HEIGHT - 6}" text-anchor="${anchor}">${escapeMarkup(label)}</text>`;
  // With years the axis ends are labelled, a missing first or last year included.
  if (axis && axis.last > axis.first) {
    return [
      text(yearX(axis, axis.first), `FY${axis.first}`, 'start'),
      text(yearX(axis, axis.last), `FY${axis.last}`, 'end'),
    ];
  }
  const label = (p: Placed, anchor: string) => text(p.x, p.label, anchor);
  return points.length > 1 ? [label(first, 'start'), label(last, 'end')] : [label(first, 'middle')];
}

/** Whether `value` lies on the passing side of `threshold` (the line itself passes). */
function passes(value: number, threshold: TrendThreshold): boolean {
  return threshold.side === 'atLeast' ? value >= threshold.value : value <= threshold.value;
}
