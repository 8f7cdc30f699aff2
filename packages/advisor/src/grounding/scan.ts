/**
 * Incremental scanning of a growing text: each regex runs once over each part of the text (a
 * match is taken only once the characters after it are known), so scanning a whole answer piece
 * by piece costs the same as scanning it once — linear in its length.
 */

/** Characters at the end of a growing text that may still change a match (longest match + context). */
export const SCAN_MARGIN = 96;

/** A match kept by a {@link RegexScan}: where it starts and ends, and what it says. */
export interface ScanMatch {
  readonly index: number;
  readonly end: number;
  /** The scan's reading of the match (by default the matched text). */
  readonly value: string;
}

/**
 * Runs one global regex over a text that grows at its end. A match is kept when it ends at least
 * {@link SCAN_MARGIN} characters before the current end (or the text is final), so every match
 * is found once, as a scan of the whole text would find it, provided no match is longer than
 * the margin and the regex looks at most a few characters around a match.
 */
export class RegexScan {
  readonly matches: ScanMatch[] = [];
  /** Characters handed to the regex so far (a work count: linear in the text when all is well). */
  read = 0;
  #from = 0;
  readonly #regex: RegExp;

  readonly #read: (match: RegExpExecArray) => string | undefined;

  /**
   * `regex` must be global; it is shared (its `lastIndex` is set on every use). `read` turns a
   * match into the value kept (undefined: the match is not kept); only that value is held.
   */
  constructor(regex: RegExp, read: (match: RegExpExecArray) => string | undefined = (m) => m[0]) {
    if (!regex.global) throw new Error('RegexScan needs a global regex');
    this.#regex = regex;
    this.#read = read;
  }

  /** Scans what `text` added since the last call (`final`: the text is complete). */
  advance(text: string, final: boolean): void {
    const stable = final ? text.length : text.length - SCAN_MARGIN;
    if (stable <= this.#from) return;
    this.read += text.length - this.#from;
    const regex = this.#regex;
    regex.lastIndex = this.#from;
    for (;;) {
      const match = regex.exec(text);
      if (!match) {
        this.#from = Math.max(this.#from, stable);
        return;
      }
      const end = match.index + match[0].length;
      if (end > stable) {
        this.#from = Math.max(this.#from, Math.min(match.index, stable));
        return;
      }
      const value = this.#read(match);
      if (value !== undefined) this.matches.push({ index: match.index, end, value });
      this.#from = end;
      if (match[0].length === 0) regex.lastIndex += 1;
    }
  }

  /** Forgets every match and scans again from the start (the regex changed its meaning). */
  reset(): void {
    this.matches.length = 0;
    this.#from = 0;
  }
}

/** Index of the first item whose `key` is ≥ `value` in `items` sorted by key (binary search). */
export function lowerBound<T>(
  items: readonly T[],
  value: number,
  key: (item: T) => number,
): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (key(items[mid] as T) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Positions of one character in a growing text, found once each. */
export class CharScan {
  readonly positions: number[] = [];
  /** Characters looked at so far. */
  read = 0;
  #from = 0;

  constructor(private readonly char: string) {}

  /** Scans what `text` added since the last call. */
  advance(text: string): void {
    this.read += text.length - this.#from;
    for (
      let at = text.indexOf(this.char, this.#from);
      at >= 0;
      at = text.indexOf(this.char, at + 1)
    ) {
      this.positions.push(at);
    }
    this.#from = text.length;
  }

  /** How many of the positions are in `[from, to)`. */
  countIn(from: number, to: number): number {
    const id = (n: number) => n;
    return lowerBound(this.positions, to, id) - lowerBound(this.positions, from, id);
  }

  /** The last position before `index`, or -1. */
  lastBefore(index: number): number {
    const at = lowerBound(this.positions, index, (n) => n) - 1;
    return at >= 0 ? (this.positions[at] as number) : -1;
  }
}
