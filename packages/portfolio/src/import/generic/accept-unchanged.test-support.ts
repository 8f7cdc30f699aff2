import { normalizeNewlines } from '../csv-records.js';
import { parseBrokerCsv } from '../parse-broker-csv.js';
import { fingerprintRows, planImport } from '../plan-import.js';
import { proposeMapping } from './propose.js';

/**
 * Test support for exports of brokers without a module, the way a user meets them: proposes a
 * mapping for `text`, accepts it unchanged, plans the import into an empty portfolio, and answers
 * the proposal, the holdings (`SYMBOL CUR quantity @ averageCost`, sorted), cash per currency, and
 * the parse and plan. Throws when there is no proposal, or the accepted proposal or the plan
 * fails. `refused` lists the failed checks of a proposal that is not acceptable: an import of it
 * unchanged is refused, so its holdings are what it would have imported had it been confirmed.
 * The catalogue is bypassed (the mapper is asked directly), since it now knows some of these
 * layouts by name.
 */
export function acceptUnchanged(text: string, options: { accountCurrency?: string } = {}) {
  const proposal = proposeMapping(normalizeNewlines(text.replace(/^\uFEFF/, '')), {
    accountCurrency: options.accountCurrency ?? 'EUR',
  });
  if (proposal === undefined) throw new Error('expected a proposal');
  const first = { proposal };
  const parsed = parseBrokerCsv(text, { ...options, mapping: first.proposal.mapping });
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
  const refused = first.proposal.checks.filter((c) => !c.passed).map((c) => c.id);
  return { proposal: first.proposal, holdings, cash, parsed, plan, refused };
}
