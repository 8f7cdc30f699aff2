import { fromEpochDay } from './calendar.js';
import type { ResolvedPeriod } from './periods.js';
import { type StaleLog, type StaleSource, staleLogOf } from './stale-log.js';
import type { StaleUse, Timeline, Track, UnavailableCode } from './types.js';
import { type DatedFlow, xirr } from './xirr.js';

/** A return as a fraction (0.05 = 5 %), with its basis: over the period, or per year. */
export interface ReturnValue {
  readonly status: 'ok';
  readonly value: number;
  readonly basis: 'cumulative' | 'annualised';
}

/** Why a return is not given, and the first day concerned when a close or a rate was missing. */
export interface ReturnUnavailable {
  readonly status: 'unavailable';
  readonly code: UnavailableCode;
  readonly reason: string;
  readonly firstMissingDate: string | null;
  readonly symbol?: string;
  readonly currency?: string;
}

/** A return or why there is none: never 0 % for "unknown". */
export type ReturnFigure = ReturnValue | ReturnUnavailable;

/** Stale closes or rates used in a period, one entry per symbol (closes) or currency (rates). */
export interface StaleSummary {
  readonly kind: 'price' | 'fx_rate';
  readonly symbol?: string;
  readonly currency: string;
  /** Weekdays valued with an older value. */
  readonly days: number;
  readonly firstDate: string;
  readonly lastDate: string;
  readonly maxAgeDays: number;
}

/** Everything {@link measurePeriod} finds for one entity over one period. EUR amounts. */
export interface PeriodPerformance {
  readonly from: string;
  readonly to: string;
  /** Calendar days in the period. */
  readonly days: number;
  readonly clampedToInception: boolean;
  /** Value at the end of the day before `from` (EUR); null when it could not be valued. */
  readonly startValueEur: number | null;
  /** Value at the end of `to` (EUR); null when it could not be valued. */
  readonly endValueEur: number | null;
  /** External inflows − outflows in the period (EUR at each day's rate). */
  readonly netFlowsEur: number;
  /** Time-weighted return in EUR over the period, basis `cumulative`. */
  readonly twr: ReturnFigure;
  /** The same per year, `(1 + twr)^(365 / days) − 1`, only for periods over 365 days. */
  readonly twrAnnualised: ReturnFigure | null;
  /** Time-weighted return without the currency move (local currencies), `cumulative`. */
  readonly twrLocal: ReturnFigure;
  /** Currency effect `(1 + twr) / (1 + twrLocal) − 1`, `cumulative`. */
  readonly currencyEffect: ReturnFigure;
  /**
   * Money-weighted return (XIRR, actual/365) in EUR: `annualised` for periods over 365 days,
   * otherwise the rate over the period, `(1 + xirr)^(span / 365) − 1` (span: first flow to `to`).
   */
  readonly mwr: ReturnFigure;
  /** Dividends received in the period (EUR, net of withholding tax as recorded). */
  readonly dividendsEur: number;
  /** Fees paid in the period (EUR), withholding tax apart. */
  readonly feesEur: number;
  /** Tax withheld in the period (EUR): fee transactions noted `withholding tax`. */
  readonly withholdingTaxEur: number;
  readonly stale: StaleSummary[];
}

const EPSILON = 1e-9;

/**
 * Reads one period's figures for one track (the portfolio or a holding) off a timeline.
 *
 * - TWR: the product of the daily factors `(V_i + out_i) / (V_{i−1} + in_i)` over the period
 *   (GIPS / CFA Institute: sub-period returns between external flows, geometrically linked; daily
 *   valuation makes every day a sub-period, so every flow starts a new one). Days with nothing
 *   invested and no flow are skipped; a day whose base is ≤ 0 with value at stake is
 *   `no_capital`.
 * - Local TWR and currency effect as above with the local factors.
 * - MWR: XIRR of −V_start at the base day, −in/+out on each day, +V_end at `to`.
 * - A missing close or rate on any day from the base day to `to` makes every return
 *   `unavailable` with its first missing date; stale values used within the tolerance are
 *   summarised in `stale`.
 */
