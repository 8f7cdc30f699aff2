import { extractFigures, type Figure } from './figures.js';
import { findMetricMentions, type Metric, metricOfField } from './metrics.js';
import {
  clauseAround,
  comparisonAfter,
  comparisonBefore,
  metricsByDistance,
  periodOf,
} from './text.js';

/** A figure of an answer with what it is said to be. */
export interface Claim {
  readonly figure: Figure;
  /** Metrics named near it, nearest first (empty: the figure names no metric). */
  readonly metrics: Metric[];
  /** The subject it is about (a known subject, `?XYZ` for an unknown ticker), or null: not said. */
  readonly subject: string | null;
  /** The fiscal year its clause names, e.g. `FY2024`. */
  readonly period?: string;
  /** `total`: after "of"/"out of"/"von"/"/" ("4 of **7** criteria"). */
  readonly role?: 'total';
  /** After a comparison (`≥ 15%`, "above 40"): a threshold, which may be any threshold fact. */
  readonly threshold: boolean;
}

const NOT_TICKERS = new Set(
  'USD EUR GBP CHF JPY FY EBIT EBITDA SEC CEO CFO ETF NAIC PDF CSV AI OK NOPAT SGA DCA US EU'.split(
    ' ',
  ),
);

interface Mention {
  readonly subject: string;
  readonly index: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex over many names (longest first), or null when there are none. */
function namesRegex(names: string[], flags: string): RegExp | null {
  if (names.length === 0) return null;
  const sorted = [...new Set(names)].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\d])(?:${sorted.join('|')})(?![\\p{L}\\d])`, flags);
}

/** Mentions of the known subjects (symbols case-sensitive, names not) and of unknown tickers. */
function subjectMentions(text: string, subjects: ReadonlyMap<string, string[]>): Mention[] {
  const out: Mention[] = [];
  const bySymbol = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const [subject, names] of subjects) {
    for (const name of names) {
      if (name === subject) bySymbol.set(name, subject);
      else byName.set(name.toLowerCase(), subject);
    }
  }
  const symbols = namesRegex([...bySymbol.keys()], 'gu');
  const names = namesRegex([...byName.keys()], 'giu');
  for (const m of symbols ? text.matchAll(symbols) : []) {
    out.push({ subject: bySymbol.get(m[0]) ?? m[0], index: m.index ?? 0 });
  }
  for (const m of names ? text.matchAll(names) : []) {
    out.push({ subject: byName.get(m[0].toLowerCase()) ?? m[0], index: m.index ?? 0 });
  }
  const known = new Set(subjects.keys());
  for (const m of text.matchAll(/(?<![\p{L}\d])([A-Z]{2,5}(?:[.-][A-Z])?)(?=['’]s\b|\))/gu)) {
    const word = m[1] ?? '';
    if (known.has(word) || NOT_TICKERS.has(word) || findMetricMentions(word).length > 0) continue;
    out.push({ subject: `?${word}`, index: m.index ?? 0 });
  }
  return out.sort((a, b) => a.index - b.index);
}

function subjectAt(
  text: string,
  index: number,
  clause: { start: number; end: number },
  mentions: readonly Mention[],
): string | null {
  const before = mentions.filter((m) => m.index < index);
  const inClause = mentions.filter((m) => m.index >= clause.start && m.index < clause.end);
  const ownBefore = inClause.filter((m) => m.index < index).at(-1);
  const ownAfter = inClause.find((m) => m.index > index);
  if (ownBefore ?? ownAfter) return (ownBefore ?? ownAfter)?.subject ?? null;
  const paragraphStart = text.lastIndexOf('\n\n', index);
  const inParagraph = before.filter((m) => m.index > paragraphStart);
  return (inParagraph.at(-1) ?? before.at(-1))?.subject ?? null;
}

/** In a markdown table row: the metric of the figure's column, read from the header row. */
function tableMetric(text: string, index: number): Metric | undefined {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  if (!text.startsWith('|', lineStart)) return undefined;
  let header = lineStart;
  for (;;) {
    const previous = text.lastIndexOf('\n', header - 2) + 1;
    if (header === 0 || !text.startsWith('|', previous)) break;
    header = previous;
  }
  const column = (text.slice(lineStart, index).match(/\|/g) ?? []).length - 1;
  const newline = text.indexOf('\n', header);
  const headerLine = text.slice(header, newline < 0 ? undefined : newline);
  const cell = (headerLine.split('|')[column + 1] ?? '').trim();
  return metricOfField(cell) ?? findMetricMentions(cell)[0]?.metric;
}

/**
 * The figures of `text` ({@link extractFigures}) as claims: the metrics named in the figure's
 * clause (nearest first; in a table, its column's header), the subject mentioned last before it
 * (in its paragraph, else earlier; a ticker not among `subjects` is an unknown subject), the
 * fiscal year of the clause, and whether it is a denominator ("of 7") or a threshold ("≥ 15%").
 */
export function findClaims(text: string, subjects: ReadonlyMap<string, string[]>): Claim[] {
  const mentions = subjectMentions(text, subjects);
  return extractFigures(text).map((figure) => {
    const clause = clauseAround(text, figure.index, figure.end);
    const column = tableMetric(text, figure.index);
    const metrics = column ? [column] : metricsByDistance(clause);
    const before = clause.text.slice(0, clause.figureStart);
    const period = periodOf(clause.text);
    return {
      figure,
      metrics,
      subject: subjectAt(
        text,
        figure.index,
        { start: clause.start, end: clause.start + clause.text.length },
        mentions,
      ),
      ...(period ? { period } : {}),
      ...(/\d\s*(?:out of|of|von|\/)\s*$/iu.test(before) ? { role: 'total' as const } : {}),
      threshold:
        comparisonBefore(text, figure.index, clause.start) || comparisonAfter(text, figure.end),
    };
  });
}
