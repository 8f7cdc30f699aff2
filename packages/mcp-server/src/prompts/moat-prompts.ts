import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { CRITERIA } from '@svc/moat-scoring';
import {
  CRITERION_KEYS,
  CRITERION_MAX_SCORE,
  CriterionKey,
  MAX_TOTAL_SCORE,
  PortfolioId,
  TickerSymbol,
} from '@svc/schemas';
import type { McpServerDeps } from '../deps.js';
import { MCP_PROMPTS } from '../resource-catalog.js';

/* Argument schemas as module constants (built once, whatever the number of servers). */
const EvaluateArgs = { symbol: TickerSymbol };
const ReviewArgs = { portfolioId: PortfolioId.optional() };
const ExplainArgs = {
  criterion: completable(CriterionKey, (value) =>
    CRITERION_KEYS.filter((key) => key.startsWith((value ?? '').trim().toLowerCase())),
  ),
};

const NOT_ADVICE = 'Say that the result is informational only, not financial advice.';

const userText = (text: string): GetPromptResult['messages'][number] => ({
  role: 'user',
  content: { type: 'text', text },
});

/**
 * Registers the prompts of {@link MCP_PROMPTS} on the SDK's `McpServer` (arguments validated by
 * their zod schemas; `explainCriterion`'s `criterion` completes from the 8 criterion keys):
 * - `evaluateCompany {symbol}`: the steps over `getMoatEvaluation` and `compareEvaluations`, with
 *   the cached evaluation embedded as a resource when the symbol is cached (read from the cache
 *   only: building the prompt never fetches nor spends quota);
 * - `reviewPortfolioMoats {portfolioId?}`: holdings, then each holding's cached evaluation;
 * - `explainCriterion {criterion}`: the criterion's name, pass rule and source.
 */
export function registerMoatPrompts(mcp: McpServer, deps: McpServerDeps): void {
  const { services } = deps;
  const { evaluateCompany, reviewPortfolioMoats, explainCriterion } = MCP_PROMPTS;

  mcp.registerPrompt(
    'evaluateCompany',
    { ...evaluateCompany, argsSchema: EvaluateArgs },
    async ({ symbol }) => {
      const ticker = symbol.toUpperCase();
      const messages = [
        userText(
          [
            `Evaluate the durable competitive advantage (moat) of ${ticker}.`,
            `1. Call getMoatEvaluation with {"symbol":"${ticker}"} (the cached evaluation is free; pass fresh: true only if I ask for new figures, it spends one stock_evaluation unit).`,
            `2. Call compareEvaluations with {"symbol":"${ticker}"} to see what changed since the previous evaluation (not_found means fewer than two are kept: skip it).`,
            '3. Explain the total score and verdict, the strongest and weakest criteria with their values, the valuation signals (P/E, sell trigger at 40), and which filings and fiscal years the figures come from.',
            NOT_ADVICE,
          ].join('\n'),
        ),
      ];
      const cached = await services.history.cached(ticker).catch(() => undefined);
      if (cached) {
        messages.push({
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: `moat://evaluations/${encodeURIComponent(cached.symbol)}`,
              mimeType: 'application/json',
              text: JSON.stringify(cached),
            },
          },
        });
      }
      return { description: `Moat evaluation of ${ticker}`, messages };
    },
  );

  mcp.registerPrompt(
    'reviewPortfolioMoats',
    { ...reviewPortfolioMoats, argsSchema: ReviewArgs },
    async ({ portfolioId }) => {
      const scope = portfolioId
        ? `the portfolio ${portfolioId}`
        : 'all my portfolios (listPortfolios names them)';
      const holdingsArgs = portfolioId ? JSON.stringify({ portfolioId }) : '{}';
      return {
        description: `Moat review of ${scope}`,
        messages: [
          userText(
            [
              `Review the moats of the companies I hold in ${scope}.`,
              `1. Call listHoldings with ${holdingsArgs}.`,
              '2. For each holding that is a listed company, call getMoatEvaluation with its symbol, without fresh (cached evaluations cost no quota); note symbols that cannot be evaluated.',
              '3. Make a table: symbol, weight, total score, verdict, P/E, sell trigger. Give the weight-averaged score, and flag holdings with "No Clear Moat Detected", a sell trigger, or a falling score (compareEvaluations, or screenMoat with maxScoreChange -0.01).',
              NOT_ADVICE,
            ].join('\n'),
          ),
        ],
      };
    },
  );

  mcp.registerPrompt(
    'explainCriterion',
    { ...explainCriterion, argsSchema: ExplainArgs },
    async ({ criterion }) => {
      const definition = CRITERIA.find((c) => c.key === criterion);
      const rule = definition
        ? `Its pass rule here: ${definition.benchmark}.`
        : 'Its rule is in the evaluation’s benchmark field.';
      return {
        description: `The ${definition?.name ?? criterion} criterion`,
        messages: [
          userText(
            [
              `Explain the moat criterion "${definition?.name ?? criterion}" (${criterion}) of the ${CRITERION_KEYS.length}-criterion framework (${CRITERION_MAX_SCORE} points each, ${MAX_TOTAL_SCORE} in all; status pass, warning or fail).`,
              rule,
              'Say what it measures, why it signals a durable competitive advantage, how to read its value and trend, and its limits (sectors where it misleads). Use an example from getMoatEvaluation if I name a company.',
            ].join('\n'),
          ),
        ],
      };
    },
  );
}
