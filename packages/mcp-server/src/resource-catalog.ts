import { CRITERION_KEYS } from '@svc/schemas';

/** A resource template the server lists and reads (`resources/templates/list`, `resources/read`). */
export interface McpResourceText {
  /** RFC 6570 template of the resource URIs. */
  readonly uriTemplate: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: 'application/json' | 'text/markdown';
}

/**
 * The resource templates: the user's saved reports and the shared cached evaluations, each as
 * JSON and as markdown. The one source for registration (`registerResource`) and for the
 * `resources` of `/.well-known/mcp.json`. Scope: `moat:read` (`MCP_METHOD_SCOPES`).
 */
export const MCP_RESOURCES = {
  moatReport: {
    uriTemplate: 'moat://reports/{id}',
    title: 'Saved moat report',
    description:
      "One of the user's saved reports with its evaluation (JSON). Only the token owner's reports " +
      'are listed or readable.',
    mimeType: 'application/json',
  },
  moatReportMarkdown: {
    uriTemplate: 'moat://reports/{id}/markdown',
    title: 'Saved moat report (markdown)',
    description: "One of the user's saved reports as a markdown table of its criteria.",
    mimeType: 'text/markdown',
  },
  cachedEvaluation: {
    uriTemplate: 'moat://evaluations/{symbol}',
    title: 'Cached moat evaluation',
    description:
      'The cached evaluation of a company (JSON), shared by all users; reading never fetches or ' +
      'spends quota. The 100 highest-scoring are listed; any cached symbol is readable.',
    mimeType: 'application/json',
  },
  cachedEvaluationMarkdown: {
    uriTemplate: 'moat://evaluations/{symbol}/markdown',
    title: 'Cached moat evaluation (markdown)',
    description: 'The cached evaluation of a company as markdown: criteria, valuation, filings.',
    mimeType: 'text/markdown',
  },
} as const satisfies Record<string, McpResourceText>;

/** An argument of a prompt, as `prompts/list` shows it. */
interface McpPromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

/** Title, description and arguments of a prompt. */
export interface McpPromptText {
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly McpPromptArgument[];
}

/**
 * The prompts (ready-made tasks for the agent): the one source for registration
 * (`registerPrompt`) and for the `prompts` of `/.well-known/mcp.json`.
 */
export const MCP_PROMPTS = {
  evaluateCompany: {
    title: 'Evaluate a company',
    description:
      'Score a company on the 8 moat criteria, say what changed since its previous evaluation and ' +
      'which filings the figures come from (the cached evaluation is attached when there is one).',
    arguments: [{ name: 'symbol', description: 'Ticker symbol, e.g. AAPL', required: true }],
  },
  reviewPortfolioMoats: {
    title: "Review my portfolio's moats",
    description:
      'Evaluate the moat of every holding (cached evaluations, no quota unless asked), weigh them ' +
      'by position and flag weak or falling ones.',
    arguments: [
      {
        name: 'portfolioId',
        description: 'A portfolio id (listPortfolios); default all portfolios',
        required: false,
      },
    ],
  },
  explainCriterion: {
    title: 'Explain a moat criterion',
    description: `What one of the ${CRITERION_KEYS.length} criteria measures, its pass rule and source, and how to read it.`,
    arguments: [
      {
        name: 'criterion',
        description: 'A criterion key (completable), e.g. return_on_invested_capital',
        required: true,
      },
    ],
  },
} as const satisfies Record<string, McpPromptText>;
