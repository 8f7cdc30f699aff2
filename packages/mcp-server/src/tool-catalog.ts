import type { TokenScope } from '@svc/use-cases';

/**
 * Names of the MCP tools: the 8 of interface spec 4.5, exactly as it lists them, then the
 * evaluation-history tools of issue 21 (both read-only; scope `moat:read`) and
 * `getPortfolioPerformance` (issue 20).
 */
export const MCP_TOOL_NAMES = [
  'listPortfolios',
  'listHoldings',
  'listCash',
  'getMoatEvaluation',
  'generateMoatNarrative',
  'listMoatReports',
  'screenMoat',
  'saveMoatReport',
  'getEvaluationHistory',
  'compareEvaluations',
  'getPortfolioPerformance',
] as const;

/** One of {@link MCP_TOOL_NAMES}. */
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/**
 * Title, description and required scopes of a tool, as `tools/list` and the discovery document
 * show them. A token without every scope of `scopes` does not see the tool in `tools/list`, and
 * calling it answers an `insufficient_scope` tool error. Spending a quota inside a call needs the
 * quota's scope besides (`QUOTA_SCOPES` of `@svc/use-cases`: `moat:fresh` for
 * `stock_evaluation`, `ai:consult` for `ai_consult`), checked where the quota is spent.
 */
export interface McpToolText {
  readonly title: string;
  readonly description: string;
  /** The token scopes the tool needs (at least one). */
  readonly scopes: readonly TokenScope[];
}

/**
 * Scopes of MCP methods other than `tools/*`, checked at the HTTP layer: a request that calls one
 * without them answers 403 `insufficient_scope` with `WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"` (RFC 6750 §3.1) before any MCP handling. Resources are
 * saved reports and cached evaluations: `moat:read`.
 */
export const MCP_METHOD_SCOPES: Readonly<Record<string, readonly TokenScope[]>> = {
  'resources/list': ['moat:read'],
  'resources/templates/list': ['moat:read'],
  'resources/read': ['moat:read'],
};

/**
 * Title, description and scopes of every tool: the one source for tool registration
 * (`registerTool`) and for the `tools` of `/.well-known/mcp.json`, so the two never disagree.
 */
export const MCP_TOOLS: Readonly<Record<McpToolName, McpToolText>> = {
  listPortfolios: {
    title: 'List portfolios',
    description:
      "The user's portfolios (id, name, base currency, creation time, realised P&L), oldest " +
      'first. Without the portfolio:values scope the realised P&L is left out.',
    scopes: ['portfolio:read'],
  },
  listHoldings: {
    title: 'List holdings',
    description:
      'Holdings with their stored values: quantity, average cost, last price, market value and ' +
      'unrealized P&L in EUR, and weight. Optionally limited to one portfolio. Without the ' +
      'portfolio:values scope the money fields are left out (quantities and weights remain).',
    scopes: ['portfolio:read'],
  },
  listCash: {
    title: 'List cash positions',
    description:
      'Cash positions per currency with their stored EUR amount. Optionally limited to one ' +
      'portfolio. Without the portfolio:values scope the amounts are left out.',
    scopes: ['portfolio:read'],
  },
  getMoatEvaluation: {
    title: 'Get a moat evaluation',
    description:
      'Scores a company against the 8 moat criteria (total out of 100, verdict) with valuation ' +
      'signals. Served from the shared cache (_cached: true) when present; a cache miss or ' +
      'fresh: true fetches SEC fundamentals and consumes one stock_evaluation quota unit.',
    scopes: ['moat:read'],
  },
  generateMoatNarrative: {
    title: 'Generate a moat narrative',
    description:
      'A markdown narrative (summary, strengths, risks, valuation) of an evaluation given as an ' +
      'object, or of the evaluation of a symbol. Consumes one ai_consult quota unit. ' +
      'Informational only, not financial advice.',
    scopes: ['ai:consult'],
  },
  listMoatReports: {
    title: 'List saved moat reports',
    description: "The user's saved reports, newest first; with tags, those carrying every tag.",
    scopes: ['moat:read'],
  },
  screenMoat: {
    title: 'Screen cached evaluations',
    description:
      'Filters the cached evaluation universe by score, verdict, sector, industry, P/E and market ' +
      'cap (USD); sorted and paged (limit at most 100). No quota.',
    scopes: ['moat:read'],
  },
  saveMoatReport: {
    title: 'Save a moat report',
    description:
      "Stores an evaluation in the user's report library with optional tags; pass the evaluation " +
      'as an object (evaluation) or as a JSON string (evaluationJson). Answers { id }.',
    scopes: ['reports:write'],
  },
  getEvaluationHistory: {
    title: 'List the kept evaluations of a company',
    description:
      'Every fresh evaluation of a company, newest first and paged: total, verdict, change since ' +
      'the previous one, and the provider, fiscal years and SEC filings (accession numbers, filed ' +
      'dates) it was built from. Shared by all users; no quota.',
    scopes: ['moat:read'],
  },
  compareEvaluations: {
    title: 'Compare two evaluations of a company',
    description:
      'What moved between two kept evaluations (ids from getEvaluationHistory, or none for the ' +
      'latest against the previous): total and verdict change, each criterion’s score, value and ' +
      'status, the yearly figures that changed and the filings behind them, and a summary. No quota.',
    scopes: ['moat:read'],
  },
  getPortfolioPerformance: {
    title: 'Get portfolio performance',
    description:
      'Time-weighted (TWR) and money-weighted (XIRR) returns of a portfolio in EUR, as fractions ' +
      'with their basis (cumulative or annualised), the currency effect apart, income and costs, ' +
      'and the same per holding. period: 1M, 3M, YTD, 1Y, 3Y, inception (default) or custom ' +
      'with from/to (YYYY-MM-DD). A return needing a missing price or rate is unavailable with ' +
      'the reason and first missing date, never 0. Its answer carries amounts in EUR, so it ' +
      'needs portfolio:values as well as portfolio:read.',
    scopes: ['portfolio:read', 'portfolio:values'],
  },
};
