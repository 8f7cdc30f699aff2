import {
  type CauseFiling,
  type EvaluationRecordSummary,
  type EvaluationTrigger,
  type Executor,
  type HistoryEvaluation,
  insertEvaluationEvent,
  insertKeptEvaluation,
  insertOutboxEvent,
  latestKeptEvaluation,
  lockEvaluationSymbol,
  upsertCachedEvaluation,
} from '@svc/portfolio-store';
import { EVALUATION_CHANGED, type EvaluationChangeEvent } from './evaluation-changes.js';
import { evaluationChange, round } from './evaluation-diff.js';

/** A fresh evaluation to keep (see {@link keepEvaluation}). */
export interface KeepEvaluationInput {
  /**
   * The evaluation as made (`evaluateCompany`), with its provenance fields (`_fiscalYears`,
   * `_provider`, `_filings`) and `_marketCap` (price × shares, reporting currency) when known.
   */
  readonly evaluation: HistoryEvaluation & { readonly _marketCap?: number | null };
  /** What made it: `request` (a user), `fill-cache` (the operator's batch), `filing` (refresh). */
  readonly trigger: EvaluationTrigger;
  /** When it was made: the history's `evaluatedAt`, the cache's `cachedAt`, the event's `timestamp`. */
  readonly evaluatedAt: Date;
  /** The new annual filing that caused it (trigger `filing`), kept with it and named in its event. */
  readonly filing?: CauseFiling | undefined;
}

/** What {@link keepEvaluation} wrote. */
export interface KeptEvaluation {
  /** The history row. */
  readonly record: EvaluationRecordSummary;
  /** The `evaluation.changed` event, when the evaluation differs from the one kept before it. */
  readonly event?: EvaluationChangeEvent;
}

/** A function that keeps fresh evaluations (see {@link keepEvaluation}); what the producers take. */
export type EvaluationKeeper = (input: KeepEvaluationInput) => Promise<KeptEvaluation>;

/**
 * Keeps one fresh evaluation, the one way every producer does (a user's request, the fill, the
 * refresh pass), in ONE unit of work: the history row (with `scoreChange` against the symbol's
 * previous kept evaluation, {@link round}ed), the `evaluation.changed` event when the two differ
 * as CONTRACT §7 counts it (`evaluationChange`: the rule beside the diff, with its `cause`), the
 * same event in the outbox (relayed to the webhook endpoints that want it by the dispatcher), and
 * the cache row. Serialised per symbol (each evaluation is compared with the one kept just before
 * it). On `db` a transaction is opened; given a transaction, everything is written in it (the
 * refresh pass settles its filing in the same one). A fault anywhere leaves none of it written.
 *
 * @throws StoreError `invalid_input` for a value the database rejects; any database error.
 * @example
 * const kept = await keepEvaluation(database.db, { evaluation, trigger: 'request', evaluatedAt });
 * kept.event?.data.cause; // 'data', 'filing' or 'methodology' when it changed
 */
export function keepEvaluation(db: Executor, input: KeepEvaluationInput): Promise<KeptEvaluation> {
  if (!db.isTransaction) return db.transaction().execute((trx) => keepEvaluation(trx, input));
  return keepIn(db, input);
}

async function keepIn(trx: Executor, input: KeepEvaluationInput): Promise<KeptEvaluation> {
  const { evaluatedAt, filing } = input;
  const symbol = input.evaluation.symbol.toUpperCase();
  const evaluation = { ...input.evaluation, symbol };
  await lockEvaluationSymbol(trx, symbol);
  const previous = await latestKeptEvaluation(trx, symbol);
  const record = await insertKeptEvaluation(trx, {
    evaluation,
    scoreChange: previous === undefined ? null : round(evaluation.totalScore - previous.totalScore),
    trigger: input.trigger,
    evaluatedAt,
    cause: filing,
  });
  const data =
    previous === undefined
      ? null
      : evaluationChange(symbol, previous, { ...record, evaluation }, filing);
  let event: EvaluationChangeEvent | undefined;
  if (data !== null) {
    const stored = await insertEvaluationEvent(trx, {
      type: EVALUATION_CHANGED,
      symbol,
      historyId: record.id,
      data,
      at: evaluatedAt,
    });
    await insertOutboxEvent(trx, {
      id: stored.id,
      type: EVALUATION_CHANGED,
      at: evaluatedAt,
      data,
      symbol,
    });
    event = { id: stored.id, type: EVALUATION_CHANGED, timestamp: stored.timestamp, data };
  }
  const marketCap = evaluation._marketCap;
  await upsertCachedEvaluation(trx, evaluation, {
    marketCap: marketCap === null || marketCap === undefined ? null : String(marketCap),
    cachedAt: evaluatedAt,
  });
  return event ? { record, event } : { record };
}
