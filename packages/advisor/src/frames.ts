import { z } from 'zod';

/**
 * What a proposal asks to change once the user confirms it (CONTRACT §4): record one transaction,
 * create a portfolio, save a moat report, or import the transactions of an attached broker export;
 * the corrections of issue 30: edit or delete a transaction, revert a change of a portfolio; and
 * issue 38's correction of what an instrument is (`assign_instrument`, the flow of
 * `PUT /api/portfolios/{id}/instruments/{symbol}`).
 */
export const ProposalKindSchema = z
  .enum([
    'record_transaction',
    'create_portfolio',
    'save_moat_report',
    'import_transactions',
    'edit_transaction',
    'delete_transaction',
    'revert_change',
    'assign_instrument',
  ])
  .meta({ id: 'AdvisorProposalKind' })
  .describe('What the proposal changes once confirmed.');
/** See {@link ProposalKindSchema}. */
export type ProposalKind = z.infer<typeof ProposalKindSchema>;

/**
 * A proposal as the user sees it (the `proposal` frame): nothing changes until
 * `POST /api/advisor/confirm` accepts it before `expiresAt` (ISO 8601, UTC).
 */
export const ProposalViewSchema = z
  .object({
    id: z.string().min(1).describe('Proposal id, passed to POST /api/advisor/confirm.'),
    kind: ProposalKindSchema,
    summary: z.string().describe('One line for the user: what accepting it does.'),
    payload: z.record(z.string(), z.unknown()).describe('The exact change that accepting applies.'),
    expiresAt: z.iso.datetime({ offset: true }).describe('When the proposal lapses (ISO 8601).'),
  })
  .meta({ id: 'AdvisorProposal' })
  .describe('A change the advisor proposes; applied only after the user confirms it.');
/** See {@link ProposalViewSchema}. */
export type ProposalView = z.infer<typeof ProposalViewSchema>;

/** Token counts reported by the model server (absent when the stream was cut or not reported). */
export const UsageSchema = z
  .object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    totalTokens: z.number().int().nonnegative(),
  })
  .meta({ id: 'AdvisorUsage' })
  .describe('Tokens used by the turn, summed over its model calls.');
/** See {@link UsageSchema}. */
export type Usage = z.infer<typeof UsageSchema>;

/** One figure of a generated text that no fact grounds (bounded: texts and labels are cut). */
export const UngroundedFigureSchema = z
  .object({
    text: z.string().max(40).describe('The figure as printed, e.g. "99%".'),
    value: z.number().describe('Its normalized value (45% → 45, $1.2B → 1200000000).'),
    index: z.number().int().nonnegative().describe('UTF-16 offset of the figure in the answer.'),
    reason: z
      .enum(['mismatch', 'not_available', 'wrong_unit', 'no_fact', 'unsupported'])
      .describe(
        'mismatch: the fact of that metric has another value; not_available: that fact is null ' +
          '(N/A); wrong_unit: printed in a unit the fact cannot have; no_fact: no fact of that ' +
          'metric for that company; unsupported: no metric named and no fact has this value.',
      ),
    metric: z.string().optional().describe('The metric the figure was said to be, e.g. roic.'),
    subject: z.string().optional().describe('The company or holding it was said to be about.'),
    fact: z
      .object({
        key: z.string().max(120),
        label: z.string().max(160),
        value: z.number().nullable(),
      })
      .optional()
      .describe('The fact it was compared to (null value: not available).'),
  })
  .meta({ id: 'UngroundedFigure' });
/** See {@link UngroundedFigureSchema}. */
export type UngroundedFigure = z.infer<typeof UngroundedFigureSchema>;

/**
 * The grounding of a generated text: how many figures it printed, how many a typed fact
 * grounds, and the ones none does (at most 20 listed; the rest counted in `omitted`).
 */
export const GroundingReportSchema = z
  .object({
    total: z.number().int().nonnegative().describe('Figures found in the text.'),
    grounded: z.number().int().nonnegative().describe('Figures a typed fact grounds.'),
    ungrounded: z.array(UngroundedFigureSchema).max(20).describe('Figures no fact grounds.'),
    omitted: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Ungrounded figures beyond the 20 listed.'),
  })
  .meta({ id: 'GroundingReport' })
  .describe('Figures of the answer checked against typed facts of the data the model was given.');
