import type { GroundingReport, UngroundedFigure } from '../frames.js';
import type { FactSet } from './facts.js';
import { Grounder, MAX_REPORTED_FIGURES } from './ground.js';

/**
 * Grounds an answer while it streams, each figure once ({@link Grounder}):
 * {@link LiveGrounding.push} takes each piece of text and answers the figures no fact grounds
 * among those it completed (a figure is complete once its clause is: a separator, or 160
 * characters after it), so they can be marked where the user reads them;
 * {@link LiveGrounding.flush} ends the text; {@link LiveGrounding.finish} is the report of the
 * whole answer, without checking anything again. At most `max` figures are ever answered by
 * `push`/`flush` (the report counts the rest). The work is linear in the answer, spread over its
 * pieces: no piece costs more than its own figures.
 */
export class LiveGrounding {
  readonly #grounder: Grounder;
  #marked = 0;
  #ended = false;

  constructor(
    facts: FactSet,
    private readonly max: number = MAX_REPORTED_FIGURES,
  ) {
    this.#grounder = new Grounder(facts, max);
  }

  /** Offset before which every figure was checked (what is safe to show with its marks). */
  get checked(): number {
    return this.#ended ? this.#grounder.text.length : this.#grounder.settled;
  }

  /** The work done so far ({@link Grounder.work}): linear in the answer. */
  get work(): number {
    return this.#grounder.work;
  }

  /** The text so far. */
  get text(): string {
    return this.#grounder.text;
  }

  /** Adds text; answers the newly found ungrounded figures of completed clauses. */
  push(piece: string): UngroundedFigure[] {
    if (this.#ended) throw new Error('LiveGrounding: push after flush');
    return this.#mark(this.#grounder.push(piece));
  }

  /** Ends the text; answers its newly found ungrounded figures (once: later calls answer none). */
  flush(): UngroundedFigure[] {
    if (this.#ended) return [];
    this.#ended = true;
    return this.#mark(this.#grounder.end());
  }

  /** The report of the whole text (ends it first when needed). */
  finish(): GroundingReport {
    this.flush();
    return this.#grounder.report();
  }

  #mark(fresh: UngroundedFigure[]): UngroundedFigure[] {
    const shown = fresh.slice(0, Math.max(0, this.max - this.#marked));
    this.#marked += shown.length;
    return shown;
  }
}
