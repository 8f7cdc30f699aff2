import multipart from '@fastify/multipart';
import type { SwaggerTransform } from '@fastify/swagger';
import type { AiFlows } from '@svc/service';
import type { AdvisorFrame } from '@svc/use-cases';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  mergeUserText,
  readAdvisorUpload,
  toAttachment,
} from '../../advisor/attachments.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { CHAT_MEDIA, inlineJsonSchema } from './schemas.js';

/** Largest JSON body of an advisor turn, bytes (200 000 characters of messages fit). */
export const CHAT_JSON_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Registers `@fastify/multipart` on the advisor routes' scope: per-file limit the total
 * ({@link MAX_ATTACHMENT_BYTES}), at most {@link MAX_ATTACHMENTS} files (the 6th answers 413,
 * whether sent as a file or as a text field).
 */
export async function registerAttachmentParsing(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    // payload and userText, and files sent as text fields; one part more than allowed reaches
    // readAdvisorUpload, which answers 413 naming the limit
    limits: {
      fileSize: MAX_ATTACHMENT_BYTES,
      files: MAX_ATTACHMENTS + 1,
      fields: 2 + MAX_ATTACHMENTS + 1,
      parts: 2 + MAX_ATTACHMENTS + 1,
    },
    throwFileSizeLimit: true,
  });
}

/**
 * OpenAPI of a turn's body: the zod transform for the rest, plus one schema per media type
 * (JSON, multipart); Fastify does not validate the body, the flow does (400 `validation_failed`).
 */
export const documentTurnBody: SwaggerTransform = (document) => {
  const transformed = (jsonSchemaTransform as unknown as SwaggerTransform)(document);
  const content = Object.fromEntries(
    Object.entries(CHAT_MEDIA).map(([media, zodSchema]) => [
      media,
      { schema: inlineJsonSchema(zodSchema, 'input') },
    ]),
  );
  return { ...transformed, schema: { ...transformed.schema, body: { content } } };
};

/**
 * Starts one advisor turn from a JSON or multipart request: attachments read (in memory only),
 * then `ai.advisor.advise` (validation, `activePortfolioId`, quota: all before any stream).
 */
export async function startTurn(
  ai: AiFlows,
  request: FastifyRequest,
  signal: AbortSignal,
): Promise<AsyncIterable<AdvisorFrame>> {
  const actor = currentUser(request);
  let body: unknown = request.body;
  let attachments: Awaited<ReturnType<typeof toAttachment>>[] = [];
  if (request.isMultipart()) {
    const upload = await readAdvisorUpload(request);
    attachments = await Promise.all(upload.files.map((f) => toAttachment(f, ai.acceptsImages)));
    body = mergeUserText(upload.payload, upload.userText);
  }
  return ai.advisor.advise({
    actor: { id: actor.id, plan: actor.plan },
    request: body,
    attachments,
    signal,
  });
}
