import { NarrativeRequest } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openEventStream } from '../../advisor/event-stream.js';
import { narrativeShutdownEvent, pipeNarrative } from '../../advisor/streams.js';
import { eventStreamResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { NARRATIVE_DATA_JSON_SCHEMA } from '../advisor/schemas.js';

const DESCRIPTION = [
  'Streams a markdown narrative of the given evaluation (`language`: BCP-47, default en; the',
  'offline template writes en and de, other languages fall back to English with a note). With a',
  'model configured, the prompt carries the evaluation’s own numbers and the answer is checked',
  'against them. Consumes one `ai_consult` unit (429 with the quota before anything streams); the',
  'unit is given back when the model fails before any output. Informational only, not financial',
  'advice.',
].join(' ');

const STREAM = [
  'Server-sent events: each `data:` line is a JSON string, the next markdown chunk',
  '(`data: "## Summary\\n…"`); then `event: done` with `data: {"model","finishReason","complete",',
  '"_grounding":{"total","grounded","ungrounded":[{"text","value","index","reason","metric?",',
  '"subject?","fact?"}],"omitted?"},"notes":[]}`. `finishReason` is the model’s (stop, length,',
  'content_filter), timeout or incomplete (the stream ended without one), or offline; `complete` is',
  'false for a cut or filtered narrative, with a note. A figure that no fact of the evaluation',
  'grounds is followed by ` [⚠]` in the markdown and listed in `_grounding.ungrounded` (at most 20)',
  'with the fact compared to. A failure mid-stream is `event: error` with a problem object',
  '(CONTRACT §1), then the stream ends. `: heartbeat` comments keep an idle stream open (every 15 s',
  'of silence).',
].join(' ');

/** `POST /api/stock-evaluation/ai` (interface spec 4.2, CONTRACT §4): one flow call, framed as SSE. */
export const narrativeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/ai', {
    config: { auth: 'session' },
    schema: {
      tags: ['moat'],
      summary: 'Markdown narrative of an evaluation, streamed as server-sent events',
      description: DESCRIPTION,
      body: NarrativeRequest,
      response: {
        200: eventStreamResponse(STREAM, NARRATIVE_DATA_JSON_SCHEMA),
        ...errorResponses(401, 403, 415, 429),
      },
    },
    handler: async (request, reply) => {
      const { id, plan } = currentUser(request);
      const disconnect = new AbortController();
      const { events } = await app.ai.narration.narrate({
        actor: { id, plan },
        source: { evaluation: request.body.evaluation },
        ...(request.body.language === undefined ? {} : { language: request.body.language }),
        signal: disconnect.signal,
      });
      const stream = openEventStream(reply, {
        heartbeatMs: app.config.sseHeartbeatMs,
        controller: disconnect,
        shutdownEvent: narrativeShutdownEvent(request.url),
      });
      await pipeNarrative(events, stream, request.url, (err) =>
        request.log.error({ err }, 'narrative stream failed'),
      );
    },
  });
};
