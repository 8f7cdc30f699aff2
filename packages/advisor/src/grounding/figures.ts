import { SCAN_MARGIN } from './scan.js';

/** A figure printed in a text, as {@link extractFigures} finds it. */
export interface Figure {
  /** The figure as printed, e.g. `$1.2B`, `(3.4)%`, `1.234,5`. */
  text: string;
  /** UTF-16 offset in the text. */
  index: number;
  /** Possible values (locale separators can be read two ways), suffix and sign applied. */
  values: number[];
  /** Half a unit of the last printed digit, in the value's unit (the rounding allowance). */
  halfUnit: number;
  /** A percentage (`%`, `pp`, `Prozent`) or basis points converted to percent. */
  percent: boolean;
  /**
   * The unit as printed: `percent` (`%`, `Prozent`, basis points), `pp` (percentage points),
   * `currency` (a symbol or ISO code), `multiple` (`18x`, `×`) or `plain` (a bare number).
   */
  unit: FigureUnit;
  /** ISO 4217 code of a `currency` figure (`$` → USD, `€` → EUR, `£` → GBP, `¥` → JPY). */
  currency?: string;
  /** UTF-16 offset just after the figure. */
  end: number;
}

/** How a figure is printed: see {@link Figure.unit}. */
export type FigureUnit = 'percent' | 'pp' | 'currency' | 'multiple' | 'plain';

const SYMBOL_CODES: Record<string, string> = {
  $: 'USD',
  us$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
};

function currencyCode(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const t = raw.trim().toLowerCase();
  return SYMBOL_CODES[t] ?? t.toUpperCase();
}

const SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  tsd: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  million: 1e6,
  millions: 1e6,
  mio: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  billions: 1e9,
  mrd: 1e9,
  milliarden: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
  trillions: 1e12,
};

const CURRENCY = String.raw`(?:[$€£¥]|(?:US\$|USD|EUR|GBP|CHF|JPY|CAD|AUD|CNY|SEK|NOK|DKK)\s?)`;
// Bounded repetitions: a figure is at most ~80 characters (a longer digit run is read as several),
// which the incremental scan relies on (`SCAN_MARGIN`).
const NUMBER = String.raw`\d{1,3}(?:[,.\u00A0\u202F' ]\d{3}){1,6}(?:[.,]\d{1,12})?|\d{1,24}(?:[.,]\d{1,12})?`;
const SUFFIX = String.raw`\s?%|\s?(?:percent(?:age points)?|per cent|prozent|pp|bps|bp|x|×)(?![\p{L}\d])|\s?(?:thousand|tsd\.?|millions?|mio\.?|mm|mn|billions?|milliarden|mrd\.?|trillions?|tn|bn|[kmbt])(?![\p{L}\d])`;
const TRAILING_CODE = String.raw`(?:\s?(?<code>USD|EUR|GBP|CHF|JPY|CAD|AUD|CNY|SEK|NOK|DKK)(?![\p{L}]))?`;
const FIGURE = new RegExp(
  String.raw`(?<![\p{L}\d.,_/])(?<open>\()?(?<sign>[-−–])?(?<cur>${CURRENCY})?(?<sign2>[-−])?(?<num>${NUMBER})(?<suffix>${SUFFIX})?${TRAILING_CODE}(?<close>\))?`,
  'giu',
);

