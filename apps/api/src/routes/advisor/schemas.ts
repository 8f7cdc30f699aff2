import { AdvisorChatRequest, AdvisorFrameSchema, GroundingReportSchema } from '@svc/use-cases';
import { z } from 'zod';
import { ProblemDetails } from '../../problem.js';

/** The multipart form of an advisor turn (interface spec 4.3), for the OpenAPI document. */
export const AdvisorChatMultipart = z
  .strictObject({
    payload: z
      .string()
      .meta({ contentMediaType: 'application/json' })
      .describe(
        'Required (400 without it): the JSON request (AdvisorChatRequest) as a string; its ' +
          'messages may be empty when userText is given',
      ),
    userText: z.string().max(12_000).optional().describe('Appended as the last user message'),
    'files[]': z
      .array(z.string().meta({ format: 'binary' }))
      .max(5)
      .optional()
      .describe(
        'Attachments: CSV/text, JSON, PDF (its text), PNG/JPEG (only when the model takes ' +
          'images, else 415); at most 5 files and 10 MiB in all (413 beyond); other types 415. ' +
          'A part sent as a text field (no filename) is read as a text/plain attachment',
      ),
  })
  .describe('multipart/form-data form of an advisor turn; any other part is refused (400)');

/** The request media types of an advisor turn, each with its schema (see `documentMedia`). */
export const CHAT_MEDIA = {
  'application/json': AdvisorChatRequest,
  'multipart/form-data': AdvisorChatMultipart,
} as const;

/**
 * A zod schema as plain JSON Schema with every named part inlined (no `$ref` into `$defs`, which
 * would not resolve inside the OpenAPI document).
 */
export function inlineJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output' = 'output',
): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    // an empty registry, so that named schemas are inlined rather than `$ref`s; the metadata of
    // the global registry (description, format, contentMediaType…) is copied in without the id
    metadata: z.registry<Record<string, unknown>>(),
    unrepresentable: 'any',
    io,
    override: ({ zodSchema, jsonSchema }) => {
      const meta = z.globalRegistry.get(zodSchema as unknown as z.ZodType);
      if (meta === undefined) return;
      const { id: _id, ...rest } = meta as Record<string, unknown>;
      for (const [key, value] of Object.entries(rest)) {
        if (value !== undefined && !(key in jsonSchema)) {
          (jsonSchema as Record<string, unknown>)[key] = value;
        }
      }
    },
  });
  return json;
}

/** The JSON Schema of one advisor stream frame (documented with the `text/event-stream` response). */
export const ADVISOR_FRAME_JSON_SCHEMA = inlineJsonSchema(AdvisorFrameSchema);

/**
 * The JSON of a narrative stream's `data:` lines: a markdown chunk (a JSON string, unnamed
 * events), the `done` event's object, or the `error` event's problem object.
 */
export const NARRATIVE_DATA_JSON_SCHEMA = inlineJsonSchema(
  z.union([
    z.string().describe('A markdown chunk (unnamed events)'),
    z
      .object({
        model: z.string().describe('The model, or offline (the template)'),
        finishReason: z
          .string()
          .describe(
            'stop, length, content_filter, timeout, incomplete (no finish reason) or offline',
          ),
        complete: z.boolean().describe('false for a cut, filtered or unfinished narrative'),
        _grounding: GroundingReportSchema,
        notes: z.array(z.string()).describe('E.g. the language fell back to English'),
      })
      .describe('event: done'),
    ProblemDetails.describe('event: error'),
  ]),
);
