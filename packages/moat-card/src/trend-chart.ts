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

/** The label of point `i`: its fiscal year (`FY2019`) or its position (`#3`). */
function pointLabel(years: readonly number[] | undefined, i: number): string {
  const year = years?.[i];
  return year === undefined ? `#${i + 1}` : `FY${year}`;
}

/**
 * A small line chart of a yearly series as a self-contained SVG string (no script, no external
 * style: colours come from `currentColor` and the CSS classes `line`, `point`, `threshold`,
 * `zero`, `axis`, which the card's style sets for light and dark). Points are evenly spaced by
 * fiscal year (a missing year leaves a gap of its width), the series' highest and lowest values
 * labelled at their height, each point a `<circle class="point">` with
 * `data-year`, `data-value` and a `<title>`; the threshold, when given, is a dashed line with its
 * rule as a label, and each point says on which side of it it lies (`data-side="pass" | "fail"`).
 * The text alternative: `role="img"`, a `<title>` (the name) and a `<desc>` listing every point
 * in order and the benchmark, referenced by `aria-labelledby`. An empty series draws nothing
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
  const [lo, hi] = domain(values, threshold?.value);
  const y = (v: number) => round(PAD.top + ((hi - v) / (hi - lo)) * PLOT_H);
  const points = placed(values, years, y);
  const fmt = (v: number) => formatTrendValue(v, unit, currency);
  const rule = threshold ? formatThreshold(threshold, unit) : undefined;
  const titleId = `${input.id}-title`;
  const descId = `${input.id}-desc`;
  const desc = `${points.map((p) => `${p.label} ${fmt(p.v)}`).join(', ')}.${rule ? ` Benchmark ${rule}.` : ''}`;
  return [
    `<svg class="trend-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${titleId}">${escapeMarkup(input.title)}</title>`,
    `<desc id="${descId}">${escapeMarkup(desc)}</desc>`,
    `<line class="frame" x1="${PAD.left}" y1="${PAD.top + PLOT_H}" x2="${PAD.left + PLOT_W}" y2="${PAD.top + PLOT_H}"/>`,
    // Axis labels leave the currency out (the caption names it): they must fit the margin.
    ...valueLabels(values, y, (v) => formatTrendValue(v, unit)),
    ...guideLines(lo, hi, y, threshold, rule),
    ...pointMarks(points, threshold, years !== undefined, fmt),
    ...yearLabels(points),
    '</svg>',
  ].join('');
}

/** A point as drawn: its value, position and label (`FY2019` or `#3`). */
interface Placed {
  readonly v: number;
  readonly x: number;
  readonly y: number;
  readonly label: string;
}

/** The points, spaced by fiscal year (or evenly by position without years). */
function placed(
  values: readonly number[],
  years: readonly number[] | undefined,
  y: (v: number) => number,
): Placed[] {
  const first = years?.[0] ?? 0;
  const span = years ? (years.at(-1) as number) - first : values.length - 1;
  return values.map((v, i) => {
    const at = years ? (years[i] as number) - first : i;
    const x = round(PAD.left + (span === 0 ? PLOT_W / 2 : (at / span) * PLOT_W));
    return { v, x, y: y(v), label: pointLabel(years, i) };
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
  if (points.length > 1) {
    marks.push(`<polyline class="line" points="${points.map((p) => `${p.x},${p.y}`).join(' ')}"/>`);
  }
  for (const p of points) {
    const side = threshold ? ` data-side="${passes(p.v, threshold) ? 'pass' : 'fail'}"` : '';
    const year = hasYears ? ` data-year="${p.label.slice(2)}"` : '';
    marks.push(
      `<circle class="point" cx="${p.x}" cy="${p.y}" r="3"${year} data-value="${p.v}"${side}><title>${escapeMarkup(`${p.label}: ${fmt(p.v)}`)}</title></circle>`,
    );
  }
  return marks;
}

/** The first and last point's labels under the plot (one, centred, for a single point). */
function yearLabels(points: readonly Placed[]): string[] {
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return [];
  const label = (p: Placed, anchor: string) =>
    `<text class="axis" x="${p.x}" y="${HEIGHT - 6}" text-anchor="${anchor}">${escapeMarkup(p.label)}</text>`;
  return points.length > 1 ? [label(first, 'start'), label(last, 'end')] : [label(first, 'middle')];
}

/** Whether `value` lies on the passing side of `threshold` (the line itself passes). */
function passes(value: number, threshold: TrendThreshold): boolean {
  return threshold.side === 'atLeast' ? value >= threshold.value : value <= threshold.value;
}
