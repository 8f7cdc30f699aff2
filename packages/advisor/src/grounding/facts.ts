import { findClaims } from './claims.js';
import type { Figure } from './figures.js';
import type { Metric } from './metrics.js';

/**
 * The unit of a fact: `percent` (27.3 means 27.3 %), `fraction` (0.25 means 25 %, e.g. a
 * holding's weight), `currency` (with {@link Fact.currency}), `points` (a score), `multiple`
 * (P/E, ×), `count` (holdings, criteria), `years`, or `number` (anything else).
 */
export type FactUnit =
  | 'percent'
  | 'fraction'
  | 'currency'
  | 'points'
  | 'multiple'
  | 'count'
  | 'years'
  | 'number';

/**
 * A typed fact a figure of an answer can be checked against: what it is (`metrics`), whose
 * (`subject`), its unit, period and value with its own rounding. A `null` value is a fact that
 * is not available (N/A): any figure claimed for it is ungrounded.
 */
export interface Fact {
  /** Stable name, e.g. `MCD.return_on_invested_capital.value`. */
  readonly key: string;
  /** The metrics it is; empty for a figure of a server text whose metric is not named (a threshold). */
  readonly metrics: readonly Metric[];
  /** The company or holding symbol it belongs to, `portfolio`, or `''` (anyone's). */
  readonly subject: string;
  readonly unit: FactUnit;
  /** ISO 4217 code of a `currency` fact. */
  readonly currency?: string;
  /** Fiscal year it is for, e.g. `FY2024`; absent for a multi-year figure (a median). */
  readonly period?: string;
  /** The value (in its unit, without its sign), or null when it is not available. */
  readonly value: number | null;
  /** `-1` when the value is negative (a loss, a decline); absent otherwise. */
  readonly sign?: -1;
  /**
   * `median`: a multi-year aggregate (a criterion's median margin or ROIC); `change`: the size of
   * a change (a growth rate, a P&L), whose `sign` is its direction. Absent: a level.
   */
  readonly aggregate?: 'median' | 'change';
  /** What a count of a trusted text counts ("3 **brands**"), lower case. */
  readonly noun?: string;
  /**
   * A threshold of a trusted text (after "≥", "under"…): the words leading to it and itself
   * (`quoteAt`). A comparison repeating them word for word states the rule, not a value.
   */
  readonly quote?: string;
  /** Half a unit of its own last digit (0 for an unrounded value). */
  readonly halfUnit: number;
  /** `total`: a maximum or denominator ("64.8 of **87.5**", "4 of **7** criteria"). */
  readonly role?: 'total';
  /** What the report shows as the fact compared to, e.g. `MCD median ROIC = 26.5`. */
  readonly label: string;
  /**
   * Where the figure comes from (see {@link FactSource}); absent: `service`. Only a `service`
   * fact grounds a figure: the others are kept to say what was not a source.
   */
  readonly source?: FactSource;
}

/**
 * Who stated a fact: `service` — computed or stored by the service itself from filings and the
 * ledger (an evaluation, holdings, quotes); `client` — written by a client (a saved report's
 * `totalScore`, its stored evaluation); `user` — the user's message or an attached file. Issue
 * 41: only `service` facts ground, so the user and a client cannot make a figure grounded.
 */
export type FactSource = 'service' | 'client' | 'user';

/** Facts and the names each subject may be mentioned by (symbol, company name). */
export interface FactSet {
  readonly facts: Fact[];
  /** subject → names it is mentioned by in a text (`MCD` → `MCD`, `McDonald’s`). */
  readonly subjects: Map<string, string[]>;
}

/** An empty {@link FactSet}. */
export function emptyFacts(): FactSet {
  return { facts: [], subjects: new Map() };
}

/** Adds `more` into `into` (facts appended, subject names merged); returns `into`. */
export function mergeFacts(into: FactSet, more: FactSet): FactSet {
  into.facts.push(...more.facts);
  for (const [subject, names] of more.subjects) {
    const known = into.subjects.get(subject) ?? [];
    into.subjects.set(subject, [...new Set([...known, ...names])]);
  }
  return into;
}

/** Words a company name may start with that do not name it ("The Coca-Cola Company"). */
const NOT_NAME_WORDS = new Set(['the', 'and', 'les', 'der', 'die', 'das']);

/**
 * Names of a company: its symbol, the first word of its name (≥ 3 letters, not an article) and
 * that word with a possessive `s` ("McDONALD’S CORPORATION" → `MCD`, `McDONALD`, `McDONALDS`:
 * "McDonalds" written without its apostrophe is still McDonald's).
 */
export function subjectNames(symbol: string, name?: string): string[] {
  const first = (name ?? '')
    .split(/[\s,’'.]+/)
    .find((w) => w.length >= 3 && !NOT_NAME_WORDS.has(w.toLowerCase()));
  if (!first || first === symbol) return [symbol];
  return [symbol, first, `${first}s`];
}

function unitOfFigure(figure: Figure): FactUnit {
  switch (figure.unit) {
    case 'percent':
    case 'pp':
      return 'percent';
    case 'currency':
      return 'currency';
    case 'multiple':
      return 'multiple';
    case 'plain':
      return 'number';
  }
}

/** Options of {@link textFacts}. */
export interface TextFactOptions {
  /** Whose figures they are (`''`: anyone's). */
  readonly subject: string;
  /** Metrics of a figure whose clause names none (e.g. the criterion's). */
  readonly fallback?: readonly Metric[];
  /** Prefix of each fact's key. */
  readonly key: string;
}

/** `{ sign: -1 }` for a negative value, else nothing (spread into a {@link Fact}). */
export function signOf(value: number | null | undefined): { sign?: -1 } {
  return typeof value === 'number' && value < 0 ? { sign: -1 } : {};
}

/**
 * The figures of a trusted text (a criterion's display value written by the scoring, a user's
 * own message) as facts: each typed by the metric named nearest in its clause (else
 * `fallback`), the unit it is printed with, the fiscal year of its clause, its printed rounding,
 * what a bare count counts, a median's aggregate. A figure after a comparison (`≥ 15%`) is a
 * threshold: no metric, so only a figure whose own clause names no metric, or a comparison
 * naming a rule, can match it. Linear in the text.
 */
export function textFacts(text: string, options: TextFactOptions): Fact[] {
  return findClaims(text, new Map()).map((claim, i) => {
    const { figure } = claim;
    const nearest = claim.metrics.slice(0, 1);
    const metrics = claim.threshold
      ? []
      : nearest.length > 0
        ? nearest
        : [...(options.fallback ?? [])];
    const clause = text.slice(Math.max(0, figure.index - 40), figure.end + 40).trim();
    return {
      key: `${options.key}[${i}]`,
      metrics,
      subject: options.subject,
      unit: unitOfFigure(figure),
      ...(figure.currency ? { currency: figure.currency } : {}),
      ...(claim.period ? { period: claim.period } : {}),
      value: Math.abs(figure.values[0] ?? 0),
      ...signOf(figure.values[0]),
      halfUnit: figure.halfUnit,
      // A shift in percentage points, or a rate per year, is a change, never a level.
      ...(figure.unit === 'pp' || claim.rate
        ? { aggregate: 'change' as const }
        : claim.aggregate
          ? { aggregate: claim.aggregate }
          : {}),
      ...(claim.counted ? { noun: claim.counted.split(' ')[0] } : {}),
      ...(claim.quote ? { quote: claim.quote } : {}),
      label: `${options.subject ? `${options.subject} ` : ''}"${figure.text}" in "${clause.slice(0, 80)}"`,
    };
  });
}
