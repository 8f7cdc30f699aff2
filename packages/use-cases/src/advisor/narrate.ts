import {
  AdvisorError,
  type ModelEndpoint,
  type NarrativeEvent,
  resolveLanguage,
  streamNarrative,
} from '@svc/advisor';
import type { QuotaReservation, QuotaService } from '@svc/quota';
import type { MoatEvaluation } from '@svc/schemas';
import { guardQuotaSpending, type TokenCall } from '../accounts/token-call.js';
import { UseCaseError } from '../errors.js';
import type { Actor, EvaluationService } from '../moat/evaluation-service.js';
import { billAnswer } from './billing.js';

/** What {@link createNarrationService} needs; created once by the app. */
export interface NarrationServiceDeps {
  /** The narrative model, or null: the offline template of `@svc/narrative` answers. */
  readonly endpoint: ModelEndpoint | null;
  /** The evaluation flow, for a narrative asked by symbol (cache, else fetch under quota). */
  readonly evaluations: Pick<EvaluationService, 'getEvaluation'>;
  /** Quotas counted in the database; one `ai_consult` unit is reserved per narrative. */
  readonly quotas: Pick<QuotaService, 'reserve'>;
}

/** A narrative request: an evaluation to narrate, or a symbol whose evaluation is read. */
export type NarrativeSource =
  | { readonly evaluation: MoatEvaluation; readonly symbol?: undefined }
  | { readonly evaluation?: undefined; readonly symbol: string };

/** Input of {@link NarrationService.narrate}. */
export interface NarrateInput {
  readonly actor: Actor;
  readonly source: NarrativeSource;
  /** BCP-47 tag; default `en` (templates in en and de; others fall back to English with a note). */
  readonly language?: string;
  /** Aborts the model request (client gone); the events then end. */
  readonly signal: AbortSignal;
  /**
   * The personal-access-token call this narrative serves (an MCP tool call), if any: its
   * `ai_consult` unit (and a cache miss's `stock_evaluation`) then needs the token's scope and
   * is counted for its audit row (`guardQuotaSpending`).
   */
  readonly tokenCall?: TokenCall | undefined;
}

/** A narrative under way: the evaluation it narrates and its events (`chunk`… then `done` or `error`). */
export interface Narration {
  readonly evaluation: MoatEvaluation;
  /** The model in use, or `offline` (the template). */
  readonly model: string;
  readonly events: AsyncIterable<NarrativeEvent>;
}

/** Input of {@link NarrationService.narrateToMarkdown}. */
export type NarrateToMarkdownInput = NarrateInput;

/** A whole narrative, for callers that do not stream (the MCP tool). */
export interface NarrativeResult {
  readonly evaluation: MoatEvaluation;
  readonly markdown: string;
  readonly done: Extract<NarrativeEvent, { type: 'done' }>;
}

/**
 * The moat narrative flow (interface spec 4.2 `POST /api/stock-evaluation/ai`, MCP
 * `generateMoatNarrative`): one `ai_consult` unit per narrative, then the markdown of
 * `@svc/advisor`'s `streamNarrative` (the model's, grounded against the evaluation's numbers,
 * or the offline template when no model is configured).
 *
 * Quota: a unit is reserved before anything else, so a refusal (`QuotaError` `quota_exceeded`)
 * comes before any stream starts; the billing rule is `billAnswer`'s: the unit is given back when
 * the narrative ends with no output (the model failed or answered only whitespace — then an
 * `error` event `upstream_unavailable` — or the client left before the first chunk); a failure
 * after output keeps it. A `language` that is not a supported BCP-47 tag is `validation_failed`
 * before any unit is spent. A symbol is resolved through the
 * evaluation flow (cache, else a fetch counted in `stock_evaluation`); when that fails the
 * `ai_consult` unit is given back and the error is thrown.
 *
 * @example
 * const { events } = await narration.narrate({ actor, source: { symbol: 'KO' }, signal });
 * for await (const event of events) if (event.type === 'chunk') process.stdout.write(event.markdown);
 */
export function createNarrationService(deps: NarrationServiceDeps) {
  async function* events(
    input: NarrateInput,
    evaluation: MoatEvaluation,
  ): AsyncGenerator<NarrativeEvent> {
    try {
      yield* streamNarrative({
        endpoint: deps.endpoint,
        evaluation,
        language: input.language ?? 'en',
        signal: input.signal,
      });
    } catch (error) {
      // Thrown only before any chunk: the model failed, answered only whitespace, or aborted.
      if (input.signal.aborted || (error instanceof AdvisorError && error.code === 'aborted')) {
        return;
      }
      const message =
        error instanceof AdvisorError
          ? error.message
          : 'The model endpoint failed before answering.';
      yield { type: 'error', code: 'upstream_unavailable', message };
    }
  }

  function billed(
    input: NarrateInput,
    evaluation: MoatEvaluation,
    unit: QuotaReservation,
  ): AsyncIterable<NarrativeEvent> {
    return billAnswer(
      events(input, evaluation),
      unit,
      (e) => e.type === 'chunk' && e.markdown.trim() !== '',
    );
  }

  const service = {
    /**
     * Starts a narrative: consumes `ai_consult`, resolves the evaluation, answers its events.
     * @throws QuotaError `quota_exceeded` (nothing consumed); whatever the evaluation flow
     *   throws for a symbol (unit given back).
     */
    async narrate(input: NarrateInput): Promise<Narration> {
      if (input.language !== undefined && resolveLanguage(input.language) === null) {
        throw new UseCaseError('validation_failed', 'unsupported language', {
          errors: [{ path: 'language', message: 'a BCP-47 tag of a supported language' }],
        });
      }
      const unit = await guardQuotaSpending(deps.quotas, input.tokenCall).reserve(
        input.actor.id,
        input.actor.plan,
        'ai_consult',
      );
      let evaluation: MoatEvaluation;
      try {
        evaluation =
          input.source.evaluation ??
          (await deps.evaluations.getEvaluation({
            symbol: input.source.symbol,
            fresh: false,
            actor: input.actor,
            tokenCall: input.tokenCall,
          }));
      } catch (error) {
        await unit.refund();
        throw error;
      }
      return {
        evaluation,
        model: deps.endpoint?.model ?? 'offline',
        events: billed(input, evaluation, unit),
      };
    },

    /**
     * The whole narrative as one markdown text (the MCP tool): {@link narrate}, joined.
     * @throws UseCaseError `upstream_unavailable` when the model fails (before output: the
     *   unit is given back); the errors of {@link narrate}.
     */
    async narrateToMarkdown(input: NarrateToMarkdownInput): Promise<NarrativeResult> {
      const { evaluation, events } = await service.narrate(input);
      let markdown = '';
      for await (const event of events) {
        if (event.type === 'chunk') markdown += event.markdown;
        else if (event.type === 'error') {
          throw new UseCaseError('upstream_unavailable', event.message);
        } else return { evaluation, markdown, done: event };
      }
      throw new UseCaseError('upstream_unavailable', 'The narrative ended without finishing.');
    },
  };
  return service;
}

/** The narrative flow; see {@link createNarrationService}. */
export type NarrationService = ReturnType<typeof createNarrationService>;
