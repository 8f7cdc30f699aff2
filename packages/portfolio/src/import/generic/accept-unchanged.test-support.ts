import { parseBrokerCsv } from '../parse-broker-csv.js';
import { fingerprintRows, planImport } from '../plan-import.js';

/**
 * Test support for hand-made exports of brokers without a module: proposes a mapping for `text`,
 * accepts it unchanged, plans the import into an empty portfolio, and answers the proposal, the
 * holdings (`SYMBOL CUR quantity @ averageCost`, sorted), cash per currency, and the parse and plan.
 * Throws when there is no proposal, or the accepted proposal or the plan fails.
 */
export function acceptUnchanged(text: string) {
  const first = parseBrokerCsv(text);
  if (first.ok || first.proposal === undefined) throw new Error('expected a proposal');
  const parsed = parseBrokerCsv(text, { mapping: first.proposal.mapping });
  if (!parsed.ok) throw new Error(`accepted proposal fails: ${JSON.stringify(parsed.errors)}`);
  const plan = planImport({
    existing: [],
    existingFingerprints: new Set(),
    rows: fingerprintRows('mapped', parsed.rows),
  });
  if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
  const holdings = plan.after.holdings
    .map((h) => `${h.symbol} ${h.currency} ${h.quantity} @ ${h.averageCost}`)
    .sort();
  const cash = Object.fromEntries(plan.after.cash.map((c) => [c.currency, c.amount]));
  return { proposal: first.proposal, holdings, cash, parsed, plan };
}
