import type { GroundingReport, UngroundedFigure } from '../frames.js';
import type { FactSet } from './facts.js';
import { groundText, MAX_REPORTED_FIGURES } from './ground.js';

/** Check again once this many characters arrived after the last check (or at a line end). */
const CHECK_EVERY = 160;

/**
 * Grounds an answer while it streams: {@link LiveGrounding.push} takes each piece of text and
 * answers the figures no fact grounds among the sentences completed since the last check (a
 * sentence is complete at `.`, `!`, `?` before a space, or a line end), so they can be marked
 * where the user reads them; {@link LiveGrounding.finish} grounds the whole answer. At most
 * `max` figures are ever answered by `push` (the report counts the rest).
 */
export class LiveGrounding {
  #text = '';
  #checked = 0;
  #marked = 0;

  constructor(
    private readonly facts: FactSet,
    private readonly max: number = MAX_REPORTED_FIGURES,
  ) {}

  /** Offset up to which the text was checked (what is safe to show with its marks). */
  get checked(): number {
    return this.#checked;
  }

  /** The text so far. */
  get text(): string {
    return this.#text;
  }

  /** Adds text; answers the newly found ungrounded figures of completed sentences. */
  push(piece: string): UngroundedFigure[] {
    this.#text += piece;
    const pending = this.#text.slice(this.#checked);
    if (pending.length < CHECK_EVERY && !pending.includes('\n')) return [];
    let end = -1;
    for (const m of pending.matchAll(/[.!?](?=\s)|\n/g)) end = (m.index ?? 0) + 1;
    if (end < 0) return [];
    return this.#check(this.#checked + end);
  }

  /** Checks what is left unchecked; answers its newly found ungrounded figures. */
  flush(): UngroundedFigure[] {
    return this.#check(this.#text.length);
  }

  /** The report of the whole text. */
  finish(): GroundingReport {
    return groundText(this.#text, this.facts);
  }

  #check(upTo: number): UngroundedFigure[] {
    if (upTo <= this.#checked || this.#marked >= this.max) {
      this.#checked = Math.max(this.#checked, upTo);
      return [];
    }
    const report = groundText(this.#text.slice(0, upTo), this.facts, {
      maxReported: Number.POSITIVE_INFINITY,
    });
    const fresh = report.ungrounded
      .filter((u) => u.index >= this.#checked)
      .slice(0, this.max - this.#marked);
    this.#checked = upTo;
    this.#marked += fresh.length;
    return fresh;
  }
}
