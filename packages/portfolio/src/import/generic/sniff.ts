import { parse } from 'csv-parse/sync';
import { fold, hasWord } from './fold.js';
import { HEADER_WORDS } from './header-words.js';

/** A CSV delimiter the importer reads. */
export type Delimiter = ',' | ';' | '\t' | '|';

const DELIMITERS: readonly Delimiter[] = [',', ';', '\t', '|'];
const SCAN_LINES = 40;
const ALL_WORDS = Object.values(HEADER_WORDS).flatMap((words) => words.map(([word]) => word));

/** Where a file's table starts: its delimiter and the 1-based line of its header row. */
export interface TableStart {
  readonly delimiter: Delimiter;
  readonly headerLine: number;
  /** Why this row: how many of its cells are header words, how many rows below share its width. */
  readonly evidence: string;
}

function cellsOf(line: string, delimiter: Delimiter): string[] {
  try {
    const [record] = parse(line, { delimiter, relax_quotes: true, relax_column_count: true });
    return (record ?? []).map((c: string) => c.trim());
  } catch {
    return line.split(delimiter).map((c) => c.trim().replace(/^"|"$/g, ''));
  }
}

const filled = (cells: readonly string[]) => cells.filter((c) => c !== '').length;

/** How much a row looks like a header: text cells, header words among them, none numeric. */
function headerScore(cells: readonly string[]): { score: number; words: number } {
  let score = 0;
  let words = 0;
  for (const cell of cells) {
    if (cell === '') continue;
    if (/^[-+(]?[\d.,:/ \-€$£%]+\)?$/.test(cell)) return { score: -1, words: 0 };
    const folded = fold(cell);
    if (folded.length < 2 || cell.length > 60) continue;
    score += 1;
    if (ALL_WORDS.some((word) => folded === word || hasWord(folded, word))) words += 1;
  }
  return { score: score + 2 * words, words };
}

/**
 * Finds the header row below any preamble (account, extraction date, a title, blank lines): each
 * of the first 40 lines is read with each delimiter and scored by its text cells (header words of
 * `HEADER_WORDS` count three times), times the share of the next ten lines that have as many
 * cells (one more or less: a trailing delimiter). At least three cells; the earliest best wins.
 * `undefined` when no line qualifies.
 */
export function findTableStart(text: string): TableStart | undefined {
  const lines = text.split('\n', SCAN_LINES + 12);
  let best: (TableStart & { score: number }) | undefined;
  for (const delimiter of DELIMITERS) {
    const widths = lines.map((line) => (line.trim() === '' ? 0 : cellsOf(line, delimiter).length));
    for (let i = 0; i < Math.min(lines.length, SCAN_LINES); i++) {
      const cells = cellsOf(lines[i] ?? '', delimiter);
      if (filled(cells) < 3) continue;
      const { score, words } = headerScore(cells);
      if (score <= 0) continue;
      const below = widths.slice(i + 1, i + 11).filter((w) => w > 0);
      if (below.length === 0) continue;
      const alike = below.filter((w) => Math.abs(w - cells.length) <= 1).length / below.length;
      const total = score * alike;
      if (best === undefined || total > best.score) {
        const evidence = `line ${i + 1}: ${words} of ${filled(cells)} cells are header words; ${Math.round(alike * 100)}% of the rows below have its width`;
        best = { delimiter, headerLine: i + 1, evidence, score: total };
      }
    }
  }
  if (best === undefined) return undefined;
  const { score: _score, ...start } = best;
  return start;
}

/** `text` with the lines before `headerLine` blanked, so that rows keep their line numbers. */
export function fromLine(text: string, headerLine: number): string {
  if (headerLine <= 1) return text;
  const lines = text.split('\n');
  return lines.map((line, i) => (i < headerLine - 1 ? '' : line)).join('\n');
}
