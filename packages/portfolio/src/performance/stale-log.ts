import type { HoldingTrack, MissingInput, StaleUse, Track } from './types.js';

/** What a stale use is of: a close of a symbol (in its quote currency) or an EUR rate. */
export interface StaleSource {
  readonly kind: 'price' | 'fx_rate';
  readonly symbol?: string;
  readonly currency: string;
}

/**
 * The distinct sources of one walk's stale uses, numbered in the order first asked for; shared
 * by every track of the walk, so that a number stands for one (kind, symbol, currency).
 */
export class StaleSources {
  readonly list: StaleSource[] = [];
  private readonly ids = new Map<string, number>();

  /** The number of a close of `symbol` in `currency`. */
  price(symbol: string, currency: string): number {
    return this.id(`price ${symbol} ${currency}`, { kind: 'price', symbol, currency });
  }

  /** The number of the EUR rate of `currency`. */
  rate(currency: string): number {
    return this.id(`fx_rate  ${currency}`, { kind: 'fx_rate', currency });
  }

  /** The number of `source` in this table (another walk's source, when a walk resumes). */
  of(source: StaleSource): number {
    return source.kind === 'price'
      ? this.price(source.symbol as string, source.currency)
      : this.rate(source.currency);
  }

  private id(key: string, source: StaleSource): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(source);
      this.ids.set(key, id);
    }
    return id;
  }
}

/**
 * A track's stale uses as the daily walk records them (issue 37): three numbers per use (day
 * index, age in days, source number) instead of an object per weekday and holding (a timeline
 * whose closes end years before its end holds tens of thousands). `Track.stale` reads them as
 * {@link StaleUse} objects, made on first read; `measurePeriod` summarises the numbers directly.
 */
export class StaleLog {
  /**
   * `[index, ageDays, source]` per use, ascending by index, in the first {@link length} entries
   * (a typed array grown by doubling: a push of three numbers per use costs more).
   */
  entries = new Int32Array(0);
  /** The entries in use (three per use). */
  length = 0;

  /** The uses as objects, made on first read (see {@link uses}). */
  private readonly made: StaleUse[] = [];

  constructor(readonly sources: StaleSources) {}

  /**
   * The uses as {@link StaleUse} objects (what `Track.stale` answers): the same array each time,
   * extended with the uses recorded since the previous call.
   */
  uses(): StaleUse[] {
    for (let k = this.made.length; k < this.size; k++) this.made.push(this.use(k));
    return this.made;
  }

  /** The number of uses recorded. */
  get size(): number {
    return this.length / 3;
  }

  add(index: number, ageDays: number, source: number): void {
    let at = this.entries;
    const n = this.length;
    if (n + 3 > at.length) {
      at = new Int32Array(Math.max(192, at.length * 2));
      at.set(this.entries);
      this.entries = at;
    }
    at[n] = index;
    at[n + 1] = ageDays;
    at[n + 2] = source;
    this.length = n + 3;
  }

  /** Use `k` as the object `Track.stale` holds (the keys in the order the walk wrote them). */
  private use(k: number): StaleUse {
    const index = this.entries[3 * k] as number;
    const ageDays = this.entries[3 * k + 1] as number;
    const source = this.sources.list[this.entries[3 * k + 2] as number] as StaleSource;
    return source.kind === 'price'
      ? {
          index,
          kind: 'price',
          symbol: source.symbol as string,
          currency: source.currency,
          ageDays,
        }
      : { index, kind: 'fx_rate', currency: source.currency, ageDays };
  }

  /** Appends the uses of `from` (another walk's log) up to day index `upTo`. */
  copyPrefix(from: StaleLog, upTo: number): void {
    const ids = new Map<number, number>();
    const at = from.entries;
    for (let k = 0; k < from.length && (at[k] as number) <= upTo; k += 3) {
      const old = at[k + 2] as number;
      let id = ids.get(old);
      if (id === undefined) {
        id = this.sources.of(from.sources.list[old] as StaleSource);
        ids.set(old, id);
      }
      this.add(at[k] as number, at[k + 1] as number, id);
    }
  }
}

/** The names of a track's eight daily arrays, in the order of their buffer. */
export const ARRAYS = [
  'valueEur',
  'inEur',
  'outEur',
  'numLocal',
  'denLocal',
  'dividendsEur',
  'feesEur',
  'withholdingTaxEur',
] as const satisfies readonly (keyof Track)[];

/**
 * A track the daily walk makes: `length` zeroed days, its eight arrays views of one buffer (one
 * allocation instead of eight: a timeline of 50 holdings × 10 years is ~400 arrays otherwise),
 * its stale uses kept in a {@link StaleLog} that {@link stale} reads as objects (a getter of the
 * class: `stale` is not an own property; an object with an accessor of its own is slower to read
 * in the walk's loop).
 */
export class WalkTrack implements Track {
  readonly valueEur: Float64Array;
  readonly inEur: Float64Array;
  readonly outEur: Float64Array;
  readonly numLocal: Float64Array;
  readonly denLocal: Float64Array;
  readonly dividendsEur: Float64Array;
  readonly feesEur: Float64Array;
  readonly withholdingTaxEur: Float64Array;
  readonly missing: MissingInput[] = [];
  readonly #log: StaleLog;

  constructor(length: number, log: StaleLog) {
    const buffer = new ArrayBuffer(length * ARRAYS.length * Float64Array.BYTES_PER_ELEMENT);
    const array = (k: number) => new Float64Array(buffer, length * 8 * k, length);
    this.valueEur = array(0);
    this.inEur = array(1);
    this.outEur = array(2);
    this.numLocal = array(3);
    this.denLocal = array(4);
    this.dividendsEur = array(5);
    this.feesEur = array(6);
    this.withholdingTaxEur = array(7);
    this.#log = log;
  }

  get stale(): StaleUse[] {
    return this.#log.uses();
  }

  /** The stale log behind `track`, when the daily walk made it. */
  static logOf(track: Track): StaleLog | undefined {
    return track instanceof WalkTrack ? track.#log : undefined;
  }
}

/** A holding's {@link WalkTrack}. */
export class WalkHoldingTrack extends WalkTrack implements HoldingTrack {
  constructor(
    length: number,
    log: StaleLog,
    readonly symbol: string,
    readonly currency: string,
  ) {
    super(length, log);
  }
}

/** The stale log behind `track`, when the daily walk made it. */
export function staleLogOf(track: Track): StaleLog | undefined {
  return WalkTrack.logOf(track);
}
