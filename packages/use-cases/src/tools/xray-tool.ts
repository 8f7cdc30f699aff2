import { PortfolioId, PortfolioXray } from '@svc/schemas';
import { z } from 'zod';
import { defineTool } from './definition.js';

/**
 * `getPortfolioXray {portfolioId}` (issue 38, CONTRACT §9): the flow of
 * `GET /api/portfolios/{id}/xray`, for agents and the advisor in one call instead of one
 * `getMoatEvaluation` per holding.
 */
export const getPortfolioXray = defineTool({
  name: 'getPortfolioXray',
  title: 'Get a portfolio moat X-ray',
  description:
    'Per holding of one portfolio: its instrument, its weight and value in EUR, its cached moat ' +
    'evaluation (total, verdict, date, data-quality flags) and valuation signals (P/E, forward ' +
    'P/E, PEG, payout, sell trigger), or the reason it has none (fund, unresolved, pending, ' +
    'quota, …). For the portfolio: the EUR share per verdict band and unrated, the value-weighted ' +
    'score, the holdings past the sell trigger, concentration (largest, top 5, Herfindahl). ' +
    'Reads the evaluation cache only; missing evaluations are filled in the background within ' +
    "the user's quota and listed in pending (ask again later). Informational only.",
  input: z.object({ portfolioId: PortfolioId.describe("One of the user's portfolio ids") }),
  output: PortfolioXray.extend({}),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  scopes: ['portfolio:read', 'moat:read'],
  surfaces: ['mcp', 'advisor'],
  run: (flows, actor, { portfolioId }) => flows.xray.getXray(actor, portfolioId),
  summarize: (xray) =>
    `${xray.holdings.length} holding(s), ${xray.holdings.filter((h) => h.evaluation).length} rated` +
    (xray.pending.length > 0 ? `, ${xray.pending.length} pending` : ''),
});
