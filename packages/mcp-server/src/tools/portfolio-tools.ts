import { PortfolioId } from '@svc/schemas';
import { PerformanceQuery, PortfolioPerformance } from '@svc/use-cases';
import { z } from 'zod';
import type { McpServerDeps } from '../deps.js';
import {
  amountsOutput,
  CASH_REDACTION,
  HOLDING_REDACTION,
  McpCashPosition,
  McpHolding,
  McpPortfolio,
  PORTFOLIO_REDACTION,
} from '../money-redaction.js';
import { MCP_TOOLS } from '../tool-catalog.js';
import type { ToolRegistry } from '../tool-registry.js';
import { runTool } from '../tool-result.js';

/** Reads of stored rows: no side effect, same answer until the data changes, no outside world. */
const STORED_READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const PortfolioFilter = z.object({
  portfolioId: PortfolioId.optional().describe(
    "One of the user's portfolio ids; default all of the user's portfolios",
  ),
});

/*
 * Every schema is a module constant: a server is built per (stateless) request, and zod compiles
 * an object schema on its first parse, so a schema made inside the register function was compiled
 * again on every call (about a fifth of an MCP call's CPU).
 */
const PortfoliosOutput = amountsOutput('portfolios', McpPortfolio);
const HoldingsOutput = amountsOutput('holdings', McpHolding);
const CashOutput = amountsOutput('cash', McpCashPosition);
/** `getPortfolioPerformance` input: the REST query (value series included) plus the portfolio. */
const PerformanceInput = PerformanceQuery.extend({ portfolioId: PortfolioId });
/** The flow's `PortfolioPerformance`, unnamed at the top (an outputSchema must be an object, not a $ref). */
const PerformanceOutput = z.object(PortfolioPerformance.shape);

/**
 * Registers `listPortfolios`, `listHoldings {portfolioId?}` and `listCash {portfolioId?}`
 * (interface spec 4.5): stored values only (EUR values as of the last revaluation), never fetched.
 * Arrays are wrapped in an object (`{ portfolios }`, `{ holdings }`, `{ cash }`) because
 * `structuredContent` must be an object. Another user's portfolio id answers `not_found`. Without
 * the `portfolio:values` scope the money fields are left out (`money-redaction.ts`).
 */
export function registerPortfolioTools(server: ToolRegistry, deps: McpServerDeps): void {
  const { services, actor, toProblem } = deps;
  const { portfolios } = services;

  server.registerTool(
    'listPortfolios',
    {
      ...MCP_TOOLS.listPortfolios,
      outputSchema: PortfoliosOutput,
      redactUnless: PORTFOLIO_REDACTION,
      annotations: STORED_READ,
    },
    () =>
      runTool(toProblem, async () => ({
        portfolios: await portfolios.listPortfolios(actor.id),
      })),
  );

  server.registerTool(
    'listHoldings',
    {
      ...MCP_TOOLS.listHoldings,
      inputSchema: PortfolioFilter,
      outputSchema: HoldingsOutput,
      redactUnless: HOLDING_REDACTION,
      annotations: STORED_READ,
    },
    ({ portfolioId }) =>
      runTool(toProblem, async () => ({
        holdings: await portfolios.listHoldings(actor.id, { portfolioId }),
      })),
  );

  server.registerTool(
    'listCash',
    {
      ...MCP_TOOLS.listCash,
      inputSchema: PortfolioFilter,
      outputSchema: CashOutput,
      redactUnless: CASH_REDACTION,
      annotations: STORED_READ,
    },
    ({ portfolioId }) =>
      runTool(toProblem, async () => ({
        cash: await portfolios.listCash(actor.id, { portfolioId }),
      })),
  );
}

/**
 * Registers `getPortfolioPerformance {portfolioId, period?, from?, to?, series?}` (issue 20): the
 * performance flow of `@svc/use-cases`, the same as `GET /api/portfolios/{id}/performance`.
 * Registered after the spec's tools, so `tools/list` follows `MCP_TOOL_NAMES`.
 */
export function registerPerformanceTool(server: ToolRegistry, deps: McpServerDeps): void {
  const { services, actor, toProblem } = deps;
  const { portfolios } = services;
  server.registerTool(
    'getPortfolioPerformance',
    {
      ...MCP_TOOLS.getPortfolioPerformance,
      inputSchema: PerformanceInput,
      outputSchema: PerformanceOutput,
      annotations: STORED_READ,
    },
    ({ portfolioId, ...query }) =>
      runTool(toProblem, () => portfolios.getPerformance(actor.id, portfolioId, query)),
  );
}
