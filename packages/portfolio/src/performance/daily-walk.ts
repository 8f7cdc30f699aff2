import { type AlignedSeries, alignSeries, unitSeries } from './aligned-series.js';
import { isWeekend } from './calendar.js';
import type { LedgerEvent } from './ledger-events.js';
import {
  ARRAYS,
  StaleLog,
  StaleSources,
  staleLogOf,
  WalkHoldingTrack,
  WalkTrack,
} from './stale-log.js';
import {
  type HoldingTrack,
  MAX_PRICE_AGE_DAYS,
  type Timeline,
  type TimelineCheckpoint,
  type TimelineInputs,
  type Track,
} from './types.js';

/** Copies days 0 … `upTo` of `from` into `to`, and its missing and stale days among them. */
function copyPrefix(from: Track, to: Track, upTo: number): void {
  for (const key of ARRAYS) to[key].set(from[key].subarray(0, upTo + 1));
  to.missing.push(...from.missing.filter((m) => m.index <= upTo));
  const log = staleLogOf(to) as StaleLog;
  const before = staleLogOf(from);
  if (before) log.copyPrefix(before, upTo);
  else {
    for (const use of from.stale) {
      if (use.index > upTo) break;
      const source =
        use.kind === 'price'
          ? log.sources.price(use.symbol as string, use.currency)
          : log.sources.rate(use.currency);
      log.add(use.index, use.ageDays, source);
    }
  }
}

/** The index of the last entry of `list` (a track's `missing`), −1 when empty. */
function lastIndex(list: readonly { readonly index: number }[]): number {
  return list.length === 0 ? -1 : (list[list.length - 1] as { readonly index: number }).index;
}

interface HoldingState {
  readonly track: HoldingTrack;
  /** The stale uses of {@link track}. */
  readonly stale: StaleLog;
  /** Stale source numbers of its closes and of the EUR rate of its currency. */
  readonly priceSource: number;
  readonly rateSource: number;
  readonly price: AlignedSeries;
  /** Currency of the price series (a close in another currency is cross-converted). */
  readonly quoteCurrency: string;
  /** EUR rates of the holding's currency and of the quote currency, aligned. */
  readonly rate: AlignedSeries;
  readonly quoteRate: AlignedSeries;
  units: number;
  prevLocal: number;
  inLocal: number;
  outLocal: number;
}

/**
 * The daily walk of {@link buildTimeline} (see its method): state of the replay (units, cash) and
 * the tracks being filled, one day at a time.
 */
export class Walk {
  readonly portfolio: Track;
  private readonly sources = new StaleSources();
  /** The stale uses of {@link portfolio}. */
  private readonly portfolioStale: StaleLog;
  readonly holdings = new Map<string, HoldingState>();
  /** The values of {@link holdings} in their order, for the per-day loop. */
  private readonly states: HoldingState[] = [];
  readonly implicit: boolean;
  private readonly cash = new Map<string, number>();
  /** Currencies exposed on the day being valued, in first-seen order (no repeats). */
  private readonly exposed: string[] = [];
  private readonly rates = new Map<string, AlignedSeries>();
  private next = 0;
  /** First index this walk values (0, or the day after a checkpoint it resumes from). */
  readonly start: number;
  private portfolioIn = 0;
  private portfolioOut = 0;
  private prevIn = 0;
  private prevOut = 0;

  /**
   * A walk over `length` days from `firstDay`. With `resume`, the days up to the checkpoint's
   * index are copied from the previous timeline (same `firstDay`, same ledger) and the walk state
   * is restored as it was at the end of that day: only the later days are walked.
   */
  constructor(
    private readonly inputs: TimelineInputs,
    private readonly events: readonly LedgerEvent[],
    private readonly firstDay: number,
    private readonly length: number,
    resume?: { readonly previous: Timeline; readonly checkpoint: TimelineCheckpoint },
  ) {
    this.start = resume ? resume.checkpoint.index + 1 : 0;
    this.portfolioStale = new StaleLog(this.sources);
    this.portfolio = new WalkTrack(length, this.portfolioStale);
    this.implicit = !events.some((e) => e.type === 'deposit' || e.type === 'withdrawal');
    for (const e of events) {
      this.rate(e.currency);
      if ((e.type === 'buy' || e.type === 'sell') && e.symbol !== undefined)
        this.holding(e.symbol, e.currency);
    }
    if (resume) this.restore(resume.previous, resume.checkpoint);
  }

