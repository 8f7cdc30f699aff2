import { CashPosition, Holding, Portfolio } from '@svc/portfolio';
import { z } from 'zod';
import type { TokenScope } from '../accounts/scopes.js';

/** The scope that shows money amounts. */
const VALUES_SCOPE: TokenScope = 'portfolio:values';

/** Money fields of each portfolio record (left out without `portfolio:values`). */
const HOLDING_AMOUNTS = [
  'averageCost',
  'lastPrice',
  'marketValue',
  'marketValueEur',
  'costBasisEur',
  'unrealizedPnlEur',
  'realizedPnlEur',
] as const;
const CASH_AMOUNTS = ['amount', 'amountEur'] as const;
const PORTFOLIO_AMOUNTS = ['realizedPnlEur'] as const;

const optional = <const K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, true])) as { [P in K]: true };

const AMOUNTS_HIDDEN = z
  .literal(true)
  .optional()
  .describe('Present when the token lacks portfolio:values: the money fields are left out');

/**
 * The records as the tools answer them: money fields optional, so that the one output schema holds
 * with and without `portfolio:values` (weights, quantities and currencies stay).
 */
export const McpHolding = Holding.partial(optional(HOLDING_AMOUNTS));
/** A cash position as MCP answers it: `amount` and `amountEur` optional. */
export const McpCashPosition = CashPosition.partial(optional(CASH_AMOUNTS));
/** A portfolio as MCP answers it (`realizedPnlEur` is optional already). */
export const McpPortfolio = Portfolio.extend({});

/** `{ <key>: records, amountsHidden? }`, the output of a portfolio read tool. */
export function amountsOutput<K extends string, S extends z.ZodType>(key: K, record: S) {
  return z.object({ [key]: z.array(record), amountsHidden: AMOUNTS_HIDDEN } as {
    [P in K]: z.ZodArray<S>;
  } & { amountsHidden: typeof AMOUNTS_HIDDEN });
}

function without(record: unknown, keys: readonly string[]): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const copy: Record<string, unknown> = { ...(record as Record<string, unknown>) };
  for (const key of keys) delete copy[key];
  return copy;
}

/**
 * The `redactUnless` of a portfolio read tool (see `ScopeRedaction`): without `portfolio:values`,
 * the money fields of every record under `key` are left out and `amountsHidden: true` is added.
 */
function redactAmounts(key: string, keys: readonly string[]) {
  return {
    scope: VALUES_SCOPE,
    redact: (structured: Record<string, unknown>) => {
      const records = structured[key];
      const kept = Array.isArray(records) ? records.map((r) => without(r, keys)) : records;
      return { ...structured, [key]: kept, amountsHidden: true };
    },
  };
}

/** Without `portfolio:values`: holdings without prices, costs, values and P&L. */
export const HOLDING_REDACTION = redactAmounts('holdings', HOLDING_AMOUNTS);
/** Without `portfolio:values`: cash positions without balances. */
export const CASH_REDACTION = redactAmounts('cash', CASH_AMOUNTS);
/** Without `portfolio:values`: portfolios without realised P&L. */
export const PORTFOLIO_REDACTION = redactAmounts('portfolios', PORTFOLIO_AMOUNTS);

/**
 * Without `portfolio:values`: a portfolio's changes without their `summary` (it names the
 * amounts each change wrote); kinds, sources, instants and counts remain.
 */
export const CHANGE_REDACTION = redactAmounts('changes', ['summary']);
