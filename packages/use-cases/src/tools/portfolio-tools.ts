import type { CashPosition, Holding } from '@svc/portfolio';
import { PortfolioId } from '@svc/schemas';
import { z } from 'zod';
import { PerformanceQuery, PortfolioPerformance } from '../portfolio/performance-schemas.js';
import { ChangeListQuery, PortfolioChange, TransactionPage } from '../portfolio/schemas.js';
import { defineTool } from './definition.js';
import {
  amountsOutput,
  CASH_REDACTION,
  CHANGE_REDACTION,
  HOLDING_REDACTION,
  McpCashPosition,
  McpHolding,
  McpPortfolio,
  PORTFOLIO_REDACTION,
} from './money-redaction.js';

/** Reads of stored rows: no side effect, same answer until the data changes, no outside world. */
const STORED_READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** Most transactions one `listTransactions` call returns (the newest). */
export const TOOL_TRANSACTION_LIMIT = 50;

/**
 * A read tool's answer made once per flow answer: a memoised flow answer (frozen, see
 * `createReadMemo`) served again gives the same frozen answer object, whose JSON text and
 * output-schema check the MCP server keeps per object; an answer that is not frozen is made anew.
 */
function oncePerAnswer<S extends object, A extends object>(make: (source: S) => A) {
  const made = new WeakMap<S, A>();
  return (source: S): A => {
    if (!Object.isFrozen(source)) return make(source);
    let answer = made.get(source);
    if (answer === undefined) {
      answer = Object.freeze(make(source));
      made.set(source, answer);
    }
    return answer;
  };
}

const holdingsAnswer = oncePerAnswer((holdings: Holding[]) => ({ holdings }));
const cashAnswer = oncePerAnswer((cash: CashPosition[]) => ({ cash }));
const transactionsAnswer = oncePerAnswer((page: TransactionPage) => ({
  items: page.items,
  truncated: page.nextCursor !== null,
}));

const PortfolioFilter = z.object({
  portfolioId: PortfolioId.optional().describe(
    "One of the user's portfolio ids; default all of the user's portfolios",
  ),
});

/**
 * `listPortfolios {}`: the user's portfolios, oldest first. Answers `{ portfolios }` (an answer
 * must be an object); without `portfolio:values` the realised P&L is left out.
 */
export const listPortfolios = defineTool({
  name: 'listPortfolios',
  title: 'List portfolios',
  description:
    "The user's portfolios (id, name, base currency, creation time, realised P&L), oldest " +
    'first. Without the portfolio:values scope the realised P&L is left out.',
  input: z.object({}),
  output: amountsOutput('portfolios', McpPortfolio),
  annotations: STORED_READ,
  scopes: ['portfolio:read'],
  surfaces: ['mcp', 'advisor'],
  redactUnless: PORTFOLIO_REDACTION,
  run: async (flows, actor) => ({ portfolios: await flows.portfolios.listPortfolios(actor.id) }),
  summarize: ({ portfolios }) => `${portfolios.length} portfolio(s)`,
});

/** `listHoldings {portfolioId?}`: stored holdings; another user's portfolio id is `not_found`. */
export const listHoldings = defineTool({
  name: 'listHoldings',
  title: 'List holdings',
  description:
    'Holdings with their stored values: quantity, average cost, last price, market value and ' +
    'unrealized P&L in EUR, and weight. Optionally limited to one portfolio. Without the ' +
    'portfolio:values scope the money fields are left out (quantities and weights remain).',
  input: PortfolioFilter,
  output: amountsOutput('holdings', McpHolding),
  annotations: STORED_READ,
  scopes: ['portfolio:read'],
  surfaces: ['mcp', 'advisor'],
  redactUnless: HOLDING_REDACTION,
  run: async (flows, actor, { portfolioId }) =>
    holdingsAnswer(await flows.portfolios.listHoldings(actor.id, { portfolioId })),
  summarize: ({ holdings }) => `${holdings.length} holding(s)`,
});

/** `listCash {portfolioId?}`: stored cash positions per currency. */
export const listCash = defineTool({
  name: 'listCash',
  title: 'List cash positions',
  description:
    'Cash positions per currency with their stored EUR amount. Optionally limited to one ' +
    'portfolio. Without the portfolio:values scope the amounts are left out.',
  input: PortfolioFilter,
  output: amountsOutput('cash', McpCashPosition),
  annotations: STORED_READ,
  scopes: ['portfolio:read'],
  surfaces: ['mcp', 'advisor'],
  redactUnless: CASH_REDACTION,
  run: async (flows, actor, { portfolioId }) =>
    cashAnswer(await flows.portfolios.listCash(actor.id, { portfolioId })),
  summarize: ({ cash }) => `${cash.length} cash position(s)`,
});