  /**
   * The state at the end of day `index` (call right after {@link day}`(index)`); `ledger`: every
   * event of the ledger, when the walk has them all.
   */
  checkpoint(index: number, ledger?: readonly LedgerEvent[]): TimelineCheckpoint {
    return {
      index,
      ...(ledger === undefined ? {} : { ledger }),
      next: this.next,
      cash: new Map(this.cash),
      holdings: new Map(
        [...this.holdings].map(([key, h]) => [key, { units: h.units, prevLocal: h.prevLocal }]),
      ),
    };
  }

  private restore(previous: Timeline, checkpoint: TimelineCheckpoint): void {
    const upTo = checkpoint.index;
    copyPrefix(previous.portfolio, this.portfolio, upTo);
    for (const [key, state] of this.holdings) {
      const before = previous.holdings.get(key);
      const saved = checkpoint.holdings.get(key);
      if (before) copyPrefix(before, state.track, upTo);
      state.units = saved?.units ?? 0;
      state.prevLocal = saved?.prevLocal ?? 0;
    }
    for (const [currency, balance] of checkpoint.cash) this.cash.set(currency, balance);
    this.next = checkpoint.next;
  }

  /** The day before the first walked (its rates are read as "the previous day's"). */
  private get alignFrom(): number {
    return Math.max(0, this.start - 1);
  }

  private get maxAge(): number {
    return this.inputs.maxAgeDays ?? MAX_PRICE_AGE_DAYS;
  }

  private rate(currency: string): AlignedSeries {
    let aligned = this.rates.get(currency);
    if (aligned === undefined) {
      aligned =
        currency === 'EUR'
          ? unitSeries(this.length)
          : alignSeries(
              this.inputs.eurRates.get(currency),
              this.firstDay,
              this.length,
              this.maxAge,
              this.alignFrom,
            );
      this.rates.set(currency, aligned);
    }
    return aligned;
  }

  private holding(symbol: string, currency: string): HoldingState {
    const key = `${symbol} ${currency}`;
    let state = this.holdings.get(key);
    if (state === undefined) {
      const series = this.inputs.prices.get(symbol);
      const quoteCurrency = series?.currency ?? currency;
      const stale = new StaleLog(this.sources);
      state = {
        track: new WalkHoldingTrack(this.length, stale, symbol, currency),
        stale,
        priceSource: this.sources.price(symbol, quoteCurrency),
        rateSource: this.sources.rate(currency),
        price: alignSeries(series, this.firstDay, this.length, this.maxAge, this.alignFrom),
        quoteCurrency,
        rate: this.rate(currency),
        quoteRate: this.rate(quoteCurrency),
        units: 0,
        prevLocal: 0,
        inLocal: 0,
        outLocal: 0,
      };
      this.holdings.set(key, state);
      this.states.push(state);
    }
    return state;
  }

  /** Applies day i's transactions, then values the day. */
  day(i: number): void {
    const day = this.firstDay + i;
    while (this.next < this.events.length && (this.events[this.next] as LedgerEvent).day === day) {
      this.apply(this.events[this.next] as LedgerEvent, i);
      this.next++;
    }
    this.value(i);
  }

  private eur(amount: number, currency: string, i: number): number {
    return amount / (this.rate(currency).values[i] as number);
  }

  private prevEur(amount: number, currency: string, i: number): number {
    const rates = this.rate(currency).values;
    const prev = i > 0 ? (rates[i - 1] as number) : Number.NaN;
    return amount / (Number.isNaN(prev) ? (rates[i] as number) : prev);
  }

  private external(direction: 'in' | 'out', amount: number, currency: string, i: number): void {
    if (direction === 'in') {
      this.portfolioIn += this.eur(amount, currency, i);
      this.prevIn += this.prevEur(amount, currency, i);
    } else {
      this.portfolioOut += this.eur(amount, currency, i);
      this.prevOut += this.prevEur(amount, currency, i);
    }
  }

  private moveCash(currency: string, delta: number, i: number): void {
    let balance = (this.cash.get(currency) ?? 0) + delta;
    if (this.implicit && balance < -1e-9) {
      this.external('in', -balance, currency, i);
      balance = 0;
    }
    this.cash.set(currency, balance);
  }

