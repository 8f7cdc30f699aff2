import { MoatEvaluation, ServedEvaluation, Tags, TickerSymbol } from '@svc/schemas';
import {
  LanguageTag,
  type NarrativeSource,
  ReportSummary,
  SaveReportInput,
  ScreenerPage,
  ScreenerQuery,
  UseCaseError,
} from '@svc/use-cases';
import { z } from 'zod';
import type { McpServerDeps } from '../deps.js';
import { MCP_TOOLS } from '../tool-catalog.js';
import type { ToolRegistry } from '../tool-registry.js';
import { runTool } from '../tool-result.js';

const NarrativeInput = z.object({
  symbol: TickerSymbol.optional().describe(
    'Ticker; the evaluation is read from the cache or fetched',
  ),
  evaluation: MoatEvaluation.optional().describe('An evaluation to narrate instead of a symbol'),
  language: LanguageTag,
});

const Narrative = z.object({
  symbol: z.string(),
  language: z.string().describe('The language requested'),
  markdown: z.string().describe('The narrative, markdown'),
  generator: z
    .enum(['template', 'model'])
    .describe('template: the offline template (no model configured); model: the configured model'),
  model: z.string().describe('The model name, or offline'),
  grounding: z
    .object({
      total: z.number().int(),
      grounded: z.number().int(),
      ungrounded: z.array(z.object({ text: z.string(), value: z.number(), index: z.number() })),
    })
    .describe('Figures of the markdown checked against the evaluation; ungrounded ones listed'),
  notes: z.array(z.string()).describe('E.g. the language fell back to English'),
});

/*
 * Tool schemas must be `type: "object"` at the top of their JSON Schema, but a named schema
 * (`.meta({ id })`) is emitted as a bare `$ref`: `.extend({})` makes an unnamed copy (nested
 * named schemas stay `$ref`s into `definitions`, which is allowed).
 */
const EvaluationOutput = ServedEvaluation.extend({});
const ScreenerInput = ScreenerQuery.extend({});
const ScreenerOutput = ScreenerPage.extend({});

/** The request of `POST /api/moat-reports` (`@svc/use-cases`), unnamed for a tool schema. */
const SaveReportToolInput = SaveReportInput.extend({});

/*
 * Every schema is a module constant: a server is built per (stateless) request, and zod compiles
 * an object schema on its first parse, so a schema made inside registerMoatTools was compiled
 * again on every call (about a fifth of an MCP call's CPU), and its JSON Schema converted again
 * for every `tools/list`.
 */
const EvaluationInput = z.object({
  symbol: TickerSymbol,
  fresh: z.boolean().optional().describe('Fetch again even when cached (consumes quota)'),
});
const ReportsInput = z.object({
  tags: Tags.optional(),
});
const ReportsOutput = z.object({ reports: z.array(ReportSummary) });
const SavedReportOutput = z.object({ id: z.string() });

/**
 * Registers the moat tools of interface spec 4.5, each one flow call of `@svc/use-cases` (the
 * flows the REST routes use):
 * - `getMoatEvaluation {symbol, fresh?}`: from the cache, or fetched (cache miss or `fresh`),
 *   which consumes one `stock_evaluation` unit, as `GET /api/stock-evaluation`;
 * - `generateMoatNarrative {symbol?, evaluation?, language}`: the `narrate` flow of
 *   `@svc/use-cases` (the one `POST /api/stock-evaluation/ai` streams): one `ai_consult` unit,
 *   the model's grounded markdown or the offline template; with only a symbol the evaluation
 *   comes through the evaluation flow;
 * - `listMoatReports {tags?}`, `saveMoatReport` (SaveReportInput, or `evaluation` as an object);
 * - `screenMoat` (the ScreenerQuery fields, all optional).
 */
export function registerMoatTools(server: ToolRegistry, deps: McpServerDeps): void {
  const { services, actor, toProblem } = deps;

  server.registerTool(
    'getMoatEvaluation',
    {
      ...MCP_TOOLS.getMoatEvaluation,
      inputSchema: EvaluationInput,
      outputSchema: EvaluationOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ symbol, fresh }) =>
      runTool(toProblem, () =>
        services.evaluations.getEvaluation({ symbol, fresh: fresh === true, actor }),
      ),
  );

  server.registerTool(
    'generateMoatNarrative',
    {
      ...MCP_TOOLS.generateMoatNarrative,
      inputSchema: NarrativeInput,
      outputSchema: Narrative,
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    },
    (input) =>
      runTool(toProblem, async () => {
        const { evaluation, markdown, done } = await services.narratives.narrateToMarkdown({
          actor,
          source: narrativeSource(input),
          language: input.language,
          signal: new AbortController().signal,
        });
        return {
          symbol: evaluation.symbol,
          language: input.language,
          markdown,
          generator: done.model === 'offline' ? ('template' as const) : ('model' as const),
          model: done.model,
          grounding: done._grounding,
          notes: done.notes,
        };
      }),
  );

  server.registerTool(
    'listMoatReports',
    {
      ...MCP_TOOLS.listMoatReports,
      inputSchema: ReportsInput,
      outputSchema: ReportsOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ tags }) =>
      runTool(toProblem, async () => ({
        reports: await services.reports.list(actor.id, tags ?? []),
      })),
  );

  server.registerTool(
    'screenMoat',
    {
      ...MCP_TOOLS.screenMoat,
      inputSchema: ScreenerInput,
      outputSchema: ScreenerOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (query) => runTool(toProblem, () => services.screener.screen(query)),
  );

  server.registerTool(
    'saveMoatReport',
    {
      ...MCP_TOOLS.saveMoatReport,
      inputSchema: SaveReportToolInput,
      outputSchema: SavedReportOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input) => runTool(toProblem, () => services.reports.save(actor.id, input)),
  );
}

/**
 * What the narrative is written from: the given evaluation, else the symbol's.
 * @throws {UseCaseError} `validation_failed` with neither (before any quota is consumed).
 */
function narrativeSource(input: z.infer<typeof NarrativeInput>): NarrativeSource {
  if (input.evaluation !== undefined) return { evaluation: input.evaluation };
  if (input.symbol !== undefined) return { symbol: input.symbol };
  throw new UseCaseError('validation_failed', 'Give symbol or evaluation.', {
    errors: [{ path: 'symbol', message: 'required when evaluation is absent' }],
  });
}
