import { boundedFetch, type ModelEndpoint } from '@svc/advisor';
import type { FxProvider, QuoteProvider } from '@svc/market-data';
import type { Executor } from '@svc/portfolio-store';
import type { QuotaService } from '@svc/quota';
import {
  type AdvisorService,
  createAdvisorService,
  createNarrationService,
  createProposalService,
  type NarrationService,
  type ProposalService,
} from '@svc/use-cases';
import OpenAI from 'openai';
import type { AppConfig } from '../config.js';
import type { MoatServices } from '../moat/services.js';
import type { PortfolioFlows } from '../portfolio/flows.js';

/** The AI flows of `@svc/use-cases`, created once per process (`POST /api/stock-evaluation/ai`, the advisor routes, MCP). */
export interface AiFlows {
  /** The moat narrative (`createNarrationService`). */
  readonly narration: NarrationService;
  /** One advisor turn (`createAdvisorService`). */
  readonly advisor: AdvisorService;
  /** Decisions on proposals (`createProposalService`). */
  readonly proposals: ProposalService;
  /** Whether the advisor's model takes image parts (PNG/JPEG attachments; else 415). */
  readonly acceptsImages: boolean;
}

/** The narrative and advisor model endpoints; null: that flow answers offline. */
export interface ModelEndpoints {
  readonly narrative: ModelEndpoint | null;
  readonly advisor: ModelEndpoint | null;
}

/** API key sent to servers that need none (Ollama, vLLM without `--api-key`): the SDK requires one. */
export const PLACEHOLDER_API_KEY = 'unused';

/**
 * Builds the `openai` client ONCE (base URL, key, timeout, retries: the SDK retries only before
 * the first token arrives) and the two endpoints that share it. A flow whose model is not named
 * gets null (offline). No client is built when neither model is named. `onUpstreamError` is told
 * of each endpoint failure in full (for the log).
 *
 * @example
 * const endpoints = createModelEndpoints(config.openai);
 * endpoints.narrative?.model; // 'gpt-4o-mini'
 */
export function createModelEndpoints(
  settings: AppConfig['openai'],
  onUpstreamError?: (error: unknown) => void,
): ModelEndpoints {
  const { narrativeModel, advisorModel } = settings;
  if (narrativeModel === undefined && advisorModel === undefined) {
    return { narrative: null, advisor: null };
  }
  const client = new OpenAI({
    apiKey: settings.apiKey ?? PLACEHOLDER_API_KEY,
    ...(settings.baseUrl === undefined ? {} : { baseURL: settings.baseUrl }),
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    // The raw answer is bounded before the SDK's line decoder reads it (one huge line, an
    // endless answer): see boundedFetch.
    fetch: boundedFetch({
      maxLineBytes: settings.maxLineBytes,
      maxAnswerBytes: settings.maxAnswerBytes,
    }),
  });
  const endpoint = (model: string | undefined, acceptsImages: boolean): ModelEndpoint | null =>
    model === undefined
      ? null
      : {
          client,
          model,
          acceptsImages,
          maxOutputTokens: settings.maxOutputTokens,
          idleTimeoutMs: settings.idleTimeoutMs,
          maxOutputChars: settings.maxAnswerChars,
          totalTimeoutMs: settings.answerTimeoutMs,
          ...(onUpstreamError ? { onUpstreamError } : {}),
        };
  return {
    narrative: endpoint(narrativeModel, false),
    advisor: endpoint(advisorModel, settings.acceptsImages),
  };
}

/** What {@link createAiFlows} is built from. */
export interface AiFlowsOptions {
  readonly config: AppConfig;
  readonly db: Executor;
  /** The quota service of `@svc/quota` (`reserve` of `ai_consult`, refunded by the billing rule). */
  readonly quotas: Pick<QuotaService, 'reserve'>;
  readonly moat: MoatServices;
  readonly portfolio: PortfolioFlows;
  /** Market inputs of the flows that apply proposals (as `createPortfolioFlows` got them). */
  readonly market: { readonly quotes: QuoteProvider | null; readonly fx: FxProvider | null };
  /** Endpoints; default built from `config.openai` ({@link createModelEndpoints}). */
  readonly endpoints?: ModelEndpoints;
  /** Told of each model endpoint failure in full (logged; clients get a generic message). */
  readonly onUpstreamError?: (error: unknown) => void;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
}

/**
 * Creates the narrative, advisor and proposal flows once, over the same flows the REST routes use.
 *
 * @example
 * const ai = createAiFlows({ config, db, quotas, moat, portfolio, market: { quotes, fx } });
 */
export function createAiFlows(options: AiFlowsOptions): AiFlows {
  const endpoints =
    options.endpoints ?? createModelEndpoints(options.config.openai, options.onUpstreamError);
  const now = options.now ?? (() => new Date());
  const { moat, portfolio, quotas } = options;
  const narration = createNarrationService({
    endpoint: endpoints.narrative,
    evaluations: moat.evaluations,
    quotas,
  });
  return {
    narration,
    advisor: createAdvisorService({
      endpoint: endpoints.advisor,
      quotas,
      db: options.db,
      portfolios: portfolio.portfolios,
      quotes: portfolio.quotes,
      evaluations: moat.evaluations,
      history: moat.history,
      screener: moat.screener,
      reports: moat.reports,
      narratives: narration,
      xray: portfolio.xray,
      now,
    }),
    proposals: createProposalService({
      db: options.db,
      quotes: options.market.quotes,
      fx: options.market.fx,
      now,
    }),
    acceptsImages: endpoints.advisor?.acceptsImages ?? false,
  };
}
