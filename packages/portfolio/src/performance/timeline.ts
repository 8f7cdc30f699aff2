import { PortfolioError } from '../errors.js';
import { fromEpochDay, toEpochDay } from './calendar.js';
import { Walk } from './daily-walk.js';
import { toEvents } from './ledger-events.js';
import {
  MAX_PRICE_AGE_DAYS,
  RESUME_WINDOW_DAYS,
  type Timeline,
  type TimelineCheckpoint,
  type TimelineInputs,
} from './types.js';

/**
 * Values a portfolio and each of its holdings on every calendar day from the day before its first
 * transaction to `inputs.end`, and records each day's external flows, dividends and fees, so that
 * any period's returns are read off the arrays ({@link measurePeriod}) without replaying the
 * ledger.
 *
 * Method (daily valuation, the basis GIPS requires for time-weighted returns since 2010 and the
 * CFA Institute's "true" TWR approximates by valuing on every external flow):
 * - end-of-day value = Σ units × close (in the holding's currency, a close in another currency
 *   cross-converted through EUR) ÷ EUR rate + Σ cash ÷ EUR rate; closes and ECB rates on or
 *   before the day, at most `maxAgeDays` old (a weekend, a holiday), never interpolated;
 * - portfolio flows are external only: deposits and withdrawals (basis `recorded`), or, when the
 *   ledger records none, the shortfall of each purchase not covered by cash in its currency
 *   (basis `implicit`). Buys, sells, dividends and fees move value inside the portfolio;
 * - a holding's flows are its buys (in: units × price + fee), sells (out: units × price − fee),
 *   dividends (out: income paid to the portfolio) and fee transactions naming it (in);
 * - a day's return is `(V_end + outflows) / (V_start + inflows) − 1`: inflows at the start of
 *   the day, outflows at its end (the daily method of Portfolio Performance), so a first deposit
 *   and a sale to zero have a defined return;
 * - the local (currency-neutral) daily return values the day's closes, cash and flows at the
 *   previous day's EUR rates; a holding's local return is the same formula in its own currency.
 *
 * Arithmetic is binary floating point (IEEE 754 doubles): relative error ~1e-15 per step, far
 * below the 2-decimal money and the fractions reported; exact decimals stay in `deriveHoldings`.
 *
 * @throws PortfolioError `invalid_argument` when `end` is not a `YYYY-MM-DD` day;
 *   `invalid_transaction` for a malformed transaction.
 * @example
 * ```ts
 * const timeline = buildTimeline({ transactions, prices, eurRates, end: '2024-03-01' });
 * measurePeriod(timeline, timeline.portfolio, resolvePeriod({ period: '1Y' }, timeline));
 * ```
 */
export function buildTimeline(inputs: TimelineInputs): Timeline {
  return walkTimeline(inputs);
}

/**
 * The timeline of the same ledger to a later `inputs.end`, reusing `previous` (from
 * {@link buildTimeline} or this function) up to its checkpoint, {@link RESUME_WINDOW_DAYS} before
 * its end: only the days after it are walked, so the next day's timeline costs a few days, not
 * the whole history. `inputs.prices` and `inputs.eurRates` need to cover those days only (from
 * {@link resumeDataFrom}). Answers null when `previous` cannot be extended and the caller must
 * {@link buildTimeline} with every day's data: no checkpoint, another `maxAgeDays`, an end before
 * the previous one, or a transaction dated after the previous end that changes how external flows
 * are found (the first deposit or withdrawal) or buys a symbol not held before.
 *
 * `inputs.transactions` must be the ledger `previous` was built from (the caller keys timelines
 * by a ledger version); its transactions dated after the previous end may now fall inside.
 *
 * @throws PortfolioError as {@link buildTimeline}.
 */
export function extendTimeline(previous: Timeline, inputs: TimelineInputs): Timeline | null {
  const checkpoint = previous.checkpoint;
  const sameTolerance = (inputs.maxAgeDays ?? MAX_PRICE_AGE_DAYS) === previous.maxAgeDays;
  if (!checkpoint || !sameTolerance || inputs.end < previous.end) return null;
  return walkTimeline(inputs, { previous, checkpoint });
}

/**
 * The first day (`YYYY-MM-DD`) whose closes and rates {@link extendTimeline} reads when it extends
 * `previous`: the checkpoint day less the tolerance and a day; null when it would build from
 * scratch (no checkpoint), which reads every day.
 */
export function resumeDataFrom(previous: Timeline): string | null {
  if (!previous.checkpoint) return null;
  return fromEpochDay(previous.firstDay + previous.checkpoint.index - previous.maxAgeDays - 1);
}

function walkTimeline(inputs: TimelineInputs): Timeline;
function walkTimeline(
  inputs: TimelineInputs,
  resume: { previous: Timeline; checkpoint: TimelineCheckpoint },
): Timeline | null;
function walkTimeline(
  inputs: TimelineInputs,
  resume?: { previous: Timeline; checkpoint: TimelineCheckpoint },
): Timeline | null {
  const endDay = toEpochDay(inputs.end);
  if (endDay === undefined) {
    throw new PortfolioError('invalid_argument', `end must be YYYY-MM-DD, got ${inputs.end}`);
  }
  const maxAgeDays = inputs.maxAgeDays ?? MAX_PRICE_AGE_DAYS;
  // the same ledger when extending (the caller's contract): its events, when the previous walk
  // had them all (none dated after its end), are not read again
  const events = resume?.checkpoint.ledger ?? toEvents(inputs.transactions, endDay);
  const complete = events.length === inputs.transactions.length ? events : undefined;
  const firstDay = (events[0]?.day ?? endDay + 1) - 1;
  const length = Math.max(1, endDay - firstDay + 1);
  const previous = resume?.previous;
  const implicit = !events.some((e) => e.type === 'deposit' || e.type === 'withdrawal');
  const resumable =
    previous !== undefined &&
    previous.firstDay === firstDay &&
    (previous.cashFlowBasis === 'implicit') === implicit;
  if (resume && !resumable) return null;
  const walk = new Walk(inputs, events, firstDay, length, resume);
  // a holding first bought after the previous end: attributions of earlier days may differ
  if (previous && walk.holdings.size !== previous.holdings.size) return null;
  const checkpointAt = length - 1 - RESUME_WINDOW_DAYS;
  let checkpoint: TimelineCheckpoint | undefined;
  for (let i = walk.start; i < length; i++) {
    walk.day(i);
    if (i === checkpointAt) checkpoint = walk.checkpoint(i, complete);
  }
  if (checkpoint === undefined && resumable && checkpointAt >= 0) {
    // the new checkpoint falls inside the reused days: keep the one resumed from
    checkpoint = resume?.checkpoint;
  }
  const sorted = [...walk.holdings.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    firstDay,
    length,
    cashFlowBasis: walk.implicit ? 'implicit' : 'recorded',
    portfolio: walk.portfolio,
    holdings: new Map(sorted.map(([key, h]) => [key, h.track])),
    end: fromEpochDay(endDay),
    maxAgeDays,
    ...(checkpoint === undefined ? {} : { checkpoint }),
  };
}
