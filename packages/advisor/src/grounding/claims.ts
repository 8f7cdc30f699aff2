import { type Figure, FigureScan } from './figures.js';
import { MENTION, type Metric, metricOfField, metricOfMention } from './metrics.js';
import { CharScan, lowerBound, RegexScan, SCAN_MARGIN, type ScanMatch } from './scan.js';
import {
  CLAUSE_WINDOW,
  comparisonOf,
  countedNoun,
  directionOf,
  isDuration,
  isRate,
  isTotal,
  namesMedian,
  namesThreshold,
  quoteAt,
  SEPARATOR,
  wordBefore,
  YEAR,
} from './text.js';

/** A figure of an answer with what it is said to be. */
export interface Claim {
  readonly figure: Figure;
  /** Metrics named near it, nearest first (empty: the figure names no metric). */
  readonly metrics: Metric[];
  /** The subject it is about (a known subject, `?Name` for an unknown one), or null: not said. */
  readonly subject: string | null;
  /** The fiscal year its clause names, e.g. `FY2024`. */
  readonly period?: string;
  /** `total`: a denominator or maximum ("4 of **7** criteria", "max **87.5** points"). */
  readonly role?: 'total';
  /** After a comparison (`≥ 15%`, "above 40", "or more"): a threshold. */
  readonly threshold: boolean;
  /** The comparison it is the threshold of: the fact must be above (`>`) or below (`<`) it. */
  readonly comparison?: '>' | '<';
  /** Its clause names a rule ("trigger", "threshold", "requires"): it may state a rule's threshold. */
  readonly reference?: boolean;
  /** The words leading to it and itself ({@link quoteAt}), for a comparison: a rule repeated word for word. */
  readonly quote?: string;
  /** `median`: said to be a multi-year aggregate ("median", "average"), never a single year. */
  readonly aggregate?: 'median';
  /** The size of a change in this direction ("grew 12%", "declined 9.5% a year"). */
  readonly direction?: 'up' | 'down';
  /** A percentage per year ("9.5%/yr", "a year"): a growth rate, not a level. */
  readonly rate?: true;
  /**
   * What a bare whole number counts ("10 **brands**"); with no metric named, only a count of that
   * thing grounds it.
   */
  readonly counted?: string;
}

/** Mentions most looked at on each side of a figure (the nearest ones decide). */
const NEAREST = 6;
/** Characters gathered before the text is read again (see {@link ClaimReader.push}). */
const READ_STEP = 64;
/** The work of reading one claim, counted as characters (its bounded neighbourhood). */
const CLAIM_WORK = 256;

/** Upper-case words that look like tickers but are not. */
const NOT_TICKERS = new Set(
  'USD EUR GBP CHF JPY FY EBIT EBITDA SEC CEO CFO ETF NAIC PDF CSV AI OK NOPAT SGA DCA US EU NYSE NASDAQ XETRA LSE TTM YTD PER KGV BPA'.split(
    ' ',
  ),
);
/** Capitalised possessives that are not companies ("The company's", "Today's"). */
const NOT_NAMES = new Set(
  'the this that its it today company company’s year portfolio moat market firm business group stock share fund index world nation country management investor investors user your my our their his her buffett munger graham dorsey greenwald morningstar clark town lynch fisher mckinsey sec inc inc. corp corp. corporation co co. ltd ltd. plc ag se sa nv'.split(
    ' ',
  ),
);
/**
 * Capitalised words that start a sentence before "is"/"has" without naming a company ("There is",
 * "Growth was", "Il a", "Es ist"): never an unknown subject.
 */
const NOT_SUBJECTS = new Set(
  'there here what which who whose he she we they you i one each every all both none nothing everything something growth valuation verdict total overall result results outlook performance dividend dividends yield price margin return revenue income equity capital cash trend risk strength per kgv peg roic eps bpa fcf ebit this these those such so also but and or if while since because however il elle on ce cela ceci ça es er sie das dies diese dieser wir ihr man él ella ello esto eso esta este lui lei esso essa questo questa ciò hij zij ze het dit dat wij ele ela isso isto este esta'.split(
    ' ',
  ),
);

