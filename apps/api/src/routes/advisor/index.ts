import {
  AiChatResponse,
  ConfirmProposalRequest,
  ConfirmProposalResult,
  toolsOn,
} from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { openEventStream } from '../../advisor/event-stream.js';
import {
  ADVISOR_SHUTDOWN_EVENT,
  asProblemCode,
  collectTurn,
  pipeFrames,
} from '../../advisor/streams.js';
import { eventStreamResponse, jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { ApiError, errorResponses } from '../../problem.js';
import { ADVISOR_FRAME_JSON_SCHEMA } from './schemas.js';
import {
  CHAT_JSON_BODY_LIMIT,
  documentTurnBody,
  registerAttachmentParsing,
  startTurn,
} from './turn.js';

const TURN_RULES = [
  'Messages: roles `user` and `assistant` only (a `system` role is 400), each not blank and at',
  'most 12 000 characters, at most 50 messages and 200 000 characters per request, the last one',
  'the user’s; `language` a BCP-47 tag of a supported language (en, de, fr, es, it, nl, pt); 400',
  '`validation_failed` otherwise, before any unit is spent. `activePortfolioId` must be one of your portfolios (404). `portfolioContext` is an',
  'untrusted hint: what the advisor states about holdings comes from the store through its tools',
  // the advisor's tools, read from their definitions (`toolsOn('advisor')`), never a hand copy
  `(${toolsOn('advisor')
    .map((tool) => `\`${tool.name}\``)
    .join(', ')}), every one scoped to you on the server. As \`multipart/form-data\`: \`payload\``,
  '(the JSON; required, 400 without it), `userText`, `files[]` (CSV/text, JSON, PDF text, PNG/JPEG only when the model',
  'takes images; at most 5 files and 10 MiB: 413 beyond; other types 415). A broker CSV becomes a',
  'proposed import (its line errors are shown). Attachments are never stored. Consumes one',
  '`ai_consult` unit per answered turn (429 with the quota before anything streams); the unit is',
  'given back when the turn ends with no output: the model failed (503 `upstream_unavailable`, a',
  'generic message), answered nothing or only whitespace, or the client left before the first',
  'output.',
].join(' ');

const STREAM_DESCRIPTION = [
  'Server-sent events, one JSON frame per `data:` line (schema under `x-sse-data`): exactly one',
  '`{"type":"start","id","model"}` first (`model` is `offline` without a configured model), then',
  '`delta` (`text`), `tool` (`name`, `status` running|done|error, `summary`) and `proposal`',
  '(`proposal: { id, kind, summary, payload, expiresAt }`) frames, and exactly one terminal frame:',
  '`{"type":"done","finishReason","complete","notes?","usage?","_grounding?"}` or',
  '`{"type":"error","code","message"}`. `finishReason` is the model’s (stop, length,',
  'content_filter) or the server’s (tool_limit, timeout, incomplete when the model’s stream ended',
  'without one, offline); `complete` is false for any cut, filtered or unfinished answer, with a',
  'note. A `delta` may carry `ungrounded`: figures of the answer (offsets in the whole answer)',
  'that no fact of the turn’s data grounds, sent as soon as their sentence ends; `done._grounding`',
  'lists them (at most 20, `omitted` counts the rest) with the fact each was compared to. The',
  'server bounds every answer whatever the model does (characters, total time; deltas of at most',
  '2,000 characters).',
  'A comment line `: heartbeat` is sent after 15 s of silence. Proposals change nothing until',
  'confirmed with POST /api/advisor/confirm.',
].join(' ');

/**
 * `POST /api/advisor/chat` (SSE of CONTRACT §4 frames) and `POST /api/advisor/confirm`
 * (`{ proposalId, decision }` → `{ status, result? }`). Handlers parse, call one flow, frame.
 */
export const advisorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ai } = app;
  const heartbeatMs = app.config.sseHeartbeatMs;
  await registerAttachmentParsing(app);

  app.post('/chat', {
    config: { auth: 'session', swaggerTransform: documentTurnBody },
    bodyLimit: CHAT_JSON_BODY_LIMIT,
    schema: {
      tags: ['advisor'],
      summary: 'One advisor turn, streamed as server-sent events',
      description: `${TURN_RULES} Informational only, not financial advice.`,
      response: {
        200: eventStreamResponse(STREAM_DESCRIPTION, ADVISOR_FRAME_JSON_SCHEMA),
        ...errorResponses(401, 403, 404, 413, 415, 429),
      },
    },
    handler: async (request, reply) => {
      const disconnect = new AbortController();
      const frames = await startTurn(ai, request, disconnect.signal);
      const stream = openEventStream(reply, {
        heartbeatMs,
        controller: disconnect,
        shutdownEvent: ADVISOR_SHUTDOWN_EVENT,
      });
      await pipeFrames(frames, stream, request.url, (err) =>
        request.log.error({ err }, 'advisor stream failed'),
      );
    },
  });

  app.post('/confirm', {
    config: { auth: 'session' },
    schema: {
      tags: ['advisor'],
      summary: 'Accept or reject a proposal of the advisor',
      description:
        'Accepting applies the proposal through the same flows as the REST writes, in one ' +
        'database transaction (all or nothing); rejecting discards it. A proposal is decided at ' +
        'most once, only by the user it was made for, and not after it expires (15 minutes): ' +
        '409 `conflict` when already decided or expired, 404 when unknown or not yours.',
      body: ConfirmProposalRequest,
      response: {
        200: jsonResponse('The decision and what was applied', ConfirmProposalResult),
        ...errorResponses(401, 403, 404, 409, 415),
      },
    },
    handler: async (request) => {
      const { id, plan } = currentUser(request);
      return ai.proposals.confirm({ id, plan }, request.body);
    },
  });
};

/**
 * `POST /api/portfolio/ai-chat`: the same turn as `POST /api/advisor/chat`, answered as one JSON
 * body `{ message: { role: "assistant", content }, proposals?, finishReason, complete, notes,
 * _grounding? }` (CONTRACT §4 plus what the stream's `done` frame says). A turn that fails
 * upstream answers its problem (503 `upstream_unavailable`).
 */
export const aiChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ai } = app;
  await registerAttachmentParsing(app);

  app.post('/ai-chat', {
    config: { auth: 'session', swaggerTransform: documentTurnBody },
    bodyLimit: CHAT_JSON_BODY_LIMIT,
    schema: {
      tags: ['advisor'],
      summary: 'One advisor turn, answered as one JSON body',
      description: `For clients that cannot read streams. ${TURN_RULES} Informational only, not financial advice.`,
      response: {
        200: jsonResponse('The assistant message and the proposals made', AiChatResponse),
        ...errorResponses(401, 403, 404, 413, 415, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const disconnect = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) disconnect.abort();
      });
      const frames = await startTurn(ai, request, disconnect.signal);
      const turn = await collectTurn(frames);
      if (turn.error) throw new ApiError(asProblemCode(turn.error.code), turn.error.message);
      const done = turn.done;
      return {
        message: { role: 'assistant' as const, content: turn.content },
        ...(turn.proposals.length > 0 ? { proposals: turn.proposals } : {}),
        finishReason: done?.finishReason ?? 'incomplete',
        complete: done?.complete ?? false,
        notes: done?.notes ?? (done ? [] : ['The answer ended without finishing.']),
        ...(done?._grounding ? { _grounding: done._grounding } : {}),
      };
    },
  });
};