/** Readings of a number with locale separators: `1,234.5`, `1.234,5`, `45,0`, `1,234`. */
function readings(raw: string): { value: number; decimals: number }[] {
  const s = raw.replace(/[\u00A0\u202F' ]/g, '');
  const commas = (s.match(/,/g) ?? []).length;
  const dots = (s.match(/\./g) ?? []).length;
  const asDecimal = (text: string, sep: string) => {
    const [int = '', frac = ''] = text.split(sep);
    return { value: Number(`${int}.${frac}`), decimals: frac.length };
  };
  if (commas === 0 && dots === 0) return [{ value: Number(s), decimals: 0 }];
  if (commas > 0 && dots > 0) {
    const decimalSep = s.lastIndexOf(',') > s.lastIndexOf('.') ? ',' : '.';
    const group = decimalSep === ',' ? '.' : ',';
    return [asDecimal(s.split(group).join(''), decimalSep)];
  }
  const sep = commas > 0 ? ',' : '.';
  const count = commas + dots;
  const grouped = { value: Number(s.split(sep).join('')), decimals: 0 };
  if (count > 1) return [grouped];
  const after = s.length - s.indexOf(sep) - 1;
  // One separator: `1,234` is a thousand in English and 1.234 in German; keep both readings.
  return after === 3 ? [grouped, asDecimal(s, sep)] : [asDecimal(s, sep)];
}

/** Spans that are not claims: ISO dates, list numbers at a line start, ordinals, "5-year". */
function blankNonClaims(text: string): string {
  const blank = (m: string) => ' '.repeat(m.length);
  return text
    .replace(/\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?/g, blank)
    .replace(
      /^(\s*(?:[#>*-]\s*)*)(\d{1,2}[.)])(?=\s)/gm,
      (_m, lead: string, n: string) => lead + blank(n),
    )
    .replace(/\b\d+(?:st|nd|rd|th)\b/gi, blank)
    .replace(/\b\d+(?=-(?:year|yr|month|day|week|quarter|k|q|jahres)\b)/gi, blank);
}

function isYear(num: string, suffix: string | undefined, cur: string | undefined): boolean {
  return !suffix && !cur && /^\d{4}$/.test(num) && Number(num) >= 1900 && Number(num) <= 2100;
}

/** The figure of one match of {@link FIGURE} in `scan` (offsets shifted by `shift`), or null. */
function figureOf(text: string, match: RegExpExecArray, shift: number): Figure | null {
  const g = match.groups ?? {};
  const num = g.num ?? '';
  if (num === '' || isYear(num, g.suffix, g.cur)) return null;
  const suffix = (g.suffix ?? '').trim().toLowerCase().replace(/\.$/, '');
  const scale = SCALES[suffix] ?? 1;
  const bps = suffix === 'bp' || suffix === 'bps';
  const percent =
    bps ||
    suffix === '%' ||
    suffix === 'pp' ||
    suffix.startsWith('percent') ||
    suffix === 'per cent' ||
    suffix === 'prozent';
  const negative = Boolean(g.sign || g.sign2 || (g.open && g.close));
  const values = readings(num).map((r) => {
    const v = (bps ? r.value / 100 : r.value) * scale;
    return { value: negative ? -v : v, decimals: r.decimals };
  });
  const first = values[0];
  if (!first || values.some((v) => !Number.isFinite(v.value))) return null;
  const step = (bps ? 0.01 : 1) * scale * 10 ** -first.decimals;
  const start = match.index + shift;
  // An opening parenthesis without its closing one is punctuation, not a negative sign.
  const skip = g.open && !g.close ? 1 : 0;
  const printed = text.slice(start + skip, start + match[0].length).trim();
  const lead = skip + match[0].slice(skip).length - match[0].slice(skip).trimStart().length;
  const currency = currencyCode(g.cur ?? g.code);
  const unit: FigureUnit = percent
    ? suffix === 'pp'
      ? 'pp'
      : 'percent'
    : currency
      ? 'currency'
      : suffix === 'x' || suffix === '×'
        ? 'multiple'
        : 'plain';
  return {
    text: printed,
    index: start + lead,
    values: values.map((v) => v.value),
    halfUnit: step / 2,
    percent,
    unit,
    ...(currency ? { currency } : {}),
    end: start + lead + printed.length,
  };
}

/** Characters before the scan position re-read for context (a date or "5-year" around a figure). */
const CONTEXT = 48;

/**
 * The figures of a text that grows at its end ({@link extractFigures} piece by piece): each
 * part of the text is read once (a figure is taken once the characters after it are known), so
 * the work is linear in the text, however the pieces are cut.
 */
export class FigureScan {
  /** The figures found so far, in order. */
  readonly figures: Figure[] = [];
  /** Characters read so far (a work count: linear in the text). */
  read = 0;
  #from = 0;

  /** Offset before which every figure was found (a figure may still start at or after it). */
  get scanned(): number {
    return this.#from;
  }

  /** Reads what `text` added since the last call (`final`: the text is complete). */
  advance(text: string, final: boolean): void {
    const stable = final ? text.length : text.length - SCAN_MARGIN;
    if (stable <= this.#from) return;
    const windowStart = Math.max(0, this.#from - CONTEXT);
    this.read += text.length - windowStart;
    // A window that starts mid-line must not read as a line start (list numbers "1.").
    const lead = windowStart === 0 || text[windowStart - 1] === '\n' ? '' : '\u0001';
    const scan = blankNonClaims(lead + text.slice(windowStart));
    const shift = windowStart - lead.length;
    FIGURE.lastIndex = this.#from - shift;
    for (;;) {
      const match = FIGURE.exec(scan);
      if (!match) {
        this.#from = Math.max(this.#from, stable);
        return;
      }
      const end = match.index + match[0].length + shift;
      if (end > stable) {
        this.#from = Math.max(this.#from, Math.min(match.index + shift, stable));
        return;
      }
      const figure = figureOf(text, match, shift);
      if (figure) this.figures.push(figure);
      this.#from = end;
    }
  }
}

/**
 * The figures printed in `text`: percentages (`%`, `pp`, `bp`), amounts with a currency symbol or
 * ISO code and a scale suffix (`K`, `M`, `B`/`bn`, `T`, `million`, `Mrd.`…), multiples (`18x`),
 * negatives with a minus or in parentheses, and locale separators (`1,234.5`, `1.234,5`). Not
 * claims, so skipped: years 1900–2100, ISO dates, ordinals (`3rd`), list numbers at a line start
 * (`1.`), and durations like `5-year`. Linear in the text (see {@link FigureScan}).
 */
export function extractFigures(text: string): Figure[] {
  const scan = new FigureScan();
  scan.advance(text, true);
  return scan.figures;
}
