import type { AdvisorTool, ToolOutcome } from '@svc/advisor';
import type { EvaluationCacheRepository } from '@svc/portfolio-store';
import { TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import type { Actor, EvaluationService } from '../evaluation-service.js';
import { PerformanceQuery } from '../portfolio/performance-schemas.js';
import type { PortfolioService } from '../portfolio/portfolio-service.js';
import type { QuoteService } from '../portfolio/quote-service.js';
import type { ReportService } from '../reports.js';
import { ScreenerQuery, type ScreenerService } from '../screener.js';

/** The flows the advisor's read tools call (the same objects the REST routes use). */
export interface ReadToolDeps {
  readonly portfolios: Pick<
    PortfolioService,
    'listPortfolios' | 'listHoldings' | 'listCash' | 'listTransactions' | 'getPerformance'
  >;
  readonly quotes: Pick<QuoteService, 'getQuote'>;
  readonly evaluations: Pick<EvaluationService, 'getEvaluation'>;
  /** The shared evaluation cache, read without fetching. */
  readonly evaluationCache: Pick<EvaluationCacheRepository, 'get'>;
  readonly screener: Pick<ScreenerService, 'screen'>;
  readonly reports: Pick<ReportService, 'list'>;
}

/** Who the tools act for, and what the user wrote last (for the fresh-evaluation rule). */
export interface ToolScope {
  readonly actor: Actor;
  /** The content of the last user message of the turn. */
  readonly lastUserMessage: string;
}

/** Most transactions one tool call returns. */
export const TOOL_TRANSACTION_LIMIT = 50;

const PortfolioFilter = z.strictObject({
  portfolioId: z
    .string()
    .max(100)
    .optional()
    .describe('One of the user’s portfolio ids; default all'),
});

const Ticker = TickerSymbol;

/** A tool whose run is typed by its zod parameters. */
function tool<S extends z.ZodType>(
  name: string,
  description: string,
  parameters: S,
  run: (args: z.output<S>) => Promise<ToolOutcome>,
): AdvisorTool {
  return { name, description, parameters, run: (args) => run(args as z.output<S>) } as AdvisorTool;
}

/**
 * True when the user's own last message names `symbol` (as a word, any case): only then may the
 * advisor fetch an evaluation that costs the user a `stock_evaluation` unit. A model, or text in
 * an attachment, cannot spend the user's quota on a symbol the user did not ask about.
 */
export function userAskedFor(symbol: string, lastUserMessage: string): boolean {
  const escaped = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${escaped}($|[^A-Za-z0-9])`, 'i').test(lastUserMessage);
}

/**
 * The advisor's read tools, every one bound on the server to `scope.actor` (no argument selects
 * a user; a `portfolioId` of another user answers `not_found` like a missing one):
 * `listPortfolios`, `listHoldings`, `listCash`, `listTransactions` (newest 50), `getQuote`,
 * `getMoatEvaluation` (the cache; a fetch, counted in `stock_evaluation` through the evaluation
 * flow, only when the cache has none or `fresh` is asked AND the user's last message names the
 * symbol), `screenMoat`, `listMoatReports`.
 */
export function buildReadTools(deps: ReadToolDeps, scope: ToolScope): AdvisorTool[] {
  const userId = scope.actor.id;
  return [
    tool(
      'listPortfolios',
      'The user’s portfolios (id, name, baseCurrency).',
      z.strictObject({}),
      async () => {
        const portfolios = await deps.portfolios.listPortfolios(userId);
        return { data: portfolios, summary: `${portfolios.length} portfolio(s)` };
      },
    ),
    tool(
      'listHoldings',
      'Holdings with their stored EUR values (quantity, averageCost, marketValueEur, weight, valuedAt).',
      PortfolioFilter,
      async (args) => {
        const holdings = await deps.portfolios.listHoldings(userId, args);
        return { data: holdings, summary: `${holdings.length} holding(s)` };
      },
    ),
    tool('listCash', 'Cash positions with their EUR values.', PortfolioFilter, async (args) => {
      const cash = await deps.portfolios.listCash(userId, args);
      return { data: cash, summary: `${cash.length} cash position(s)` };
    }),
    tool(
      'listTransactions',
      `The newest transactions (at most ${TOOL_TRANSACTION_LIMIT}).`,
      PortfolioFilter.extend({
        from: z.string().max(40).optional().describe('Day YYYY-MM-DD or ISO date-time, inclusive'),
        to: z.string().max(40).optional().describe('Day YYYY-MM-DD or ISO date-time, inclusive'),
      }),
      async (args) => {
        const page = await deps.portfolios.listTransactions(userId, {
          ...args,
          limit: TOOL_TRANSACTION_LIMIT,
        });
        return {
          data: { items: page.items, truncated: page.nextCursor !== null },
          summary: `${page.items.length} transaction(s)`,
        };
      },
    ),
    tool(
      'getQuote',
      'The last close of a symbol with its EUR price.',
      z.strictObject({ symbol: Ticker }),
      async ({ symbol }) => {
        const quote = await deps.quotes.getQuote(symbol);
        return { data: quote, summary: `${quote.symbol} ${quote.price} ${quote.currency}` };
      },
    ),
    tool(
      'getMoatEvaluation',
      'The moat evaluation of a company from the shared cache. A new evaluation (fresh: true, or ' +
        'none cached) is made only when the user asked about this symbol, and costs the user one ' +
        'stock_evaluation unit.',
      z.strictObject({
        symbol: Ticker,
        fresh: z.boolean().optional().describe('Evaluate again from new filings'),
      }),
      async ({ symbol, fresh }) => {
        const cached = fresh === true ? undefined : await deps.evaluationCache.get(symbol);
        if (cached) {
          return {
            data: { ...cached.evaluation, _cached: true, _cachedAt: cached.cachedAt },
            summary: `${cached.evaluation.symbol}: ${cached.evaluation.totalScore}/${cached.evaluation.maxScore} (cached)`,
          };
        }
        if (!userAskedFor(symbol, scope.lastUserMessage)) {
          return {
            data: {
              symbol,
              evaluated: false,
              reason:
                'Not in the cache. A new evaluation costs the user one stock_evaluation unit: ' +
                'ask the user whether to evaluate this symbol.',
            },
            summary: `${symbol}: not cached`,
          };
        }
        const served = await deps.evaluations.getEvaluation({
          symbol,
          fresh: fresh === true,
          actor: scope.actor,
        });
        return {
          data: served,
          summary: `${served.symbol}: ${served.totalScore}/${served.maxScore}${served._cached ? ' (cached)' : ' (fresh)'}`,
        };
      },
    ),
    tool(
      'screenMoat',
      'Filters the cached evaluations (scoreMin/Max, verdict, sector, industry, peMin/Max, sortBy, page, limit).',
      ScreenerQuery,
      async (query) => {
        const page = await deps.screener.screen(query);
        return { data: page, summary: `${page.items.length} of ${page.total} evaluation(s)` };
      },
    ),
    tool(
      'listMoatReports',
      'The user’s saved moat reports; tags filters to those carrying every tag.',
      z.strictObject({ tags: z.array(z.string().trim().min(1).max(50)).max(20).optional() }),
      async ({ tags }) => {
        const reports = await deps.reports.list(userId, tags ?? []);
        return { data: reports, summary: `${reports.length} report(s)` };
      },
    ),
    tool(
      'getPortfolioPerformance',
      'Time-weighted and money-weighted returns of a portfolio in EUR (fractions, basis named), ' +
        'the currency effect apart, income and costs, per holding too; period 1M, 3M, YTD, 1Y, ' +
        '3Y, inception or custom from/to. A return that cannot be computed says unavailable and why.',
      PerformanceQuery.omit({ series: true }).extend({ portfolioId: z.string().min(1).max(100) }),
      async ({ portfolioId, ...query }) => {
        const performance = await deps.portfolios.getPerformance(userId, portfolioId, query);
        const twr = performance.returns.twr;
        return {
          data: performance,
          summary: `${performance.from}–${performance.to}: TWR ${twr.status === 'ok' ? twr.value : 'unavailable'}`,
        };
      },
    ),
  ];
}
