import { Decimal } from 'decimal.js';
import type { FxCoverage, FxProvider, FxRate, FxRateOptions } from '../fx-rate.js';
import { lastIndexOnOrBefore } from '../quotes/price-files.js';
import { assertOptionalIsoDate, normaliseCurrency } from '../validation.js';

/** The ECB reference rates of one business day: units of each currency per 1 EUR. */
export interface EcbDay {
  readonly date: string;
  readonly rates: ReadonlyMap<string, number>;
}

/** Business days oldest first, plus where they came from (for `FxRate.source`). */
export interface RateTable {
  readonly days: readonly EcbDay[];
  readonly source: string;
}

/** Sorts days oldest first and drops duplicates (the later entry wins). */
export function buildRateTable(days: readonly EcbDay[], source: string): RateTable {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const sorted = [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
  return { days: sorted, source };
}

/**
 * The rate `from → to` of the last business day on or before `asOf` (default: the latest day).
 * Cross rates go through EUR: `rate = (to per EUR) / (from per EUR)`, computed in decimal and
 * kept to 10 significant digits. `null` when there is no day on or before `asOf`, or either
 * currency has no rate that day (e.g. RUB after 2022-03-01: never a years-old rate).
 */
export function lookupRate(
  table: RateTable,
  from: string,
  to: string,
  asOf?: string,
): FxRate | null {
  const day =
    table.days[asOf === undefined ? table.days.length - 1 : lastIndexOnOrBefore(table.days, asOf)];
  if (!day) return null;
  const perEur = (currency: string) => (currency === 'EUR' ? 1 : day.rates.get(currency));
  const fromRate = perEur(from);
  const toRate = perEur(to);
  if (fromRate === undefined || toRate === undefined) return null;
  const rate =
    from === 'EUR' ? toRate : new Decimal(toRate).div(fromRate).toSignificantDigits(10).toNumber();
  return { base: from, quote: to, rate, asOf: day.date, source: table.source };
}

/**
 * The first and last day of `tables` with a rate of `currency` against EUR (EUR itself: every
 * day), both `null` when none has one; `null` without any table. The source named is that of the
 * table holding the last day (without one: of the last table).
 */
export function coverageOf(tables: readonly RateTable[], currency: string): FxCoverage | null {
  const last = tables.at(-1);
  if (last === undefined) return null;
  let first: string | null = null;
  let end: { date: string; source: string } | null = null;
  for (const table of tables) {
    const has = (d: EcbDay) => currency === 'EUR' || d.rates.has(currency);
    const from = table.days.find(has);
    const to = table.days.findLast(has);
    if (from === undefined || to === undefined) continue;
    if (first === null || from.date < first) first = from.date;
    if (end === null || to.date > end.date) end = { date: to.date, source: table.source };
  }
  return { currency, first, last: end?.date ?? null, source: end?.source ?? last.source };
}

/**
 * An {@link FxProvider} over rate tables from `tables()` (a file read once, a cached download):
 * validates the currencies and date, then looks the rate up with {@link lookupRate}; `coverage`
 * reads the same table ({@link coverageOf}).
 *
 * @throws {MarketDataError} from `getRate`: `invalid_argument` (bad currency or date), and what
 *   `tables()` throws.
 */
export function rateTableProvider(tables: () => Promise<RateTable>): FxProvider {
  return {
    async getRate(from: string, to: string, options: FxRateOptions = {}): Promise<FxRate | null> {
      const base = normaliseCurrency(from);
      const quote = normaliseCurrency(to);
      assertOptionalIsoDate(options.asOf, 'asOf');
      return lookupRate(await tables(), base, quote, options.asOf);
    },
    async coverage(currency: string): Promise<FxCoverage | null> {
      return coverageOf([await tables()], normaliseCurrency(currency));
    },
  };
}
