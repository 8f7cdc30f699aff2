import {
  AsOfDate,
  CRITERION_KEYS,
  MAX_TOTAL_SCORE,
  MoatEvaluation,
  ServedEvaluation,
  Tags,
  TickerSymbol,
} from '@svc/schemas';
import { z } from 'zod';
import type { NarrativeSource } from '../advisor/narrate.js';
import { LanguageTag } from '../advisor/schemas.js';
import { UseCaseError } from '../errors.js';
import { ReportSummary, SaveReportInput } from '../moat/reports.js';
import { ScreenerPage, ScreenerQuery } from '../moat/screener.js';
import { defineTool } from './definition.js';

/*
 * Tool schemas must be `type: "object"` at the top of their JSON Schema, but a named schema
 * (`.meta({ id })`) is emitted as a bare `$ref`: `.extend({})` makes an unnamed copy (nested
 * named schemas stay `$ref`s into `definitions`, which is allowed). Every schema is a module
 * constant: zod compiles an object schema on its first parse, and the MCP server is built per
 * (stateless) request.
 */

/** Reads of the service's own rows. */
const STORED_READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * `getMoatEvaluation {symbol, fresh?, asOf?}`: the evaluation flow of `GET /api/stock-evaluation` (the
 * cache, a fetch under way, or a fetch consuming one `stock_evaluation` unit).
 */
export const getMoatEvaluation = defineTool({
  name: 'getMoatEvaluation',
  title: 'Get a moat evaluation',
  description:
    `Scores a company against the ${CRITERION_KEYS.length} moat criteria (total out of ${MAX_TOTAL_SCORE}, verdict) with valuation ` +
    'signals. Served from the shared cache (_cached: true) when present; a cache miss or ' +
    'fresh: true fetches SEC fundamentals and consumes one stock_evaluation quota unit. ' +
    'asOf (YYYY-MM-DD) evaluates the company as of that day, on the figures filed by then ' +
    '(cached apart; insufficient_history when too few years had been filed). For every ' +
    'holding of a portfolio at once, getPortfolioXray answers in one call.',
  input: z.object({
    symbol: TickerSymbol,
    fresh: z.boolean().optional().describe('Fetch again even when cached (consumes quota)'),
    asOf: AsOfDate.optional().describe(
      'Evaluate as of this day (YYYY-MM-DD; a later day reads as today): only figures filed by then',
    ),
  }),
  output: ServedEvaluation.extend({}),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  scopes: ['moat:read'],
  spends: ['stock_evaluation'],
  surfaces: ['mcp', 'advisor'],
  run: (flows, actor, { symbol, fresh, asOf }, call) =>
    flows.evaluations.getEvaluation({
      symbol,
      fresh: fresh === true,
      actor,
      tokenCall: call,
      asOf,
    }),
  summarize: (served) =>
    `${served.symbol}: ${served.totalScore}/${served.maxScore}${served._cached ? ' (cached)' : ' (fresh)'}`,
});

const NarrativeInput = z
  .object({
    symbol: TickerSymbol.optional().describe(
      'Ticker; the evaluation is read from the cache or fetched',
    ),
    evaluation: MoatEvaluation.optional().describe('An evaluation to narrate instead of a symbol'),
    language: LanguageTag,
  })
  // what `tools/list` shows: one of the two is required (enforced by narrativeSource below,
  // before any quota unit is spent)
  .meta({ anyOf: [{ required: ['symbol'] }, { required: ['evaluation'] }] });

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

/**
 * `generateMoatNarrative {symbol?, evaluation?, language}` (MCP only): the `narrate` flow that
 * `POST /api/stock-evaluation/ai` streams, one `ai_consult` unit, the model's grounded markdown
 * or the offline template; with only a symbol the evaluation comes through the evaluation flow.
 */
