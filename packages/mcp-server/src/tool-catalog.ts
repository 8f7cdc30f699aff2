/** Names of the MCP tools: interface spec 4.5's, then `getPortfolioPerformance` (issue 20). */
export const MCP_TOOL_NAMES = [
  'listPortfolios',
  'listHoldings',
  'listCash',
  'getMoatEvaluation',
  'generateMoatNarrative',
  'listMoatReports',
  'screenMoat',
  'saveMoatReport',
  'getPortfolioPerformance',
] as const;

/** One of {@link MCP_TOOL_NAMES}. */
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

/** Title and description of a tool, as `tools/list` and the discovery document show them. */
export interface McpToolText {
  readonly title: string;
  readonly description: string;
}

/**
 * Title and description of every tool: the one source for tool registration
 * (`registerTool`) and for the `tools` of `/.well-known/mcp.json`, so the two never disagree.
 */
export const MCP_TOOLS: Readonly<Record<McpToolName, McpToolText>> = {
  listPortfolios: {
    title: 'List portfolios',
    description: "The user's portfolios (id, name, base currency, creation time), oldest first.",
  },
  listHoldings: {
    title: 'List holdings',
    description:
      'Holdings with their stored values: quantity, average cost, last price, market value and ' +
      'unrealized P&L in EUR, and weight. Optionally limited to one portfolio.',
  },
  listCash: {
    title: 'List cash positions',
    description:
      'Cash positions per currency with their stored EUR amount. Optionally limited to one portfolio.',
  },
  getMoatEvaluation: {
    title: 'Get a moat evaluation',
    description:
      'Scores a company against the 8 moat criteria (total out of 100, verdict) with valuation ' +
      'signals. Served from the shared cache (_cached: true) when present; a cache miss or ' +
      'fresh: true fetches SEC fundamentals and consumes one stock_evaluation quota unit.',
  },
  generateMoatNarrative: {
    title: 'Generate a moat narrative',
    description:
      'A markdown narrative (summary, strengths, risks, valuation) of an evaluation given as an ' +
      'object, or of the evaluation of a symbol. Consumes one ai_consult quota unit. ' +
      'Informational only, not financial advice.',
  },
  listMoatReports: {
    title: 'List saved moat reports',
    description: "The user's saved reports, newest first; with tags, those carrying every tag.",
  },
  screenMoat: {
    title: 'Screen cached evaluations',
    description:
      'Filters the cached evaluation universe by score, verdict, sector, industry, P/E and market ' +
      'cap (USD); sorted and paged (limit at most 100). No quota.',
  },
  saveMoatReport: {
    title: 'Save a moat report',
    description:
      "Stores an evaluation in the user's report library with optional tags; pass the evaluation " +
      'as an object (evaluation) or as a JSON string (evaluationJson). Answers { id }.',
  },
  getPortfolioPerformance: {
    title: 'Get portfolio performance',
    description:
      'Time-weighted (TWR) and money-weighted (XIRR) returns of a portfolio in EUR, as fractions ' +
      'with their basis (cumulative or annualised), the currency effect apart, income and costs, ' +
      'and the same per holding. period: 1M, 3M, YTD, 1Y, 3Y, inception (default) or custom ' +
      'with from/to (YYYY-MM-DD). A return needing a missing price or rate is unavailable with ' +
      'the reason and first missing date, never 0.',
  },
};