/** See {@link GroundingReportSchema}. */
export type GroundingReport = z.infer<typeof GroundingReportSchema>;

/** `start`: the first frame of every turn; `model` is the model name, or `offline`. */
export const StartFrameSchema = z.object({
  type: z.literal('start'),
  id: z.string().min(1),
  model: z.string().min(1),
});
/**
 * `delta`: answer text (never the model's reasoning). `ungrounded` marks figures of the answer
 * so far that no fact grounds, as soon as their clause is complete (`text` may then be empty);
 * `index` is the offset in the whole answer (the concatenated `text` of the turn's deltas).
 */
export const DeltaFrameSchema = z.object({
  type: z.literal('delta'),
  text: z.string(),
  ungrounded: z.array(UngroundedFigureSchema).max(20).optional(),
});
/** `tool`: a tool use, announced `running` and then `done` or `error`. */
export const ToolFrameSchema = z.object({
  type: z.literal('tool'),
  name: z.string().min(1),
  status: z.enum(['running', 'done', 'error']),
  callId: z.string().optional(),
  summary: z.string().optional(),
});
/** `proposal`: a change the user may confirm. */
export const ProposalFrameSchema = z.object({
  type: z.literal('proposal'),
  proposal: ProposalViewSchema,
});
/** `error`: terminal; `code` from CONTRACT §1 (e.g. `upstream_unavailable`). */
export const ErrorFrameSchema = z.object({
  type: z.literal('error'),
  code: z.string().min(1),
  message: z.string(),
});
const FINISH_REASON = z
  .string()
  .min(1)
  .max(40)
  .describe(
    'The model’s finish_reason (stop, length, content_filter, …) or the server’s: tool_limit, ' +
      'timeout (total time ran out), length (also the server’s character cap), incomplete (the ' +
      'stream ended without a finish reason), offline (no model configured).',
  );
const COMPLETE = z
  .boolean()
  .describe('true only when the model finished the answer (stop) or the offline rules wrote it');
const NOTES = z
  .array(z.string().max(300))
  .max(10)
  .describe('Why the answer is incomplete, figures not grounded, fallbacks');

/**
 * `done`: terminal; `finishReason` and `complete` say honestly how the answer ended (a cut,
 * filtered or unfinished answer is `complete: false`, with a note).
 */
export const DoneFrameSchema = z.object({
  type: z.literal('done'),
  finishReason: FINISH_REASON,
  complete: COMPLETE,
  notes: NOTES.optional(),
  usage: UsageSchema.optional(),
  _grounding: GroundingReportSchema.optional(),
});

/**
 * One frame of the advisor stream (CONTRACT §4; one JSON object per SSE `data:` line). A turn is
 * exactly one `start`, any number of `delta` / `tool` / `proposal`, then exactly one terminal
 * frame, `done` or `error`.
 */
export const AdvisorFrameSchema = z
  .discriminatedUnion('type', [
    StartFrameSchema,
    DeltaFrameSchema,
    ToolFrameSchema,
    ProposalFrameSchema,
    ErrorFrameSchema,
    DoneFrameSchema,
  ])
  .meta({ id: 'AdvisorFrame' })
  .describe('One frame of the advisor stream (one JSON object per SSE data line).');
/** See {@link AdvisorFrameSchema}. */
export type AdvisorFrame = z.infer<typeof AdvisorFrameSchema>;

/** One event of the narrative stream: a markdown chunk, then `done` or `error` (terminal). */
export const NarrativeEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('chunk'), markdown: z.string() }),
    z.object({
      type: z.literal('done'),
      model: z.string().min(1),
      finishReason: FINISH_REASON,
      complete: COMPLETE,
      _grounding: GroundingReportSchema,
      notes: NOTES,
    }),
    z.object({ type: z.literal('error'), code: z.string().min(1), message: z.string() }),
  ])
  .meta({ id: 'NarrativeEvent' })
  .describe('One event of the narrative stream.');
/** See {@link NarrativeEventSchema}. */
export type NarrativeEvent = z.infer<typeof NarrativeEventSchema>;
