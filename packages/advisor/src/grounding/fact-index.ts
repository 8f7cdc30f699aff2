import type { Fact, FactSet } from './facts.js';
import { lowerBound } from './scan.js';

/** Most facts indexed for one answer (more are ignored: a figure they alone would ground is flagged). */
export const MAX_INDEXED_FACTS = 50_000;
/**
 * Most facts of one metric (and subject) a figure is held against when no fact states its value
 * (to say why, or to check a comparison): a bound on the work per figure.
 */
export const MAX_CANDIDATES = 64;
/** Most facts near a figure's value looked at. */
const MAX_NEAR = 256;

/** A fact at a value a figure can print it at (×1, or ×100 for a fraction printed as a percentage). */
interface ValueEntry {
  readonly target: number;
  readonly scale: number;
  readonly fact: Fact;
}

/** What {@link ValueIndex.anyNear} asks of a fact near the value. */
export type NearTest = (fact: Fact, scale: number) => boolean;

/**
 * Facts sorted by value, grouped by the order of magnitude of their rounding (so a coarse
 * "$38.4B" does not widen the search for a fine "42%"): finding the facts a figure may state is a
 * binary search per group.
 */
class ValueIndex {
  readonly #groups = new Map<number, { entries: ValueEntry[]; half: number; sorted: boolean }>();

  add(entry: ValueEntry): void {
    const half = entry.fact.halfUnit * entry.scale;
    const bucket = half > 0 ? Math.floor(Math.log10(half)) : -1000;
    let group = this.#groups.get(bucket);
    if (!group) {
      group = { entries: [], half: 0, sorted: true };
      this.#groups.set(bucket, group);
    }
    group.entries.push(entry);
    group.half = Math.max(group.half, half);
    group.sorted = false;
  }

  /** Whether a fact within `reach` (plus its own rounding) of `value` passes `test`; counts the looks. */
  anyNear(value: number, reach: number, test: NearTest, count: { n: number }): boolean {
    let looked = 0;
    for (const group of this.#groups.values()) {
      if (!group.sorted) {
        group.entries.sort((a, b) => a.target - b.target);
        group.sorted = true;
      }
      const span = reach + group.half + 1e-9 * Math.max(1, value);
      const { entries } = group;
      for (
        let at = lowerBound(entries, value - span, (e) => e.target);
        at < entries.length && looked < MAX_NEAR;
        at += 1, looked += 1
      ) {
        count.n += 1;
        const entry = entries[at] as ValueEntry;
        if (entry.target > value + span) break;
        if (test(entry.fact, entry.scale)) return true;
      }
    }
    return false;
  }
}

const EMPTY: readonly Fact[] = [];

/**
 * The facts of a {@link FactSet} indexed for the judge: by metric and subject, and by value
 * (sorted, per metric and overall), so a figure costs a few binary searches whatever the number
 * of facts. It follows the set as facts are appended (a tool result arriving mid-answer);
 * identical facts are indexed once.
 */
export class FactIndex {
  #count = 0;
  readonly #seen = new Set<string>();
  readonly #byMetric = new Map<string, Fact[]>();
  readonly #byMetricSubject = new Map<string, Fact[]>();
  readonly #untyped = new Map<string, Fact[]>();
  readonly #untypedAll: Fact[] = [];
  readonly #quoted = new Map<string, Fact[]>();
  readonly #values = new ValueIndex();
  readonly #valuesByMetric = new Map<string, ValueIndex>();
  readonly #count_ = { n: 0 };
  readonly #companies = new Set<string>();

  constructor(private readonly set: FactSet) {}

  /** Facts looked at so far (a work count). */
  get compared(): number {
    return this.#count_.n;
  }

  /** Indexes the facts appended to the set since the last call. */
  sync(): void {
    const facts = this.set.facts;
    for (; this.#count < facts.length && this.#seen.size < MAX_INDEXED_FACTS; this.#count += 1) {
      this.#add(facts[this.#count] as Fact);
    }
  }

  /**
   * The one company the facts are about, when there is exactly one (a claim naming no subject is
   * about it); null with none or several (then such a claim is about no company: issue 41).
   */
  get onlyCompany(): string | null {
    return this.#companies.size === 1 ? ([...this.#companies][0] as string) : null;
  }

