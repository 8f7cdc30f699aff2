import {
  GroundingReportSchema,
  ProposalViewSchema,
  resolveLanguage,
  SUPPORTED_LANGUAGES,
} from '@svc/advisor';
import { MoatEvaluation, NOT_BLANK, PortfolioId } from '@svc/schemas';
import { z } from 'zod';

/** Longest chat message, characters (interface spec 2.7 and §8). */
export const MAX_MESSAGE_CHARS = 12_000;
/** Most messages in one advisor request. */
export const MAX_MESSAGES = 50;
/** Most characters over all messages of one advisor request. */
export const MAX_REQUEST_CHARS = 200_000;
/** How long a proposal can be confirmed, milliseconds (15 minutes). */
export const PROPOSAL_TTL_MS = 15 * 60 * 1000;

/**
 * The shape of a {@link LanguageTag}: a supported primary language subtag (lower case), then an
 * optional script (`Latn`) and an optional region (`AT`, `419`), e.g. `de`, `de-AT`, `pt-BR`.
 */
const LANGUAGE_TAG_PATTERN = new RegExp(
  `^(?:${Object.keys(SUPPORTED_LANGUAGES).join('|')})(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?$`,
);

/**
 * A language tag as clients send it: a well-formed BCP-47 tag (`Intl.getCanonicalLocales`) whose
 * primary language is supported (`en`, `de`, `fr`, `es`, `it`, `nl`, `pt`); anything else is 400
 * `validation_failed`. Only the language's known name reaches a prompt, never the tag itself.
 */
export const LanguageTag = z
  .string()
  .min(2)
  .max(35)
  // language[-script][-region], so that the document states what is accepted (the fuzzer's rule)
  .regex(LANGUAGE_TAG_PATTERN)
  .refine((tag) => resolveLanguage(tag) !== null, {
    message: `a BCP-47 tag of a supported language: ${Object.keys(SUPPORTED_LANGUAGES).join(', ')}`,
  })
  .meta({ id: 'LanguageTag' })
  .describe(
    `BCP-47 tag of a supported language (${Object.keys(SUPPORTED_LANGUAGES).join(', ')}; a region ` +
      'such as de-AT is fine). The offline template and rules write en and de.',
  );

/**
 * A chat message as clients send it (interface spec 2.7): role `user` or `assistant` only (a
 * `system` role is refused: the server owns the system prompt), content at most 12 000 characters.
 */
export const ChatMessageInput = z
  .strictObject({
    role: z.enum(['user', 'assistant']).describe('user | assistant (no system role)'),
    content: z
      .string()
      .min(1, 'a message cannot be empty or blank')
      .max(MAX_MESSAGE_CHARS)
      .regex(NOT_BLANK, 'a message cannot be empty or blank')
      .describe(`Message text, not blank, at most ${MAX_MESSAGE_CHARS} characters`),
  })
  .meta({ id: 'ChatMessage' })
  .describe('One message of the conversation');
export type ChatMessageInput = z.infer<typeof ChatMessageInput>;

/**
 * The body of `POST /api/advisor/chat` and `POST /api/portfolio/ai-chat` (interface spec 4.3):
 * 1–50 messages, 200 000 characters in all, the last one from the user.
 */
export const AdvisorChatRequest = z
  .object({
    messages: z
      .array(ChatMessageInput)
      .min(1)
      .max(MAX_MESSAGES)
      .describe(
        `The conversation, oldest first; 1–${MAX_MESSAGES} messages, the last one the user’s`,
      ),
    language: LanguageTag.optional().describe(
      'BCP-47 tag of the answer’s language (see LanguageTag); default: the language of the question, else en',
    ),
    activePortfolioId: PortfolioId.optional().describe(
      'One of your portfolios (404 otherwise): the one the question is about',
    ),
    activePortfolioName: z.string().max(200).optional().describe('Its display name (a hint)'),
    baseCurrency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('ISO 4217 currency to answer in; default EUR'),
    portfolioContext: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Snapshot of the portfolio as the client shows it: an untrusted hint only; what the ' +
          'advisor states about holdings comes from the store',
      ),
  })
  .superRefine((body, ctx) => {
    if (body.messages.at(-1)?.role !== 'user') {
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        message: 'the conversation must end with a user message (the ask to answer)',
      });
    }
    const total = body.messages.reduce((sum, m) => sum + m.content.length, 0);
    if (total > MAX_REQUEST_CHARS) {
      ctx.addIssue({
        code: 'custom',
        path: ['messages'],
        message: `${total} characters in all; at most ${MAX_REQUEST_CHARS} per request`,
      });
    }
  })
  .meta({ id: 'AdvisorChatRequest' })
  .describe('One advisor turn: the conversation so far and what it is about');
export type AdvisorChatRequest = z.infer<typeof AdvisorChatRequest>;

/** Body of `POST /api/advisor/confirm` (CONTRACT §4). */
export const ConfirmProposalRequest = z
  .strictObject({
    proposalId: z.string().min(1).max(100).describe('The id of a proposal frame'),
    decision: z.enum(['accept', 'reject']),
  })
  .meta({ id: 'ConfirmProposalRequest' });
export type ConfirmProposalRequest = z.infer<typeof ConfirmProposalRequest>;

/** Answer of `POST /api/advisor/confirm` (CONTRACT §4). */
export const ConfirmProposalResult = z
  .object({
    status: z.enum(['applied', 'rejected']),
    result: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'What was created (applied only): the portfolio, transaction(s) or report id, by kind',
      ),
  })
  .meta({ id: 'ConfirmProposalResult' });
export type ConfirmProposalResult = z.infer<typeof ConfirmProposalResult>;

/** Answer of `POST /api/portfolio/ai-chat`: the advisor turn as one JSON body (CONTRACT §4). */
export const AiChatResponse = z
  .object({
    message: z.object({ role: z.literal('assistant'), content: z.string() }),
    proposals: z
      .array(ProposalViewSchema)
      .optional()
      .describe('Proposals made in this turn, if any'),
    finishReason: z
      .string()
      .describe(
        'As on the stream’s done frame: stop, length, content_filter, tool_limit, timeout, ' +
          'incomplete (the model’s stream ended without a finish reason) or offline',
      ),
    complete: z
      .boolean()
      .describe('false for a cut, filtered or unfinished answer (notes say why)'),
    notes: z.array(z.string()).describe('Why the answer is incomplete, and the like'),
    _grounding: GroundingReportSchema.optional().describe(
      'The answer’s figures checked against typed facts of the turn’s data',
    ),
  })
  .meta({ id: 'AiChatResponse' });
export type AiChatResponse = z.infer<typeof AiChatResponse>;

/** Body of `POST /api/stock-evaluation/ai` (interface spec 4.2). */
export const NarrativeRequest = z
  .object({
    evaluation: MoatEvaluation,
    language: LanguageTag.optional().describe(
      'BCP-47 tag of the narrative’s language (see LanguageTag); default en',
    ),
  })
  .meta({ id: 'NarrativeRequest' });
export type NarrativeRequest = z.infer<typeof NarrativeRequest>;