export function measurePeriod(
  timeline: Timeline,
  track: Track,
  period: ResolvedPeriod,
): PeriodPerformance {
  const s = period.startIndex;
  const e = period.endIndex;
  const days = Math.max(0, e - s);
  const inRange = e > s && s >= 0 && e < timeline.length;
  const missing = inRange ? track.missing.find((m) => m.index >= s && m.index <= e) : undefined;
  const gap: ReturnUnavailable | undefined = !inRange
    ? unavailable('no_history', 'the period ends before the first transaction', null)
    : missing
      ? {
          ...unavailable(
            missing.code,
            missing.code === 'missing_price'
              ? `no close of ${missing.symbol} within the tolerance on ${dateOf(timeline, missing.index)}`
              : `no EUR rate of ${missing.currency} within the tolerance on ${dateOf(timeline, missing.index)}`,
            dateOf(timeline, missing.index),
          ),
          ...(missing.symbol === undefined ? {} : { symbol: missing.symbol }),
          currency: missing.currency,
        }
      : undefined;
  const sums = inRange
    ? sumFlows(track, s, e)
    : { flows: 0, dividends: 0, fees: 0, withholdingTax: 0 };
  const twr = gap ?? chain(timeline, track, s, e, 'eur');
  const twrLocal = gap ?? chain(timeline, track, s, e, 'local');
  return {
    from: period.from,
    to: period.to,
    days,
    clampedToInception: period.clampedToInception,
    startValueEur: inRange && !gap ? (track.valueEur[s] as number) : null,
    endValueEur: inRange && !gap ? (track.valueEur[e] as number) : null,
    netFlowsEur: sums.flows,
    twr,
    twrAnnualised: days > 365 ? annualise(twr, days) : null,
    twrLocal,
    currencyEffect:
      twr.status === 'ok' && twrLocal.status === 'ok'
        ? { status: 'ok', value: (1 + twr.value) / (1 + twrLocal.value) - 1, basis: 'cumulative' }
        : twr.status === 'ok'
          ? twrLocal
          : twr,
    mwr: gap ?? moneyWeighted(timeline, track, s, e),
    dividendsEur: sums.dividends,
    feesEur: sums.fees,
    withholdingTaxEur: sums.withholdingTax,
    stale: inRange ? staleOf(timeline, track, s, e) : [],
  };
}

function chain(
  timeline: Timeline,
  track: Track,
  s: number,
  e: number,
  basis: 'eur' | 'local',
): ReturnFigure {
  // the day's factor num / den: EUR (V_i + out_i) / (V_{i−1} + in_i), or the local one; the
  // basis is chosen once, outside the loop over the days
  const eur = basis === 'eur';
  const value = track.valueEur;
  const numerators = eur ? track.outEur : track.numLocal;
  const denominators = eur ? track.inEur : track.denLocal;
  let growth = 1;
  let invested = false;
  for (let i = s + 1; i <= e; i++) {
    const num = eur ? (value[i] as number) + (numerators[i] as number) : (numerators[i] as number);
    const den = eur
      ? (value[i - 1] as number) + (denominators[i] as number)
      : (denominators[i] as number);
    if (Math.abs(den) <= EPSILON && Math.abs(num) <= EPSILON) continue;
    if (den <= EPSILON) {
      const date = dateOf(timeline, i);
      return unavailable('no_capital', `nothing positive invested at the start of ${date}`, date);
    }
    growth *= num / den;
    invested = true;
  }
  if (!invested) return unavailable('no_capital', 'nothing was invested in the period', null);
  return { status: 'ok', value: growth - 1, basis: 'cumulative' };
}

function annualise(figure: ReturnFigure, days: number): ReturnFigure {
  if (figure.status !== 'ok') return figure;
  return { status: 'ok', value: (1 + figure.value) ** (365 / days) - 1, basis: 'annualised' };
}

function moneyWeighted(timeline: Timeline, track: Track, s: number, e: number): ReturnFigure {
  const flows: DatedFlow[] = [
    { day: timeline.firstDay + s, amount: -(track.valueEur[s] as number) },
  ];
  for (let i = s + 1; i <= e; i++) {
    const net = (track.outEur[i] as number) - (track.inEur[i] as number);
    if (net !== 0) flows.push({ day: timeline.firstDay + i, amount: net });
  }
  flows.push({ day: timeline.firstDay + e, amount: track.valueEur[e] as number });
  const result = xirr(flows.filter((f) => Math.abs(f.amount) > EPSILON));
  if (!result.ok) {
    return unavailable(
      result.reason,
      result.reason === 'no_solution'
        ? 'the cash flows have no internal rate of return (all of one sign, or nothing invested)'
        : 'the cash flows change sign more than once and have several internal rates of return',
      null,
    );
  }
  const firstFlow = flows.find((f) => Math.abs(f.amount) > EPSILON)?.day ?? timeline.firstDay + s;
  const span = timeline.firstDay + e - firstFlow;
  return e - s > 365
    ? { status: 'ok', value: result.rate, basis: 'annualised' }
    : { status: 'ok', value: (1 + result.rate) ** (span / 365) - 1, basis: 'cumulative' };
}

function sumFlows(track: Track, s: number, e: number) {
  let flows = 0;
  let dividends = 0;
  let fees = 0;
  let withholdingTax = 0;
  for (let i = s + 1; i <= e; i++) {
    flows += (track.inEur[i] as number) - (track.outEur[i] as number);
    dividends += track.dividendsEur[i] as number;
    fees += track.feesEur[i] as number;
    withholdingTax += track.withholdingTaxEur[i] as number;
  }
  return { flows, dividends, fees, withholdingTax };
}

/**
 * The stale uses of `track` in the period's days `s+1 … e` ({@link summariseStale}), read off
 * the numbers the daily walk recorded when it made the track ({@link summariseStaleLog}).
 */
