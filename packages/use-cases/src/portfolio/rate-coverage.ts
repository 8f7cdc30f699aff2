import { type FxCoverage, type FxProvider, MarketDataError } from '@svc/market-data';
import type { PeriodPerformance, ReturnFigure } from '@svc/portfolio';

/** "ECB file eurofxref-hist.csv" for `ecb:eurofxref-hist.csv`, else "rate source X". */
export function rateSourceName(source: string): string {
  const ecb = /^ecb:(.+)$/.exec(source);
  return ecb ? `ECB file ${ecb[1]}` : `rate source ${source}`;
}

/**
 * Where the EUR rates of `currency` end, for a message about a missing rate on `day`
 * (`YYYY-MM-DD`): "the USD rates of the ECB file eurofxref-hist.csv end on 2026-04-13" when the
 * day is after the last rate, "… run from 1999-01-04 to 2026-04-13" when it is before the first
 * or inside the span (a gap), "… has no rate of XYZ" when it holds none of that currency, "no FX provider is
 * configured" without one. From `FxProvider.coverage`, which never fetches.
 */
export function rateDataNote(
  fx: FxProvider | null,
  coverage: FxCoverage | null,
  currency: string,
  day: string,
): string {
  if (fx === null) return 'no FX provider is configured (FX_PROVIDER=none)';
  if (coverage === null) return `the rate source has no rate of ${currency} loaded`;
  const where = rateSourceName(coverage.source);
  if (coverage.first === null || coverage.last === null)
    return `the ${where} has no rate of ${currency}`;
  if (day > coverage.last) return `the ${currency} rates of the ${where} end on ${coverage.last}`;
  return `the ${currency} rates of the ${where} run from ${coverage.first} to ${coverage.last}`;
}

/** The provider's coverage of `currency`, `null` when it has none or cannot tell (no throw). */
export async function coverageOf(
  fx: FxProvider | null,
  currency: string,
): Promise<FxCoverage | null> {
  if (fx === null || fx.coverage === undefined) return null;
  try {
    return await fx.coverage(currency);
  } catch (error) {
    if (error instanceof MarketDataError) return null;
    throw error;
  }
}

/**
 * The figures with every `missing_fx_rate` reason completed by where the rate data ends
 * ({@link rateDataNote}): "no EUR rate of USD within the tolerance on 2026-04-20; the USD rates
 * of the ECB file eurofxref-hist.csv end on 2026-04-13". Asks the provider once per currency, from memory.
 */
export async function explainMissingRates(
  fx: FxProvider | null,
  all: readonly PeriodPerformance[],
): Promise<PeriodPerformance[]> {
  const figures = (p: PeriodPerformance) =>
    [p.twr, p.twrAnnualised, p.twrLocal, p.currencyEffect, p.mwr].filter(
      (f): f is ReturnFigure => f !== null,
    );
  const currencies = new Set<string>();
  for (const p of all) {
    for (const f of figures(p)) {
      if (f.status === 'unavailable' && f.code === 'missing_fx_rate' && f.currency) {
        currencies.add(f.currency);
      }
    }
  }
  if (currencies.size === 0) return [...all];
  const coverage = new Map<string, FxCoverage | null>();
  for (const currency of currencies) coverage.set(currency, await coverageOf(fx, currency));
  const explain = (f: ReturnFigure): ReturnFigure => {
    if (f.status !== 'unavailable' || f.code !== 'missing_fx_rate' || !f.currency) return f;
    const day = f.firstMissingDate ?? '';
    const note = rateDataNote(fx, coverage.get(f.currency) ?? null, f.currency, day);
    return { ...f, reason: `${f.reason}; ${note}` };
  };
  return all.map((p) => ({
    ...p,
    twr: explain(p.twr),
    twrAnnualised: p.twrAnnualised === null ? null : explain(p.twrAnnualised),
    twrLocal: explain(p.twrLocal),
    currencyEffect: explain(p.currencyEffect),
    mwr: explain(p.mwr),
  }));
}