const UNKNOWN_TICKER = /(?<![\p{L}\d])([A-Z]{2,5}(?:[.-][A-Z])?)(?=['’]s\b|\))/gu;
const POSSESSIVE = /(?<![\p{L}\d])(\p{Lu}[\p{L}&.-]{1,30})['’]s\b/gu;
/**
 * A capitalised name (not an all-capitals acronym: "of GAAP") after "for", "at", "of"… ("ROIC of
 * 26.5% for Apple", "bei Nestlé").
 */
const NAME_AFTER =
  /(?<=(?<![\p{L}\d])(?:[Ff]or|[Aa]t|[Oo]f|[Bb]y|[Ff]rom|[Aa]bout|[Ff]ür|[Bb]ei|[Vv]on|[Pp]our|[Cc]hez|[Pp]ara|[Pp]er|[Vv]oor|[Bb]ij|[Vv]an)\s+)(\p{Lu}\p{Ll}[\p{L}&.-]{0,29})(?![\p{L}\d])/gu;
/**
 * A capitalised name followed by a verb of having or being ("Apple has", "Apple reports", "Nestlé
 * hat", "Danone a"): the subject of its sentence even when it names no company of the facts.
 */
const NAMED_SUBJECT =
  /(?<![\p{L}\d])(\p{Lu}\p{Ll}[\p{L}&.-]{0,29})(?=\s+(?:has|had|is|was|reports|reported|posts|posted|earns|earned|shows|showed|scores|scored|generates|generated|trades|achieves|achieved|hat|hatte|ist|war|erzielt|erreicht|weist|a|est|affiche|obtient|tiene|es|obtiene|ha|è|ottiene|heeft|is|haalt|tem|é|obtém)(?![\p{L}\d]))/gu;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regex over many names (longest first), or null when there are none. */
function namesRegex(names: string[], flags: string): RegExp | null {
  if (names.length === 0) return null;
  const sorted = [...new Set(names)]
    .map((n) => n.slice(0, 48))
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\d])(?:${sorted.join('|')})(?![\\p{L}\\d])`, flags);
}

interface Subjects {
  readonly known: Set<string>;
  /** Lower-case names (not symbols) of the known subjects. */
  readonly names: Set<string>;
  readonly bySymbol: Map<string, string>;
  readonly byName: Map<string, string>;
  readonly symbols: RegexScan | null;
  readonly nameScan: RegexScan | null;
}

/** Compiled subject regexes by {@link subjectsKey} (a few recent sets: one per turn's facts). */
const COMPILED = new Map<string, { symbols: RegExp | null; names: RegExp | null }>();

function compiled(
  map: ReadonlyMap<string, string[]>,
  bySymbol: Map<string, string>,
  byName: Map<string, string>,
) {
  const key = subjectsKey(map);
  let found = COMPILED.get(key);
  if (!found) {
    found = {
      symbols: namesRegex([...bySymbol.keys()], 'gu'),
      names: namesRegex([...byName.keys()], 'giu'),
    };
    if (COMPILED.size >= 16) COMPILED.delete(COMPILED.keys().next().value as string);
    COMPILED.set(key, found);
  }
  return found;
}

function subjectsOf(map: ReadonlyMap<string, string[]>): Subjects {
  const bySymbol = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const [subject, names] of map) {
    for (const name of names) {
      if (name === subject) bySymbol.set(name, subject);
      else byName.set(name.toLowerCase(), subject);
    }
  }
  const { symbols, names } = compiled(map, bySymbol, byName);
  return {
    known: new Set(map.keys()),
    names: new Set(byName.keys()),
    bySymbol,
    byName,
    symbols: symbols ? new RegexScan(symbols) : null,
    nameScan: names ? new RegexScan(names) : null,
  };
}

/** A fingerprint of a subject map (to notice new subjects or names). */
export function subjectsKey(map: ReadonlyMap<string, string[]>): string {
  let key = '';
  for (const [subject, names] of map) key += `${subject}\u0000${names.join('\u0001')}\u0002`;
  return key;
}

/**
 * Reads the claims of a text as it grows ({@link ClaimReader.push}), each figure once: a figure's
 * claim is read once its clause is complete (a separator, {@link CLAUSE_WINDOW} characters after
 * it, or the end of the text). Every word list is scanned once over the text and looked up by
 * binary search, and each claim reads a bounded neighbourhood, so reading a whole answer is
 * linear in its length whatever it holds (20,000 characters of " 42%" included).
 */
export class ClaimReader {
  #text = '';
  #readAt = 0;
  #final = false;
  #next = 0;
  #subjects: Subjects;
  #subjectsKey: string;
  #subjectReads = 0;
  readonly #figures = new FigureScan();
  readonly #separators = new RegexScan(SEPARATOR);
  readonly #mentions = new RegexScan(MENTION, (m) => metricOfMention(m[0]));
  readonly #years = new RegexScan(YEAR, (m) => m[1]);
  readonly #tickers = new RegexScan(UNKNOWN_TICKER, (m) => m[1]);
  readonly #possessives = new RegexScan(POSSESSIVE, (m) => m[1]);
  // A name ends before a full stop ("shares of MCD." names MCD).
  readonly #named = new RegexScan(NAMED_SUBJECT, (m) => m[1]?.replace(/\.+$/, ''));
  readonly #after = new RegexScan(NAME_AFTER, (m) => m[1]?.replace(/\.+$/, ''));
  readonly #newlines = new CharScan('\n');
  readonly #pipes = new CharScan('|');
  readonly #headers = new Map<number, number>();
  readonly #headerCells = new Map<number, string[]>();
  readonly #columns = new Map<string, { metric: Metric; total: boolean } | null>();

  constructor(subjects: ReadonlyMap<string, string[]> = new Map()) {
    this.#subjects = subjectsOf(subjects);
    this.#subjectsKey = subjectsKey(subjects);
  }

  /** The text so far. */
  get text(): string {
    return this.#text;
  }

  /**
   * Offset before which every figure's claim has been read: text before it can be shown with
   * its marks; a figure at or after it may still be judged.
   */
  get settled(): number {
    const pending = this.#figures.figures[this.#next];
    if (pending) return pending.index;
    // A figure not found yet ends after a digit not scanned yet: text before that digit is settled.
    const from = this.#figures.scanned;
    DIGIT.lastIndex = from;
    const digit = DIGIT.exec(this.#text);
    return digit ? digit.index : this.#text.length;
  }

  /**
   * The work done so far, in characters read by the scans plus a fixed count per claim (each
   * claim reads a bounded neighbourhood): linear in the text, whatever it holds.
   */
  get work(): number {
    const scans = [
      this.#separators,
      this.#mentions,
      this.#years,
      this.#tickers,
      this.#possessives,
      this.#named,
      this.#after,
      this.#newlines,
      this.#pipes,
    ];
    const subjects = [this.#subjects.symbols, this.#subjects.nameScan];
    return (
      this.#figures.read +
      scans.reduce((sum, scan) => sum + scan.read, 0) +
      subjects.reduce((sum, scan) => sum + (scan?.read ?? 0), 0) +
      this.#subjectReads +
      this.#next * CLAIM_WORK
    );
  }

  /** Uses new subjects from now on (the known names are looked for again in the whole text). */
  setSubjects(subjects: ReadonlyMap<string, string[]>): void {
    const key = subjectsKey(subjects);
    if (key === this.#subjectsKey) return;
    this.#subjectsKey = key;
    this.#subjectReads +=
      (this.#subjects.symbols?.read ?? 0) + (this.#subjects.nameScan?.read ?? 0);
    this.#subjects = subjectsOf(subjects);
  }

  /**
   * Adds text; answers the claims it completed. The text is read once at least
   * {@link READ_STEP} characters arrived since the last read (tiny pieces are gathered: each read
   * looks again at the last {@link SCAN_MARGIN} characters, which must not cost more than the
   * pieces themselves).
   */
  push(piece: string): Claim[] {
    this.#text += piece;
    if (this.#text.length - this.#readAt < READ_STEP) return [];
    this.#readAt = this.#text.length;
    return this.#read();
  }

  /** Ends the text; answers the claims left. */
  end(): Claim[] {
    this.#final = true;
    return this.#read();
  }

  #read(): Claim[] {
    const text = this.#text;
    const final = this.#final;
    this.#figures.advance(text, final);
    for (const scan of [this.#separators, this.#mentions, this.#years, this.#tickers]) {
      scan.advance(text, final);
    }
    this.#possessives.advance(text, final);
    this.#named.advance(text, final);
    this.#after.advance(text, final);
    this.#subjects.symbols?.advance(text, final);
    this.#subjects.nameScan?.advance(text, final);
    this.#newlines.advance(text);
    this.#pipes.advance(text);
    const stable = final ? text.length : text.length - SCAN_MARGIN;
    const out: Claim[] = [];
    const figures = this.#figures.figures;
    while (this.#next < figures.length) {
      const figure = figures[this.#next] as Figure;
      const clause = this.#clause(figure);
      if (!final && Math.max(clause.end, figure.end + 32) > stable) break;
      out.push(this.#claim(figure, clause));
      this.#next += 1;
    }
    return out;
  }

  #clause(figure: Figure): { start: number; end: number } {
    const seps = this.#separators.matches;
    const before = seps[lowerBound(seps, figure.index + 1, (s) => s.end) - 1];
    const after = seps[lowerBound(seps, figure.end, (s) => s.index)];
    const start = Math.max(before ? before.end : 0, figure.index - CLAUSE_WINDOW);
    const limit = figure.end + CLAUSE_WINDOW;
    const end = after && after.index < limit ? after.index : Math.min(limit, this.#text.length);
    return { start, end: Math.max(end, figure.end) };
  }

  #claim(figure: Figure, clause: { start: number; end: number }): Claim {
    const text = this.#text;
    const before = text.slice(Math.max(clause.start, figure.index - 48), figure.index);
    const after = text.slice(figure.end, Math.min(clause.end, figure.end + 32));
    const near = text.slice(Math.max(clause.start, figure.index - 64), figure.index) + after;
    const column = this.#tableMetric(figure.index);
    // "over 10 years": a span of time, neither a comparison nor a figure of a metric.
    const span =
      figure.unit === 'plain' &&
      figure.halfUnit === 0.5 &&
      isDuration(after) &&
      SPAN_BEFORE.test(wordBefore(before));
    let metrics = column ? [column.metric] : span ? [] : this.#metricsNear(figure, clause);
    const comparison = span
      ? undefined
      : comparisonOf(before, text.slice(figure.end, figure.end + 20));
    const direction =
      figure.percent || figure.unit === 'currency' ? directionOf(before, after) : undefined;
    // "EPS declined 9.5 %", "EPS +9.5%/yr": the growth of EPS, a trend, not its level.
    const rate = figure.percent && isRate(after);
    const change = direction !== undefined || rate;
    if (change && figure.percent && (metrics[0] === 'eps' || metrics[0] === 'net_income')) {
      metrics = ['eps_growth', ...metrics.filter((m) => m !== 'eps_growth')];
    }
    const period = this.#period(clause);
    const subject = this.#subjectAt(figure.index, clause);
    const counted =
      figure.unit === 'plain' && figure.halfUnit === 0.5 ? countedNoun(after) : undefined;
    const total = isTotal(before) || column?.total === true;
    return {
      figure,
      metrics,
      subject,
      ...(period ? { period } : {}),
      ...(total ? { role: 'total' as const } : {}),
      threshold: comparison !== undefined,
      ...(comparison ? { comparison } : {}),
      ...(comparison && namesThreshold(text.slice(Math.max(0, figure.index - 48), figure.index))
        ? { reference: true }
        : {}),
      ...(comparison ? { quote: quoteAt(text, figure.index, figure.end) } : {}),
      ...(namesMedian(near) ? { aggregate: 'median' as const } : {}),
      ...(direction ? { direction } : {}),
      ...(rate ? { rate: true as const } : {}),
      ...(counted ? { counted } : {}),
    };
  }

  /** The metrics named in the clause, nearest first (ties: the word after the figure first). */
  #metricsNear(figure: Figure, clause: { start: number; end: number }): Metric[] {
    const mentions = this.#mentions.matches;
    const found: { metric: Metric; gap: number }[] = [];
    const firstAfter = lowerBound(mentions, figure.end, (m) => m.index);
    for (let i = firstAfter - 1, n = 0; i >= 0 && n < NEAREST; i -= 1) {
      const m = mentions[i] as ScanMatch;
      if (m.index < clause.start) break;
      if (m.end > figure.index) continue;
      found.push({ metric: m.value as Metric, gap: figure.index - m.end + 0.5 });
      n += 1;
    }
    for (let i = firstAfter, n = 0; i < mentions.length && n < NEAREST; i += 1, n += 1) {
      const m = mentions[i] as ScanMatch;
      if (m.end > clause.end) break;
      found.push({ metric: m.value as Metric, gap: m.index - figure.end });
    }
    const ordered = [...new Set(found.sort((a, b) => a.gap - b.gap).map((f) => f.metric))];
    // "4 of 7 criteria pass": the status word is the claim, "criteria" only what is counted.
    const status = ordered.filter((m) => m.startsWith('criteria_'));
    return status.length > 0 ? [...status, ...ordered.filter((m) => !status.includes(m))] : ordered;
  }

  /** The fiscal year the clause names, when it names exactly one. */
  #period(clause: { start: number; end: number }): string | undefined {
    const years = this.#years.matches;
    let year: string | undefined;
    for (let i = lowerBound(years, clause.start, (m) => m.index), n = 0; n < 8; i += 1, n += 1) {
      const m = years[i];
      if (!m || m.end > clause.end) break;
      const y = m.value;
      if (year !== undefined && y !== year) return undefined;
      year = y;
    }
    return year === undefined ? undefined : `FY${year}`;
  }

  /**
   * The subject of a figure: a subject mentioned in its clause (the last before it, else the
   * first after it), else the last one mentioned before it. Unknown tickers (`XYZ's`, `(XYZ)`)
   * and capitalised possessives that name no known subject (`Apple's`) are unknown subjects.
   */
  #subjectAt(index: number, clause: { start: number; end: number }): string | null {
    const s = this.#subjects;
    const candidates: { index: number; subject: string }[] = [];
    const consider = (m: ScanMatch | undefined, subject: (m: ScanMatch) => string | null) => {
      if (!m) return;
      const name = subject(m);
      if (name !== null) candidates.push({ index: m.index, subject: name });
    };
    const known = (m: ScanMatch) => s.bySymbol.get(m.value) ?? m.value;
    const named = (m: ScanMatch) => s.byName.get(m.value.toLowerCase()) ?? m.value;
    const ticker = (m: ScanMatch) => {
      const word = m.value;
      if (s.known.has(word) || NOT_TICKERS.has(word) || metricOfMention(word)) return null;
      return `?${word}`;
    };
    const possessive = (m: ScanMatch) => {
      const word = m.value.toLowerCase();
      if (NOT_NAMES.has(word) || NOT_SUBJECTS.has(word) || metricOfMention(m.value)) return null;
      if (s.known.has(m.value.toUpperCase())) return m.value.toUpperCase();
      // A known name written otherwise ("McDonalds" for McDONALD): that company.
      for (const name of s.names) {
        if (word.startsWith(name) || name.startsWith(word)) return s.byName.get(name) ?? null;
      }
      return `?${m.value}`;
    };
    const lists: [readonly ScanMatch[], (m: ScanMatch) => string | null][] = [
      [this.#possessives.matches, possessive],
      [this.#named.matches, possessive],
      [this.#after.matches, possessive],
      [this.#tickers.matches, ticker],
      [s.nameScan?.matches ?? [], named],
      [s.symbols?.matches ?? [], known],
    ];
    for (const [matches, subject] of lists) {
      // The last two before (a rejected possessive may hide a known mention) and the first after.
      const at = lowerBound(matches, index, (m) => m.index);
      consider(matches[at - 1], subject);
      consider(matches[at - 2], subject);
      const first = matches[at];
      if (first && first.index < clause.end) consider(first, subject);
    }
    const byIndex = (a: { index: number }, b: { index: number }) => a.index - b.index;
    const before = candidates.filter((c) => c.index < index).sort(byIndex);
    // A known name and an unknown possessive at the same place: the known one.
    const last = (list: typeof candidates) => {
      const top = list.at(-1);
      if (!top) return undefined;
      return (
        list.filter((c) => c.index === top.index).find((c) => !c.subject.startsWith('?')) ?? top
      );
    };
    const ownBefore = last(before.filter((c) => c.index >= clause.start));
    if (ownBefore) return ownBefore.subject;
    const ownAfter = candidates.filter((c) => c.index > index).sort(byIndex)[0];
    if (ownAfter) return ownAfter.subject;
    return last(before)?.subject ?? null;
  }

  /** In a markdown table row: the metric of the figure's column (and whether it is a maximum). */
  #tableMetric(index: number): { metric: Metric; total: boolean } | undefined {
    const text = this.#text;
    const lineStart = this.#newlines.lastBefore(index) + 1;
    if (text[lineStart] !== '|') return undefined;
    const header = this.#headerOf(lineStart);
    let cells = this.#headerCells.get(header);
    if (!cells) {
      const newline = text.indexOf('\n', header);
      cells = text.slice(header, newline < 0 ? undefined : newline).split('|');
      if (newline >= 0) this.#headerCells.set(header, cells);
    }
    const column = this.#pipes.countIn(lineStart, index) - 1;
    const key = `${header}:${column}`;
    let known = this.#columns.get(key);
    if (known === undefined) {
      const cell = (cells[column + 1] ?? '').trim();
      const metric = metricOfField(cell) ?? firstMetric(cell);
      known = metric ? { metric, total: /^max|maximum|höchst/i.test(cell) } : null;
      if (this.#headerCells.has(header)) this.#columns.set(key, known);
    }
    return known ?? undefined;
  }

  /** The first line of the table holding the line at `lineStart` (memoised: each line once). */
  #headerOf(lineStart: number): number {
    const walked: number[] = [];
    let line = lineStart;
    let header: number | undefined;
    for (;;) {
      const memo = this.#headers.get(line);
      if (memo !== undefined) {
        header = memo;
        break;
      }
      walked.push(line);
      if (line === 0) break;
      const previous = this.#newlines.lastBefore(line - 1) + 1;
      if (this.#text[previous] !== '|') break;
      line = previous;
    }
    const top = header ?? (walked.at(-1) as number);
    for (const l of walked) this.#headers.set(l, top);
    return top;
  }
}

const DIGIT = /\d/g;
const SPAN_BEFORE =
  /\b(?:over|for|across|during|within|in|past|last|next|the|über|seit|in den|letzten|vergangenen)\s*$/iu;

const MENTION_ONCE = new RegExp(MENTION.source, 'iu');

function firstMetric(cell: string): Metric | undefined {
  const match = MENTION_ONCE.exec(cell.slice(0, 200));
  return match ? metricOfMention(match[0]) : undefined;
}

/**
 * The figures of `text` ({@link extractFigures}) as claims: the metrics named in the figure's
 * clause (nearest first; in a table, its column's header), the subject (see
 * {@link ClaimReader}), the fiscal year of the clause, and what the words around it say: a
 * denominator or maximum, a threshold and its comparison, a median, the direction of a change,
 * the thing a bare count counts. Linear in the text.
 */
export function findClaims(text: string, subjects: ReadonlyMap<string, string[]>): Claim[] {
  const reader = new ClaimReader(subjects);
  return [...reader.push(text), ...reader.end()];
}