  private forSymbol(symbol: string | undefined, currency: string): HoldingState | undefined {
    if (symbol === undefined) return undefined;
    const exact = this.holdings.get(`${symbol} ${currency}`);
    if (exact) return exact;
    for (const state of this.holdings.values()) if (state.track.symbol === symbol) return state;
    return undefined;
  }

  /** `amount` in `currency` expressed in the holding's currency on day i (cross through EUR). */
  private toLocal(state: HoldingState, amount: number, currency: string, i: number): number {
    if (currency === state.track.currency) return amount;
    return this.eur(amount, currency, i) * (this.rate(state.track.currency).values[i] as number);
  }

  private apply(e: LedgerEvent, i: number): void {
    switch (e.type) {
      case 'deposit':
        this.external('in', e.amount, e.currency, i);
        this.moveCash(e.currency, e.amount, i);
        return;
      case 'withdrawal':
        this.external('out', e.amount, e.currency, i);
        this.moveCash(e.currency, -e.amount, i);
        return;
      case 'buy': {
        const state = this.holding(e.symbol as string, e.currency);
        state.units += e.units;
        state.inLocal += e.amount + e.fee;
        this.fee(state, e.fee, e.currency, i);
        this.moveCash(e.currency, -(e.amount + e.fee), i);
        return;
      }
      case 'sell': {
        const state = this.holding(e.symbol as string, e.currency);
        state.units = Math.max(0, state.units - e.units);
        if (state.units < 1e-12) state.units = 0;
        state.outLocal += e.amount - e.fee;
        this.fee(state, e.fee, e.currency, i);
        this.moveCash(e.currency, e.amount - e.fee, i);
        return;
      }
      case 'split':
        for (const state of this.holdings.values()) {
          if (state.track.symbol === e.symbol) state.units *= e.units;
        }
        return;
      case 'dividend': {
        const state = this.forSymbol(e.symbol, e.currency);
        const eur = this.eur(e.amount, e.currency, i);
        (this.portfolio.dividendsEur[i] as number) += eur;
        if (state) {
          state.outLocal += this.toLocal(state, e.amount, e.currency, i);
          (state.track.dividendsEur[i] as number) += eur;
        }
        this.moveCash(e.currency, e.amount, i);
        return;
      }
      case 'fee': {
        const state = this.forSymbol(e.symbol, e.currency);
        if (state) state.inLocal += this.toLocal(state, e.amount, e.currency, i);
        this.fee(
          state,
          e.amount,
          e.currency,
          i,
          e.withholdingTax ? 'withholdingTaxEur' : 'feesEur',
        );
        this.moveCash(e.currency, -e.amount, i);
        return;
      }
    }
  }

  private fee(
    state: HoldingState | undefined,
    amount: number,
    currency: string,
    i: number,
    kind: 'feesEur' | 'withholdingTaxEur' = 'feesEur',
  ): void {
    if (amount === 0) return;
    const eur = this.eur(amount, currency, i);
    (this.portfolio[kind][i] as number) += eur;
    if (state) (state.track[kind][i] as number) += eur;
  }

  private value(i: number): void {
    const weekday = !isWeekend(this.firstDay + i);
    const track = this.portfolio;
    let total = 0;
    let totalPrev = 0;
    const exposed = this.exposed;
    exposed.length = 0;
    const states = this.states;
    for (let h = 0; h < states.length; h++) {
      const state = states[h] as HoldingState;
      const local = this.valueHolding(state, i, weekday);
      if (state.units !== 0) {
        expose(exposed, state.track.currency);
        expose(exposed, state.quoteCurrency);
        const rates = state.rate.values;
        const prev = i > 0 ? (rates[i - 1] as number) : Number.NaN;
        totalPrev += local / (Number.isNaN(prev) ? (rates[i] as number) : prev);
      }
      total += state.track.valueEur[i] as number;
      const missing = state.track.missing;
      const last = missing.length === 0 ? undefined : missing[missing.length - 1];
      if (
        last !== undefined &&
        last.index === i &&
        last.code === 'missing_price' &&
        lastIndex(track.missing) !== i
      ) {
        track.missing.push(last);
      }
    }
    for (const [currency, balance] of this.cash) {
      if (balance === 0) continue;
      expose(exposed, currency);
      total += this.eur(balance, currency, i);
      totalPrev += this.prevEur(balance, currency, i);
    }
    for (let c = 0; c < exposed.length; c++) {
      this.checkRate(track, this.portfolioStale, exposed[c] as string, i, weekday);
    }
    if (Number.isNaN(this.portfolioIn + this.portfolioOut) && lastIndex(track.missing) !== i) {
      const currency = [...this.rates].find(([, r]) => Number.isNaN(r.values[i] as number))?.[0];
      track.missing.push({ index: i, code: 'missing_fx_rate', currency: currency ?? 'EUR' });
    }
    track.valueEur[i] = total;
    track.inEur[i] = this.portfolioIn;
    track.outEur[i] = this.portfolioOut;
    track.numLocal[i] = totalPrev + this.prevOut;
    track.denLocal[i] = (i > 0 ? (track.valueEur[i - 1] as number) : 0) + this.prevIn;
    this.portfolioIn = 0;
    this.portfolioOut = 0;
    this.prevIn = 0;
    this.prevOut = 0;
  }