/** `listTransactions {portfolioId?, from?, to?}` (advisor only): the newest 50. */
export const listTransactions = defineTool({
  name: 'listTransactions',
  title: 'List transactions',
  description: `The newest transactions (at most ${TOOL_TRANSACTION_LIMIT}).`,
  input: PortfolioFilter.extend({
    from: z.string().max(40).optional().describe('Day YYYY-MM-DD or ISO date-time, inclusive'),
    to: z.string().max(40).optional().describe('Day YYYY-MM-DD or ISO date-time, inclusive'),
  }),
  output: z.object({
    items: TransactionPage.shape.items,
    truncated: z.boolean().describe('More transactions match than were returned'),
  }),
  annotations: STORED_READ,
  scopes: ['portfolio:read', 'portfolio:values'],
  surfaces: ['advisor'],
  run: async (flows, actor, args) => {
    const page = await flows.portfolios.listTransactions(actor.id, {
      ...args,
      limit: TOOL_TRANSACTION_LIMIT,
    });
    return transactionsAnswer(page);
  },
  summarize: ({ items }) => `${items.length} transaction(s)`,
});

/**
 * `getPortfolioPerformance {portfolioId, period?, from?, to?, series?}` (issue 20): the flow of
 * `GET /api/portfolios/{id}/performance`.
 */
export const getPortfolioPerformance = defineTool({
  name: 'getPortfolioPerformance',
  title: 'Get portfolio performance',
  description:
    'Time-weighted (TWR) and money-weighted (XIRR) returns of a portfolio in EUR, as fractions ' +
    'with their basis (cumulative or annualised), the currency effect apart, income and costs, ' +
    'and the same per holding. period: 1M, 3M, YTD, 1Y, 3Y, inception (default) or custom ' +
    'with from/to (YYYY-MM-DD). A return needing a missing price or rate is unavailable with ' +
    'the reason and first missing date, never 0. Its answer carries amounts in EUR, so it ' +
    'needs portfolio:values as well as portfolio:read.',
  input: PerformanceQuery.extend({ portfolioId: PortfolioId }),
  // Unnamed at the top: an output schema must be an object, not a $ref.
  output: z.object(PortfolioPerformance.shape),
  annotations: STORED_READ,
  scopes: ['portfolio:read', 'portfolio:values'],
  surfaces: ['mcp', 'advisor'],
  run: (flows, actor, { portfolioId, ...query }) =>
    flows.portfolios.getPerformance(actor.id, portfolioId, query),
  summarize: ({ from, to, returns }) =>
    `${from}–${to}: TWR ${returns.twr.status === 'ok' ? returns.twr.value : 'unavailable'}`,
});

/**
 * `listPortfolioChanges {portfolioId, cursor?, limit?}` (issue 30): the journal of a portfolio's
 * ledger, newest first, as `GET /api/portfolios/{id}/changes` answers it. Read-only: reverting
 * is the user's (REST) or a confirmed advisor proposal. Without `portfolio:values` the
 * summaries (which name amounts) are left out.
 */
export const listPortfolioChanges = defineTool({
  name: 'listPortfolioChanges',
  title: 'List portfolio changes',
  description:
    "The changes of a portfolio's ledger, newest first: each recorded, edited, deleted or " +
    'imported transaction and each revert, with its source (rest, advisor, account-import), ' +
    'instant, number of transactions and the revert that took it back, if any. Pass nextCursor ' +
    'as cursor for older ones. Without the portfolio:values scope the summaries (which name ' +
    'amounts) are left out.',
  input: z.object({ portfolioId: PortfolioId, ...ChangeListQuery.shape }),
  output: z.object({
    changes: z.array(PortfolioChange.partial({ summary: true })),
    nextCursor: z.string().nullable().describe('Pass as cursor for older changes; null at the end'),
    amountsHidden: z
      .literal(true)
      .optional()
      .describe('Present when the token lacks portfolio:values: the summaries are left out'),
  }),
  annotations: STORED_READ,
  scopes: ['portfolio:read'],
  surfaces: ['mcp', 'advisor'],
  redactUnless: CHANGE_REDACTION,
  run: async (flows, actor, { portfolioId, ...query }) => {
    const page = await flows.portfolios.listChanges(actor.id, portfolioId, query);
    return { changes: page.items, nextCursor: page.nextCursor };
  },
  summarize: ({ changes }) => `${changes.length} change(s)`,
});
