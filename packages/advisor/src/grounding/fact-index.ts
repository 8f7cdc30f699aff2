import type { Fact, FactSet } from './facts.js';
import { lowerBound } from './scan.js';

/** Most facts indexed for one answer (more are ignored: a figure they alone would ground is flagged). */
export const MAX_INDEXED_FACTS = 50_000;
/** Most facts of one metric compared to one figure (a bound on the work per figure). */
export const MAX_CANDIDATES = 2_000;
/** Most facts near a figure's value looked at for a figure that names no metric. */
const MAX_NEAR = 256;

/** A fact at a value a figure can print it at (×1, or ×100 for a fraction printed as a percentage). */
interface ValueEntry {
  readonly target: number;
  readonly scale: number;
  readonly fact: Fact;
}

const EMPTY: readonly Fact[] = [];

/**
 * The facts of a {@link FactSet} indexed for {@link judge}: by metric and subject, and by value
 * (sorted) for figures that name no metric. It follows the set as facts are appended (a tool
 * result arriving mid-answer); identical facts are indexed once.
 */
export class FactIndex {
  #count = 0;
  readonly #seen = new Set<string>();
  readonly #byMetric = new Map<string, Fact[]>();
  readonly #byMetricSubject = new Map<string, Fact[]>();
  readonly #untyped = new Map<string, Fact[]>();
  readonly #untypedAll: Fact[] = [];
  readonly #values: ValueEntry[] = [];
  #sorted = true;
  #largestHalfUnit = 0;

  constructor(private readonly set: FactSet) {}

  /** Indexes the facts appended to the set since the last call. */
  sync(): void {
    const facts = this.set.facts;
    for (; this.#count < facts.length && this.#seen.size < MAX_INDEXED_FACTS; this.#count += 1) {
      this.#add(facts[this.#count] as Fact);
    }
  }

  #add(fact: Fact): void {
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
    if (fact.value !== null) {
      this.#values.push({ target: fact.value, scale: 1, fact });
      if (fact.unit === 'fraction')
        this.#values.push({ target: fact.value * 100, scale: 100, fact });
      this.#largestHalfUnit = Math.max(
        this.#largestHalfUnit,
        fact.halfUnit * (fact.unit === 'fraction' ? 100 : 1),
      );
      this.#sorted = false;
    }
  }

  /** The facts of `metric` a claim about `subject` may be checked against (its own, anyone's, the portfolio's). */
  ofMetric(metric: string, subject: string | null): readonly Fact[] {
    if (subject === null) return (this.#byMetric.get(metric) ?? EMPTY).slice(0, MAX_CANDIDATES);
    const own = (s: string) => this.#byMetricSubject.get(`${metric}\u0000${s}`) ?? EMPTY;
    return joined([own(subject), own(''), own('portfolio')], subject);
  }

  /** The facts of no metric (a threshold, a figure the user wrote) for `subject`. */
  untyped(subject: string | null): readonly Fact[] {
    if (subject === null) return this.#untypedAll.slice(0, MAX_CANDIDATES);
    const own = (s: string) => this.#untyped.get(s) ?? EMPTY;
    return joined([own(subject), own(''), own('portfolio')], subject);
  }

  /**
   * Whether a fact within `reach` of `value` (in the unit a figure prints it at) passes `accept`;
   * at most {@link MAX_NEAR} facts nearest in value are looked at.
   */
  anyNear(value: number, reach: number, accept: (fact: Fact, scale: number) => boolean): boolean {
    if (!this.#sorted) {
      this.#values.sort((a, b) => a.target - b.target);
      this.#sorted = true;
    }
    const span = reach + this.#largestHalfUnit + 1e-9 * Math.max(1, value);
    let at = lowerBound(this.#values, value - span, (e) => e.target);
    for (let n = 0; at < this.#values.length && n < MAX_NEAR; at += 1, n += 1) {
      const entry = this.#values[at] as ValueEntry;
      if (entry.target > value + span) return false;
      if (accept(entry.fact, entry.scale)) return true;
    }
    return false;
  }
}

function joined(lists: readonly (readonly Fact[])[], subject: string): readonly Fact[] {
  const [own = EMPTY, anyone = EMPTY, portfolio = EMPTY] = lists;
  if (subject === '') return [...own, ...portfolio].slice(0, MAX_CANDIDATES);
  if (subject === 'portfolio') return [...own, ...anyone].slice(0, MAX_CANDIDATES);
  return [...own, ...anyone, ...portfolio].slice(0, MAX_CANDIDATES);
}