  /** Values one holding on day i; returns its local value. Records missing and stale inputs. */
  private valueHolding(state: HoldingState, i: number, weekday: boolean): number {
    const { track } = state;
    const held = state.units !== 0;
    const flows = state.inLocal !== 0 || state.outLocal !== 0;
    let price = 0;
    if (held) {
      price = state.price.values[i] as number;
      if (Number.isNaN(price)) {
        track.missing.push({
          index: i,
          code: 'missing_price',
          symbol: track.symbol,
          currency: state.quoteCurrency,
        });
      } else if (weekday && (state.price.ages[i] as number) > 0) {
        const ageDays = state.price.ages[i] as number;
        state.stale.add(i, ageDays, state.priceSource);
        this.portfolioStale.add(i, ageDays, state.priceSource);
      }
      if (state.quoteCurrency !== track.currency) {
        // (state.quoteRate and state.rate are the aligned EUR rates of these two currencies)
        price = (price / (state.quoteRate.values[i] as number)) * (state.rate.values[i] as number);
        if (Number.isNaN(price)) this.checkRate(track, state.stale, state.quoteCurrency, i, false);
      }
    }
    if ((held || flows) && lastIndex(track.missing) !== i) {
      this.ratesChecked(
        track,
        state.stale,
        track.currency,
        state.rate,
        i,
        weekday,
        state.rateSource,
      );
    }
    const local = held ? state.units * price : 0;
    const rate = state.rate.values[i] as number;
    track.valueEur[i] = held ? local / rate : 0;
    track.inEur[i] = flows ? state.inLocal / rate : 0;
    track.outEur[i] = flows ? state.outLocal / rate : 0;
    track.numLocal[i] = local + state.outLocal;
    track.denLocal[i] = state.prevLocal + state.inLocal;
    state.prevLocal = local;
    state.inLocal = 0;
    state.outLocal = 0;
    return local;
  }

  /**
   * Records a missing (first of the day only) or stale EUR rate of `currency` on `track` (its
   * stale uses in `stale`).
   */
  private checkRate(
    track: Track,
    stale: StaleLog,
    currency: string,
    i: number,
    weekday: boolean,
  ): void {
    if (currency === 'EUR') return;
    this.ratesChecked(track, stale, currency, this.rate(currency), i, weekday);
  }

  /**
   * {@link checkRate} with the aligned rates of `currency` at hand (and its stale source number,
   * when known).
   */
  private ratesChecked(
    track: Track,
    stale: StaleLog,
    currency: string,
    rates: AlignedSeries,
    i: number,
    weekday: boolean,
    source?: number,
  ): void {
    if (currency === 'EUR') return;
    if (Number.isNaN(rates.values[i] as number)) {
      if (lastIndex(track.missing) !== i) {
        track.missing.push({ index: i, code: 'missing_fx_rate', currency });
      }
    } else if (weekday && (rates.ages[i] as number) > 0) {
      stale.add(i, rates.ages[i] as number, source ?? this.sources.rate(currency));
    }
  }
}

/** Adds `currency` to `exposed` unless it is there (a Set's insertion order, without hashing). */
function expose(exposed: string[], currency: string): void {
  for (let c = 0; c < exposed.length; c++) if (exposed[c] === currency) return;
  exposed.push(currency);
}
