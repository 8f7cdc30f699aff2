import {
  CreatedWebhook,
  CreateWebhookBody,
  WebhookDeliveriesPage,
  WebhookDeliveriesQuery,
  WebhookEndpointSchema,
} from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';

const WebhookParams = z.object({ id: z.uuid().describe('Webhook endpoint id') });

const CREATE = [
  'Registers an endpoint for `evaluation.changed` events (CONTRACT §7), optionally for some',
  'companies (`symbols`), or for the companies one of your portfolios holds (`portfolioId`,',
  'decided for each event when it is relayed, a few seconds after it was made; another',
  "user's portfolio answers 404). `data.cause` tells a method change (`methodology`) from a",
  'company change (`filing`, `data`). Each event is POSTed as `{ type, timestamp, data }` and signed as',
  'Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature:',
  'v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the `secret`, shown only in this answer).',
  'At least once: a non-2xx answer or a timeout (10 s) is retried with backoff (5 s, 5 min,',
  '30 min, 2 h, 5 h, 10 h, 10 h); `410 Gone` disables the endpoint; redirects are not followed.',
  'A URL whose host resolves to a loopback, private or link-local address is refused (400),',
  'unless the server sets `WEBHOOK_ALLOW_PRIVATE`; the address is checked again at every delivery.',
].join(' ');

/**
 * The signed-in user's webhook endpoints (issue 33, CONTRACT §7): register, list, delete, and an
 * endpoint's delivery log. Another user's endpoint answers 404.
 */
export const accountWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/webhooks', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Register a webhook endpoint (its secret is shown only in this answer)',
      description: CREATE,
      body: CreateWebhookBody,
      response: {
        201: jsonResponse('The endpoint, with its signing secret', CreatedWebhook),
        ...errorResponses(404, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const created = await app.moat.webhooks.create(currentUser(request).id, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  app.get('/webhooks', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: "List the user's webhook endpoints (never the secrets)",
      description:
        'Newest first, each with `disabledAt` (set when it answered 410) and the last delivery ' +
        "attempt's outcome.",
      response: {
        200: jsonResponse('The endpoints', z.array(WebhookEndpointSchema)),
        ...errorResponses(),
      },
    },
    handler: async (request) => app.moat.webhooks.list(currentUser(request).id),
  });

  app.delete('/webhooks/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Delete a webhook endpoint; nothing more is delivered to it',
      params: WebhookParams,
      response: { 204: z.undefined().describe('Deleted'), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await app.moat.webhooks.remove(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get('/webhooks/:id/deliveries', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: "A webhook endpoint's delivery attempts, newest first",
      description:
        'One row per attempt: the event, attempt number, `status` (succeeded, failed, disabled), ' +
        'the answer’s status (null for a timeout or a refused address, with `error`), when, and ' +
        'when the next attempt is due. Page on with `cursor`.',
      params: WebhookParams,
      querystring: WebhookDeliveriesQuery,
      response: {
        200: jsonResponse('A page of attempts', WebhookDeliveriesPage),
        ...errorResponses(404),
      },
    },
    handler: async (request) =>
      app.moat.webhooks.deliveries(currentUser(request).id, request.params.id, request.query),
  });
};
