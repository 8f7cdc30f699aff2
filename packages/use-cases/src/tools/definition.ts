import type { QuotaName } from '@svc/schemas';
import type { z } from 'zod';
import type { TokenScope } from '../accounts/scopes.js';
import type { TokenCall } from '../accounts/token-call.js';
import type { NarrationService } from '../advisor/narrate.js';
import type { EvaluationHistoryService } from '../moat/evaluation-history.js';
import type { Actor, EvaluationService } from '../moat/evaluation-service.js';
import type { ReportService } from '../moat/reports.js';
import type { ScreenerService } from '../moat/screener.js';
import type { PortfolioService } from '../portfolio/portfolio-service.js';
import type { QuoteService } from '../portfolio/quote-service.js';
import type { XrayService } from '../xray/xray-service.js';

/**
 * The flows the tools call: the same objects the REST routes use, created once per process by
 * the composition root. Each tool calls one of them (see {@link ToolDefinition.run}).
 */
export interface ToolFlows {
  /** Stored portfolio reads (`createPortfolioService`). */
  readonly portfolios: Pick<
    PortfolioService,
    | 'listPortfolios'
    | 'listHoldings'
    | 'listCash'
    | 'listTransactions'
    | 'getPerformance'
    | 'listChanges'
  >;
  /** Last closes with their EUR price (`createQuoteService`). */
  readonly quotes: Pick<QuoteService, 'getQuote'>;
  /**
   * The evaluation flow with its memo of fetches under way, cache and quota
   * (`createEvaluationService`): `getEvaluation` as `GET /api/stock-evaluation`, `served` for a
   * read that never fetches.
   */
  readonly evaluations: Pick<EvaluationService, 'getEvaluation' | 'served'>;
  /** Kept fresh evaluations, their diffs and change events (`createEvaluationHistoryService`). */
  readonly history: Pick<EvaluationHistoryService, 'list' | 'diff' | 'changes'>;
  /** Indexed SQL over the evaluation cache (`createScreenerService`). */
  readonly screener: Pick<ScreenerService, 'screen'>;
  /** The user's saved-report library (`createReportService`). */
  readonly reports: Pick<ReportService, 'save' | 'list'>;
  /** The moat narrative flow (`createNarrationService`), one `ai_consult` unit per narrative. */
  readonly narratives: Pick<NarrationService, 'narrateToMarkdown'>;
  /** The portfolio moat X-ray (`createXrayService`): holdings with cached evaluations. */
  readonly xray: Pick<XrayService, 'getXray'>;
}

/** Where a tool is offered: the MCP server (`@svc/mcp-server`) and/or the advisor's model. */
export type ToolSurface = 'mcp' | 'advisor';

/**
 * Hints about a tool's behaviour, as MCP `ToolAnnotations` spell them (MCP specification
 * 2025-06-18, "Tool annotations"); hints only, never a security boundary.
 */
export interface ToolAnnotations {
  /** No side effect. */
  readonly readOnlyHint: boolean;
  /** A write may delete or overwrite (meaningful when `readOnlyHint` is false). */
  readonly destructiveHint?: boolean;
  /** The same call twice has no further effect. */
  readonly idempotentHint: boolean;
  /** Reaches outside the service's own data (e.g. SEC filings). */
  readonly openWorldHint: boolean;
}

/**
 * What a missing token scope hides of a successful answer: without `scope`, the answer goes
 * through `redact` before it leaves (the `output` schema must accept both forms). E.g. money
 * amounts without `portfolio:values`. Only a surface with token scopes (MCP) applies it.
 */
export interface ScopeRedaction {
  readonly scope: TokenScope;
  readonly redact: (answer: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * One tool, declared once for every surface that offers it: the MCP adapter (`registerTool` of
 * `@svc/mcp-server`) lists it with `title`, `description`, `input`, `output` and `annotations`
 * and enforces `scopes`; the advisor adapter (`use-cases/src/advisor/advisor-tools.ts`) sends
 * `name`, `description` and `input` to the model. Both call {@link ToolDefinition.run}.
 *
 * `input` and `output` are object schemas at the top (MCP wants `type: "object"`), unnamed
 * (a `.meta({ id })` schema would be a bare `$ref`); nested named schemas are fine.
 */
export interface ToolDefinition<
  N extends string = string,
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodType = z.ZodType,
  S extends readonly ToolSurface[] = readonly ToolSurface[],
> {
  /** The name clients and the model call it by, e.g. `listHoldings`. */
  readonly name: N;
  /** A short human title (MCP `title`). */
  readonly title: string;
  /** What it does and costs, for an agent or a model (the same text on every surface). */
  readonly description: string;
  /** The arguments (an object schema; `z.object({})` for none). */
  readonly input: I;
  /** A successful answer (an object schema; MCP `outputSchema` and `structuredContent`). */
  readonly output: O;
  readonly annotations: ToolAnnotations;
  /**
   * The token scopes a call needs (at least one). Spending a quota inside a call needs the
   * quota's scope besides (`QUOTA_SCOPES`), checked where the quota is spent.
   */
  readonly scopes: readonly TokenScope[];
  /**
   * The quotas a call may spend (e.g. `getMoatEvaluation` with `fresh`): each needs its scope of
   * `QUOTA_SCOPES` besides {@link ToolDefinition.scopes}, checked where the unit is spent. Listed
   * here so that the scopes a tool can use are known without calling it ({@link scopesToUse}).
   */
  readonly spends?: readonly QuotaName[];
  /** Where the tool is offered. */
  readonly surfaces: S;
  /** What a missing scope hides of the answer (see {@link ScopeRedaction}). */
  readonly redactUnless?: ScopeRedaction;
  /**
   * The call: one flow call for `actor` (every tool is bound to the caller; no argument selects a
   * user) with the arguments as parsed by `input`. `call` is the token call of an MCP call (the
   * surface passes it as the MCP SDK passes a handler its `extra`); a tool that {@link spends}
   * hands it to its flow as `tokenCall`, so spending needs the token's scope and is counted for the
   * call's audit row. Surfaces without tokens (the advisor) pass none.
   * @throws whatever the flow throws (`UseCaseError`, `QuotaError`, …); each surface maps it to a
   *   problem (CONTRACT §1).
   */
  run(
    flows: ToolFlows,
    actor: Actor,
    args: z.output<I>,
    call?: TokenCall | undefined,
  ): Promise<z.input<O>>;
  /** A one-line summary of an answer (the advisor's `tool` frame), e.g. "3 holding(s)". */
  summarize?(answer: z.output<O>): string;
}

/**
 * A tool definition, typed by its schemas (the identity; it only infers `run`'s argument types).
 *
 * @example
 * export const listCash = defineTool({ name: 'listCash', input: PortfolioFilter, output, … });
 */
export function defineTool<
  const N extends string,
  I extends z.ZodObject,
  O extends z.ZodType,
  const S extends readonly ToolSurface[],
>(definition: ToolDefinition<N, I, O, S>): ToolDefinition<N, I, O, S> {
  return definition;
}
