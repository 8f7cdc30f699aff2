import { findMetricMentions, type Metric } from './metrics.js';

/** A clause of a text: the span between separators around a figure. */
export interface Clause {
  readonly text: string;
  /** Offset of the clause in the whole text. */
  readonly start: number;
  /** Offsets of the figure inside `text`. */
  readonly figureStart: number;
  readonly figureEnd: number;
}

// A clause ends at ; : ! ? newline | ( ) [ ] =, at a comma or full stop followed by a space (not
// a decimal separator), at a dash between spaces, and at "and"/"und"/"while"/"but"/"aber".
const SEPARATOR =
  /[;:!?\n|()[\]=]|[.,](?=\s|$)|\s[-–—]\s|\s(?:and|und|while|whereas|but|aber|sowie|während)\s/giu;

/** The clause of `text` around the figure at `[start, end)`. */
export function clauseAround(text: string, start: number, end: number): Clause {
  let from = 0;
  let to = text.length;
  for (const match of text.matchAll(SEPARATOR)) {
    const at = match.index ?? 0;
    const after = at + match[0].length;
    if (after <= start) from = after;
    else if (at >= end) {
      to = at;
      break;
    }
  }
  return {
    text: text.slice(from, to),
    start: from,
    figureStart: start - from,
    figureEnd: end - from,
  };
}

/** Whether a comparison (`≥`, `at least`, `above`, `mindestens`…) stands right before `index`. */
export function comparisonBefore(text: string, index: number, clauseStart: number): boolean {
  const before = text.slice(Math.max(clauseStart, index - 24), index);
  return /(?:[≥≤<>]=?|at least|at most|above|below|over|under|threshold of|mindestens|höchstens|über|unter)\s*[$€£]?\s*$/iu.test(
    before,
  );
}

/** Whether "or more" / "or above" / "oder mehr" follows the figure ending at `end` (a threshold). */
export function comparisonAfter(text: string, end: number): boolean {
  return /^\s*(?:or more|or above|or less|or below|oder mehr|oder darüber|oder weniger)/iu.test(
    text.slice(end, end + 20),
  );
}

/**
 * The fiscal year a clause names (`FY2024`, `in 2024`, `im Jahr 2024`), when it names exactly
 * one; a bare 1900–2100 ("1900 shares") is not a year here.
 */
export function periodOf(clause: string): string | undefined {
  const years = new Set(
    [
      ...clause.matchAll(
        /(?:\bFY\s?|\b(?:in|im|for|für|fiscal|year|jahr|since|seit)\s+)((?:19|20)\d{2})(?![\d%])/giu,
      ),
    ].map((m) => m[1]),
  );
  return years.size === 1 ? `FY${[...years][0]}` : undefined;
}

/**
 * The metrics named in a clause, nearest to the figure first (by the characters between them;
 * on a tie the word after the figure first: "2 **positions**", "10 **shares**").
 */
export function metricsByDistance(clause: Clause): Metric[] {
  const gap = (m: { start: number; end: number }) =>
    m.end <= clause.figureStart ? clause.figureStart - m.end + 0.5 : m.start - clause.figureEnd;
  const ordered = [
    ...new Set(
      findMetricMentions(clause.text)
        .filter((m) => m.end <= clause.figureStart || m.start >= clause.figureEnd)
        .sort((a, b) => gap(a) - gap(b))
        .map((m) => m.metric),
    ),
  ];
  // "4 of 7 criteria pass": the status word is the claim, "criteria" only what is counted.
  const status = ordered.filter((m) => m.startsWith('criteria_'));
  return status.length > 0 ? [...status, ...ordered.filter((m) => !status.includes(m))] : ordered;
}
