import type { FiscalYearFigures, Fundamentals } from '@svc/schemas';
import type { DataQualityFlag } from './data-quality.js';
import { amount } from './format.js';

/**
 * Default tolerance of {@link reconcileProviders}: two providers' figures for one year disagree
 * when they differ by more than 15% of the larger one (judgement: SimFin's capex is net of
 * disposals, which alone moves it 5–10% for most filers; DAL FY2019 differs by 68%) and by more
 * than 1% of the year's revenue (so that rounding of small lines is no dispute).
 */
export const RECONCILE_TOLERANCE = 0.15;
/** Share of revenue below which a difference is never a dispute (see {@link RECONCILE_TOLERANCE}). */
export const RECONCILE_MIN_SHARE_OF_REVENUE = 0.01;

/** The series a criterion rests on that are compared, each with the metric key its flag names. */
export const RECONCILED_SERIES = [
  { series: 'capitalExpenditure', label: 'capex' },
  { series: 'longTermDebt', label: 'total debt' },
  { series: 'netIncome', label: 'net income' },
  { series: 'totalEquity', label: 'equity' },
] as const;

/** One fiscal year where two providers disagree on a series beyond the tolerance. */
export interface ProviderDisagreement {
  readonly series: (typeof RECONCILED_SERIES)[number]['series'];
  readonly fiscalYear: number;
  readonly primary: number;
  readonly secondary: number;
}

/** Options of {@link reconcileProviders}. */
export interface ReconcileOptions {
  /** Relative difference beyond which two figures disagree; default {@link RECONCILE_TOLERANCE}. */
  readonly tolerance?: number;
  /** Compare only these fiscal years (the evaluation window); default every common year. */
  readonly fiscalYears?: readonly number[];
}

function value(year: FiscalYearFigures, series: ProviderDisagreement['series']): number | null {
  if (series === 'longTermDebt') {
    // Total debt: the lines' scopes differ between providers (current portion inside long-term
    // debt or not), so the sum is compared.
    const short = year.shortTermDebt?.value ?? null;
    const long = year.longTermDebt?.value ?? null;
    return short === null && long === null ? null : (short ?? 0) + (long ?? 0);
  }
  const v = year[series]?.value ?? null;
  if (v === null || !Number.isFinite(v)) return null;
  return series === 'capitalExpenditure' ? Math.abs(v) : v;
}

/**
 * Compares two providers' fundamentals of one company (the SEC filings and SimFin's bulk data),
 * year by year on the series the criteria rest on (capex, total debt, net income, equity), and
 * lists the fiscal years where they disagree: |a − b| > tolerance × max(|a|, |b|) and > 1% of the
 * year's revenue. Years are matched by fiscal-year label; a year or figure that only one provider
 * has is no disagreement (nothing to compare). Pure.
 *
 * @returns the disagreements, by series then fiscal year.
 */
export function reconcileProviders(
  primary: Fundamentals,
  secondary: Fundamentals,
  options: ReconcileOptions = {},
): ProviderDisagreement[] {
  const tolerance = options.tolerance ?? RECONCILE_TOLERANCE;
  const wanted = options.fiscalYears ? new Set(options.fiscalYears) : null;
  const other = new Map(secondary.years.map((y) => [y.fiscalYear, y]));
  const out: ProviderDisagreement[] = [];
  for (const { series } of RECONCILED_SERIES) {
    for (const year of [...primary.years].sort((a, b) => a.fiscalYear - b.fiscalYear)) {
      if (wanted !== null && !wanted.has(year.fiscalYear)) continue;
      const match = other.get(year.fiscalYear);
      if (match === undefined) continue;
      const a = value(year, series);
      const b = value(match, series);
      if (a === null || b === null) continue;
      const gap = Math.abs(a - b);
      const revenue = Math.abs(year.revenue?.value ?? match.revenue?.value ?? 0);
      if (
        gap > tolerance * Math.max(Math.abs(a), Math.abs(b)) &&
        gap > RECONCILE_MIN_SHARE_OF_REVENUE * revenue
      ) {
        out.push({ series, fiscalYear: year.fiscalYear, primary: a, secondary: b });
      }
    }
  }
  return out;
}

/**
 * One `provider_mismatch` flag per disputed series, naming both providers' figures of the most
 * recent disputed year and every disputed year, e.g. "capex: snapshot $4.9B vs simfin $1.6B in
 * FY2019 (68% apart); also FY2017, FY2018".
 */
export function mismatchFlags(
  disagreements: readonly ProviderDisagreement[],
  primary: Fundamentals,
  secondary: Fundamentals,
): DataQualityFlag[] {
  const flags: DataQualityFlag[] = [];
  const currency = primary.company.currency;
  for (const { series, label } of RECONCILED_SERIES) {
    const years = disagreements.filter((d) => d.series === series);
    const last = years.at(-1);
    if (last === undefined) continue;
    const apart =
      Math.abs(last.primary - last.secondary) /
      Math.max(Math.abs(last.primary), Math.abs(last.secondary));
    const others = years.slice(0, -1).map((d) => `FY${d.fiscalYear}`);
    flags.push({
      code: 'provider_mismatch',
      series,
      message: `${label}: ${primary.provider} ${amount(last.primary, currency)} vs ${secondary.provider} ${amount(last.secondary, currency)} in FY${last.fiscalYear} (${Math.round(100 * apart)}% apart)${others.length > 0 ? `; also ${others.join(', ')}` : ''}; the criteria resting on it are scored on the lower of the two providers`,
    });
  }
  return flags;
}

/**
 * `primary` with the second provider's figures put in for every disputed year and series (total
 * debt: both debt lines), so that a criterion can be scored on the other side of the gap and on
 * nothing else: the rest of the figures, the window and its history stay the primary's.
 */
export function withSecondaryFigures(
  primary: Fundamentals,
  secondary: Fundamentals,
  disagreements: readonly ProviderDisagreement[],
): Fundamentals {
  const other = new Map(secondary.years.map((y) => [y.fiscalYear, y]));
  const disputed = new Map<number, Set<ProviderDisagreement['series']>>();
  for (const d of disagreements) {
    const set = disputed.get(d.fiscalYear) ?? new Set();
    set.add(d.series);
    disputed.set(d.fiscalYear, set);
  }
  return {
    ...primary,
    years: primary.years.map((year) => {
      const series = disputed.get(year.fiscalYear);
      const match = other.get(year.fiscalYear);
      if (series === undefined || match === undefined) return year;
      const swapped: FiscalYearFigures = { ...year };
      for (const s of series) {
        if (s === 'longTermDebt') {
          swapped.longTermDebt = match.longTermDebt;
          swapped.shortTermDebt = match.shortTermDebt;
        } else {
          swapped[s] = match[s];
        }
      }
      return swapped;
    }),
  };
}