function staleOf(timeline: Timeline, track: Track, s: number, e: number): StaleSummary[] {
  const log = staleLogOf(track);
  return log === undefined
    ? summariseStale(timeline, track.stale, s, e)
    : summariseStaleLog(timeline, log, s, e);
}

/**
 * {@link summariseStale} of a {@link StaleLog}: the same summaries in the same order, a tally per
 * source number (one per kind, symbol and currency) instead of per key.
 */
function summariseStaleLog(
  timeline: Timeline,
  log: StaleLog,
  s: number,
  e: number,
): StaleSummary[] {
  const at = log.entries;
  // the first use after index s: a binary search over the uses (three numbers each)
  let lo = 0;
  let hi = log.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((at[3 * mid] as number) <= s) lo = mid + 1;
    else hi = mid;
  }
  const bySource: (number | undefined)[] = [];
  const first: number[] = [];
  const sources: number[] = [];
  const lastIndex: number[] = [];
  const days: number[] = [];
  const maxAge: number[] = [];
  for (let k = 3 * lo; k < log.length; k += 3) {
    const index = at[k] as number;
    if (index > e) break;
    const age = at[k + 1] as number;
    const source = at[k + 2] as number;
    let t = bySource[source];
    if (t === undefined) {
      t = first.length;
      bySource[source] = t;
      first.push(index);
      sources.push(source);
      lastIndex.push(index);
      days.push(0);
      maxAge.push(age);
    }
    days[t] = (days[t] as number) + 1;
    lastIndex[t] = index;
    if (age > (maxAge[t] as number)) maxAge[t] = age;
  }
  return first.map((index, t) => {
    const source = log.sources.list[sources[t] as number] as StaleSource;
    return {
      kind: source.kind,
      ...(source.symbol === undefined ? {} : { symbol: source.symbol }),
      currency: source.currency,
      days: days[t] as number,
      firstDate: dateOf(timeline, index),
      lastDate: dateOf(timeline, lastIndex[t] as number),
      maxAgeDays: maxAge[t] as number,
    };
  });
}

/**
 * The stale uses of `uses` (ascending by index) in the period's days `s+1 … e`, one summary per
 * kind, symbol and currency. Counted in place and dated once per summary: a holding valued at its
 * own trade prices is stale on every day after its last trade, so a period can hold thousands of
 * uses per holding.
 */
function summariseStale(
  timeline: Timeline,
  uses: readonly StaleUse[],
  s: number,
  e: number,
): StaleSummary[] {
  interface Tally {
    readonly first: StaleUse;
    lastIndex: number;
    days: number;
    maxAgeDays: number;
  }
  // one tally per kind, symbol and currency, in the order first met; the uses of one summary
  // often follow each other (a holding's track), so the last tally is tried before the lookup
  const tallies: Tally[] = [];
  const byKind = new Map<string, Map<string | undefined, Map<string, Tally>>>();
  let last: Tally | undefined;
  for (let i = firstAfter(uses, s); i < uses.length; i++) {
    const use = uses[i] as StaleUse;
    if (use.index > e) break;
    let seen = last;
    if (
      seen === undefined ||
      seen.first.kind !== use.kind ||
      seen.first.symbol !== use.symbol ||
      seen.first.currency !== use.currency
    ) {
      let bySymbol = byKind.get(use.kind);
      if (bySymbol === undefined) {
        bySymbol = new Map();
        byKind.set(use.kind, bySymbol);
      }
      let byCurrency = bySymbol.get(use.symbol);
      if (byCurrency === undefined) {
        byCurrency = new Map();
        bySymbol.set(use.symbol, byCurrency);
      }
      seen = byCurrency.get(use.currency);
      if (seen === undefined) {
        seen = { first: use, lastIndex: use.index, days: 0, maxAgeDays: use.ageDays };
        byCurrency.set(use.currency, seen);
        tallies.push(seen);
      }
      last = seen;
    }
    seen.days += 1;
    seen.lastIndex = use.index;
    if (use.ageDays > seen.maxAgeDays) seen.maxAgeDays = use.ageDays;
  }
  return tallies.map(({ first, lastIndex, days, maxAgeDays }) => ({
    kind: first.kind,
    ...(first.symbol === undefined ? {} : { symbol: first.symbol }),
    currency: first.currency,
    days,
    firstDate: dateOf(timeline, first.index),
    lastDate: dateOf(timeline, lastIndex),
    maxAgeDays,
  }));
}

/** The position of the first use after index `s` in `uses` (ascending by index): a binary search. */
function firstAfter(uses: readonly StaleUse[], s: number): number {
  let lo = 0;
  let hi = uses.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((uses[mid] as StaleUse).index <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function unavailable(
  code: UnavailableCode,
  reason: string,
  firstMissingDate: string | null,
): ReturnUnavailable {
  return { status: 'unavailable', code, reason, firstMissingDate };
}

function dateOf(timeline: Timeline, index: number): string {
  return fromEpochDay(timeline.firstDay + index);
}
