import { PortfolioError } from '../errors.js';
import { toEpochDay } from './calendar.js';
import { Walk } from './daily-walk.js';
import { toEvents } from './ledger-events.js';
import type { Timeline, TimelineInputs } from './types.js';

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
  const endDay = toEpochDay(inputs.end);
  if (endDay === undefined) {
    throw new PortfolioError('invalid_argument', `end must be YYYY-MM-DD, got ${inputs.end}`);
  }
  const events = toEvents(inputs.transactions, endDay);
  const firstDay = (events[0]?.day ?? endDay + 1) - 1;
  const length = Math.max(1, endDay - firstDay + 1);
  const walk = new Walk(inputs, events, firstDay, length);
  for (let i = 0; i < length; i++) walk.day(i);
  const sorted = [...walk.holdings.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    firstDay,
    length,
    cashFlowBasis: walk.implicit ? 'implicit' : 'recorded',
    portfolio: walk.portfolio,
    holdings: new Map(sorted.map(([key, h]) => [key, h.track])),
  };
}
