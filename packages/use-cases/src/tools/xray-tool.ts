import { PortfolioId, PortfolioXray, XrayHolding } from '@svc/schemas';
import { z } from 'zod';
import { defineTool, type ScopeRedaction } from './definition.js';

/**
 * The X-ray as a token without `portfolio:values` gets it (REST and MCP alike): the EUR amounts
 * (`valueEur` of the portfolio and of each holding) left out and `amountsHidden: true`; weights,
 * evaluations and reasons remain.
 */
export const XrayAnswer = PortfolioXray.extend({
  valueEur: PortfolioXray.shape.valueEur.optional(),
  holdings: z.array(XrayHolding.partial({ valueEur: true })),
  amountsHidden: z
    .literal(true)
    .optional()
    .describe('Present when the token lacks portfolio:values: the EUR amounts are left out'),
});

/** The X-ray as a caller with or without `portfolio:values` gets it (see {@link XrayAnswer}). */
export type XrayAnswer = z.infer<typeof XrayAnswer>;

/** Without `portfolio:values`: the X-ray without its EUR amounts (see {@link XrayAnswer}). */
export const XRAY_REDACTION: ScopeRedaction = {
  scope: 'portfolio:values',
  redact: ({ valueEur: _total, holdings, ...rest }) => ({
    ...rest,
    holdings: Array.isArray(holdings)
      ? holdings.map(({ valueEur: _value, ...holding }: Record<string, unknown>) => holding)
      : holdings,
    amountsHidden: true,
  }),
};

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
    "the user's quota and listed in pending (ask again later). Without the portfolio:values " +
    'scope the EUR amounts are left out (weights remain). For a question across the holdings ' +
    '(which have a moat, which are past the sell trigger, where the money sits) call this once ' +
    'instead of getMoatEvaluation per holding. Informational only.',
  input: z.object({ portfolioId: PortfolioId.describe("One of the user's portfolio ids") }),
  output: XrayAnswer,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  scopes: ['portfolio:read', 'moat:read'],
  surfaces: ['mcp', 'advisor'],
  redactUnless: XRAY_REDACTION,
  run: (flows, actor, { portfolioId }) => flows.xray.getXray(actor, portfolioId),
  summarize: (xray) =>
    `${xray.holdings.length} holding(s), ${xray.holdings.filter((h) => h.evaluation).length} rated` +
    (xray.pending.length > 0 ? `, ${xray.pending.length} pending` : ''),
});