export const generateMoatNarrative = defineTool({
  name: 'generateMoatNarrative',
  title: 'Generate a moat narrative',
  description:
    'A markdown narrative (summary, strengths, risks, valuation) of an evaluation given as an ' +
    'object, or of the evaluation of a symbol. Consumes one ai_consult quota unit. ' +
    'Informational only, not financial advice.',
  input: NarrativeInput,
  output: z.object({
    symbol: z.string(),
    language: z.string().describe('The language requested'),
    markdown: z.string().describe('The narrative, markdown'),
    generator: z
      .enum(['template', 'model'])
      .describe(
        'template: the offline template (no model configured); model: the configured model',
      ),
    model: z.string().describe('The model name, or offline'),
    grounding: z
      .object({
        total: z.number().int(),
        grounded: z.number().int(),
        ungrounded: z.array(z.object({ text: z.string(), value: z.number(), index: z.number() })),
      })
      .describe('Figures of the markdown checked against the evaluation; ungrounded ones listed'),
    notes: z.array(z.string()).describe('E.g. the language fell back to English'),
  }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  scopes: ['ai:consult'],
  spends: ['ai_consult'],
  surfaces: ['mcp'],
  run: async (flows, actor, input, call) => {
    const { evaluation, markdown, done } = await flows.narratives.narrateToMarkdown({
      actor,
      tokenCall: call,
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
  },
});

/** `listMoatReports {tags?}`: the user's saved reports, newest first. */
export const listMoatReports = defineTool({
  name: 'listMoatReports',
  title: 'List saved moat reports',
  description: "The user's saved reports, newest first; with tags, those carrying every tag.",
  input: z.object({ tags: Tags.optional() }),
  output: z.object({ reports: z.array(ReportSummary) }),
  annotations: STORED_READ,
  scopes: ['moat:read'],
  surfaces: ['mcp', 'advisor'],
  run: async (flows, actor, { tags }) => ({
    reports: await flows.reports.list(actor.id, tags ?? []),
  }),
  summarize: ({ reports }) => `${reports.length} report(s)`,
});

/** `screenMoat` (the ScreenerQuery fields, all optional): the flow of `GET /api/moat-screener`. */
export const screenMoat = defineTool({
  name: 'screenMoat',
  title: 'Screen cached evaluations',
  description:
    'Filters the cached evaluation universe by score, verdict, sector, industry, P/E and market ' +
    'cap (USD); sorted and paged (limit at most 100). No quota.',
  input: ScreenerQuery.extend({}),
  output: ScreenerPage.extend({}),
  annotations: STORED_READ,
  scopes: ['moat:read'],
  surfaces: ['mcp', 'advisor'],
  run: (flows, _actor, query) => flows.screener.screen(query),
  summarize: (page) => `${page.items.length} of ${page.total} evaluation(s)`,
});

/** The keys of which a saved report needs one (what `POST /api/moat-reports` enforces). */
const EVALUATION_KEYS = ['evaluation', 'evaluationJson'] as const;

/**
 * The request of `POST /api/moat-reports`, unnamed for a tool schema, that says at its top what
 * it requires: `anyOf` of the two `required` lists (shown by `tools/list`), enforced by the same
 * refinement (a call with neither answers `validation_failed` at `evaluation`).
 */
const SaveReportToolInput = SaveReportInput.extend({})
  .superRefine((input, context) => {
    if (EVALUATION_KEYS.some((key) => input[key] !== undefined)) return;
    context.addIssue({
      code: 'custom',
      path: ['evaluation'],
      message: 'Give evaluation (an object) or evaluationJson (a JSON string)',
    });
  })
  .meta({ anyOf: EVALUATION_KEYS.map((key) => ({ required: [key] })) });

/** `saveMoatReport` (MCP only; the advisor proposes instead): answers `{ id }`. */
export const saveMoatReport = defineTool({
  name: 'saveMoatReport',
  title: 'Save a moat report',
  description:
    "Stores an evaluation in the user's report library with optional tags; pass the evaluation " +
    'as an object (evaluation) or as a JSON string (evaluationJson). Answers { id }.',
  input: SaveReportToolInput,
  output: z.object({ id: z.string() }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  scopes: ['reports:write'],
  surfaces: ['mcp'],
  run: (flows, actor, input) => flows.reports.save(actor.id, input),
});
