import { isAnnual } from './dates.js';
import { type CompanyFactsDocument, conceptUnits, type RawFact, toRawFact } from './document.js';
import { ANNUAL_FORMS, type UnitKind } from './metric-specs.js';

/** Every annual-report copy of one concept's value for one period, oldest filing first. */
export type FactHistory = readonly RawFact[];

/** Histories keyed by period end date (`YYYY-MM-DD`). */
export type HistoriesByEnd = ReadonlyMap<string, FactHistory>;

/**
 * Reads and caches the annual-report facts of the concepts the parser needs. One instance per
 * parsed document.
 *
 * With `asOf` (`YYYY-MM-DD`, a point in time) the reader sees the document as it stood at the end
 * of that day: facts filed after it, and facts of periods ending on or after it, do not exist for
 * it (every read, `allFacts` included, so that fiscal years, stock splits and gaps are found from
 * what was public then), and {@link FactReader.chosen} picks the first-filed copy of a period.
 */
export class FactReader {
  readonly #doc: CompanyFactsDocument;
  readonly #currency: string;
  readonly #cache = new Map<string, HistoriesByEnd>();
  /** The point in time the document is read at (`YYYY-MM-DD`), or `undefined` for all of it. */
  readonly asOf: string | undefined;
  /** Facts skipped because a field the parser needs was missing or mistyped. */
  malformedFacts = 0;

  constructor(doc: CompanyFactsDocument, currency: string, asOf?: string) {
    this.#doc = doc;
    this.#currency = currency;
    this.asOf = asOf;
  }

  /** Whether a fact was public at {@link FactReader.asOf}: filed by then, for a period ended before. */
  #visible(fact: RawFact): boolean {
    return this.asOf === undefined || (fact.filed <= this.asOf && fact.end < this.asOf);
  }

  /**
   * The copy of a period's value the parser uses: the latest-filed one ("as currently known",
   * restatements included), or at a point in time the first-filed one ("as first reported": what
   * the market read then, research notes `fundamentals-data.md` §2.3).
   */
  chosen(history: FactHistory): RawFact | undefined {
    return this.asOf === undefined ? latestOf(history) : history[0];
  }

  /** Whether a companyfacts unit key holds values of this kind (EPS: any unit, incl. `pure`). */
  acceptsUnit(kind: UnitKind, unit: string): boolean {
    switch (kind) {
      case 'money':
        return unit === this.#currency;
      case 'perShare':
        return unit === `${this.#currency}/shares` || unit === 'pure';
      case 'shares':
        return unit === 'shares';
    }
  }

  /**
   * Annual-report facts of `concept` in units of `kind`, keyed by period end: durations of
   * 350–380 days (selected by dates, never by `fy`/`fp`/`frame`), or instants at any date.
   * Forms 10-K, 10-K/A, 10-KT, 10-KT/A only. Each history is sorted by `filed`, then accession.
   */
  histories(concept: string, kind: UnitKind, period: 'duration' | 'instant'): HistoriesByEnd {
    const key = `${concept}|${kind}|${period}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const byEnd = new Map<string, RawFact[]>();
    const units = conceptUnits(this.#doc, concept) ?? {};
    for (const [unit, list] of Object.entries(units)) {
      if (!this.acceptsUnit(kind, unit)) continue;
      for (const item of list) this.#add(byEnd, item, unit, period);
    }
    for (const list of byEnd.values()) list.sort(compareFiled);
    this.#cache.set(key, byEnd);
    return byEnd;
  }

  #add(byEnd: Map<string, RawFact[]>, item: unknown, unit: string, period: string): void {
    const fact = toRawFact(item, unit);
    if (!fact) {
      this.malformedFacts++;
      return;
    }
    if (!ANNUAL_FORMS.has(fact.form) || !this.#visible(fact)) return;
    if (period === 'duration') {
      if (fact.start === undefined || !isAnnual(fact.start, fact.end)) return;
    } else if (fact.start !== undefined) {
      return;
    }
    const list = byEnd.get(fact.end);
    if (list) list.push(fact);
    else byEnd.set(fact.end, [fact]);
  }

  /**
   * All facts of a concept in any form (10-Q included) and any accepted unit, for checks that
   * look past annual reports (the latest quarter a filer reported).
   */
  allFacts(concept: string, kind: UnitKind): RawFact[] {
    const out: RawFact[] = [];
    const units = conceptUnits(this.#doc, concept) ?? {};
    for (const [unit, list] of Object.entries(units)) {
      if (!this.acceptsUnit(kind, unit)) continue;
      for (const item of list) {
        const fact = toRawFact(item, unit);
        if (fact && this.#visible(fact)) out.push(fact);
      }
    }
    return out;
  }
}

/** Orders facts by filing date, then accession number (a later amendment wins a tie). */
export function compareFiled(a: RawFact, b: RawFact): number {
  if (a.filed !== b.filed) return a.filed < b.filed ? -1 : 1;
  return a.accn < b.accn ? -1 : a.accn > b.accn ? 1 : 0;
}

/** The latest-filed copy ("as currently known", restatements included). */
export function latestOf(history: FactHistory): RawFact | undefined {
  return history[history.length - 1];
}