  #add(fact: Fact): void {
    // Only what the service stated grounds (issue 41): the user's and a client's figures do not.
    if (fact.source !== undefined && fact.source !== 'service') return;
    if (fact.subject !== '' && fact.subject !== 'portfolio') this.#companies.add(fact.subject);
    const key = [
      fact.metrics.join(','),
      fact.subject,
      fact.unit,
      fact.currency,
      fact.period,
      fact.value,
      fact.sign,
      fact.halfUnit,
      fact.role,
      fact.aggregate,
      fact.noun,
      fact.quote,
    ].join('|');
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const push = (map: Map<string, Fact[]>, k: string) => {
      const list = map.get(k);
      if (list) list.push(fact);
      else map.set(k, [fact]);
    };
    for (const metric of fact.metrics) {
      push(this.#byMetric, metric);
      push(this.#byMetricSubject, `${metric}\u0000${fact.subject}`);
    }
    if (fact.metrics.length === 0) {
      push(this.#untyped, fact.subject);
      this.#untypedAll.push(fact);
    }
    if (fact.quote !== undefined) push(this.#quoted, fact.subject);
    if (fact.value === null) return;
    const entries: ValueEntry[] = [{ target: fact.value, scale: 1, fact }];
    if (fact.unit === 'fraction') entries.push({ target: fact.value * 100, scale: 100, fact });
    for (const entry of entries) {
      this.#values.add(entry);
      for (const metric of fact.metrics) {
        let index = this.#valuesByMetric.get(metric);
        if (!index) {
          index = new ValueIndex();
          this.#valuesByMetric.set(metric, index);
        }
        index.add(entry);
      }
    }
  }

  /** Whether a fact of `metric` may be held against a claim about `subject` ({@link ofMetric} is not empty). */
  hasFor(metric: string, subject: string | null): boolean {
    if (subject === null) return this.#byMetric.has(metric);
    return lists((s) => this.#byMetricSubject.get(`${metric}\u0000${s}`) ?? EMPTY, subject).some(
      (l) => l.length > 0,
    );
  }

  /**
   * The facts of `metric` a claim about `subject` may be held against (its own, anyone's, the
   * portfolio's; any subject's for `null`), at most {@link MAX_CANDIDATES}.
   */
  ofMetric(metric: string, subject: string | null): readonly Fact[] {
    if (subject === null) return this.#take([this.#byMetric.get(metric) ?? EMPTY]);
    const own = (s: string) => this.#byMetricSubject.get(`${metric}\u0000${s}`) ?? EMPTY;
    return this.#take(lists(own, subject));
  }

  /** The facts of no metric (a threshold, a figure the user wrote) for `subject`, at most {@link MAX_CANDIDATES}. */
  untyped(subject: string | null): readonly Fact[] {
    if (subject === null) return this.#take([this.#untypedAll]);
    const own = (s: string) => this.#untyped.get(s) ?? EMPTY;
    return this.#take(lists(own, subject));
  }

  /**
   * The thresholds of trusted texts (facts with a `quote`) a comparison about `subject` may repeat
   * (its own, anyone's; any subject's for `null`): one subject's rules, at most 1,000.
   */
  quoted(subject: string | null): readonly Fact[] {
    const out: Fact[] = [];
    const lists =
      subject === null
        ? [...this.#quoted.values()]
        : [this.#quoted.get(subject) ?? EMPTY, this.#quoted.get('') ?? EMPTY];
    for (const list of lists) {
      for (const fact of list) {
        if (out.length >= 1_000) return out;
        out.push(fact);
      }
    }
    this.#count_.n += out.length;
    return out;
  }

  /**
   * Whether a fact (of `metric`; of any metric for `null`) within `reach` of `value`, in the unit
   * a figure prints it at, passes `test`; at most 256 facts near the value are looked at.
   */
  anyNear(metric: string | null, value: number, reach: number, test: NearTest): boolean {
    const index = metric === null ? this.#values : this.#valuesByMetric.get(metric);
    return index?.anyNear(value, reach, test, this.#count_) ?? false;
  }

  #take(from: readonly (readonly Fact[])[]): readonly Fact[] {
    const out: Fact[] = [];
    for (const list of from) {
      for (const fact of list) {
        if (out.length >= MAX_CANDIDATES) break;
        out.push(fact);
      }
    }
    this.#count_.n += out.length;
    return out;
  }
}

function lists(own: (s: string) => readonly Fact[], subject: string): (readonly Fact[])[] {
  if (subject === '') return [own(''), own('portfolio')];
  if (subject === 'portfolio') return [own('portfolio'), own('')];
  return [own(subject), own(''), own('portfolio')];
}
