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
 * fiscal year (a missing year leaves a gap of its width), each a `<circle class="point">` with
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
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const first = years?.[0] ?? 0;
  const span = years ? (years.at(-1) as number) - first : values.length - 1;
  const x = (i: number) => {
    const at = years ? (years[i] as number) - first : i;
    return round(PAD.left + (span === 0 ? plotW / 2 : (at / span) * plotW));
  };
  const y = (v: number) => round(PAD.top + ((hi - v) / (hi - lo)) * plotH);
  const fmt = (v: number) => formatTrendValue(v, unit, currency);
  /** Axis labels leave the currency out (the caption names it): they must fit the margin. */
  const axis = (v: number) => formatTrendValue(v, unit);
  const titleId = `${input.id}-title`;
  const descId = `${input.id}-desc`;
  const rule = threshold ? formatThreshold(threshold, unit) : undefined;

  const points = values.map((v, i) => ({ v, x: x(i), y: y(v), label: pointLabel(years, i) }));
  const desc = `${points.map((p) => `${p.label} ${fmt(p.v)}`).join(', ')}.${rule ? ` Benchmark ${rule}.` : ''}`;
  const parts: string[] = [
    `<svg class="trend-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${titleId} ${descId}" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="${titleId}">${escapeMarkup(input.title)}</title>`,
    `<desc id="${descId}">${escapeMarkup(desc)}</desc>`,
    `<text class="axis" x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${escapeMarkup(axis(hi))}</text>`,
    `<text class="axis" x="${PAD.left - 4}" y="${PAD.top + plotH}" text-anchor="end">${escapeMarkup(axis(lo))}</text>`,
    `<line class="frame" x1="${PAD.left}" y1="${PAD.top + plotH}" x2="${PAD.left + plotW}" y2="${PAD.top + plotH}"/>`,
  ];
  if (lo < 0 && hi > 0) {
    parts.push(
      `<line class="zero" x1="${PAD.left}" y1="${y(0)}" x2="${PAD.left + plotW}" y2="${y(0)}"/>`,
    );
  }
  if (threshold && rule) {
    const ty = y(threshold.value);
    parts.push(
      `<line class="threshold" data-value="${threshold.value}" x1="${PAD.left}" y1="${ty}" x2="${PAD.left + plotW}" y2="${ty}"/>`,
      `<text class="threshold-label" x="${PAD.left + plotW}" y="${round(ty - 3)}" text-anchor="end">${escapeMarkup(rule)}</text>`,
    );
  }
  if (points.length > 1) {
    parts.push(`<polyline class="line" points="${points.map((p) => `${p.x},${p.y}`).join(' ')}"/>`);
  }
  for (const p of points) {
    const side = threshold ? ` data-side="${passes(p.v, threshold) ? 'pass' : 'fail'}"` : '';
    const year = years ? ` data-year="${p.label.slice(2)}"` : '';
    parts.push(
      `<circle class="point" cx="${p.x}" cy="${p.y}" r="3"${year} data-value="${p.v}"${side}><title>${escapeMarkup(`${p.label}: ${fmt(p.v)}`)}</title></circle>`,
    );
  }
  const lastX = points.at(-1)?.x ?? 0;
  parts.push(
    `<text class="axis" x="${points[0]?.x}" y="${HEIGHT - 6}" text-anchor="${points.length > 1 ? 'start' : 'middle'}">${escapeMarkup(points[0]?.label ?? '')}</text>`,
  );
  if (points.length > 1) {
    parts.push(
      `<text class="axis" x="${lastX}" y="${HEIGHT - 6}" text-anchor="end">${escapeMarkup(points.at(-1)?.label ?? '')}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Whether `value` lies on the passing side of `threshold` (the line itself passes). */
function passes(value: number, threshold: TrendThreshold): boolean {
  return threshold.side === 'atLeast' ? value >= threshold.value : value <= threshold.value;
}
