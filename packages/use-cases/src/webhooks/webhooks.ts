import { randomBytes } from 'node:crypto';
import type { PortfoliosRepository, WebhooksRepository } from '@svc/portfolio-store';
import { numberFromText, TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { tickerOf } from '../ticker.js';

/**
 * The event types an endpoint may subscribe to (CONTRACT §7). Delivery takes any type written to
 * the outbox (`insertOutboxEvent`): a new kind of event is added here and written there.
 */
export const WEBHOOK_EVENT_TYPES = ['evaluation.changed'] as const;

/** Most endpoints one user may register. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** Body of `POST /api/account/webhooks` (CONTRACT §7). */
export const CreateWebhookBody = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .describe('Where to POST the events: http(s), resolving to a public address'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .describe('Event types to receive: ["evaluation.changed"]'),
    symbols: z
      .array(TickerSymbol)
      .min(1)
      .max(500)
      .nullish()
      .describe('Only these companies’ events; absent or null for every company'),
    portfolioId: z
      .uuid()
      .nullish()
      .describe(
        'Only events of companies this portfolio of yours holds when the event is relayed (decided per event); absent or null for every company',
      ),
  })
  .strict()
  .meta({ id: 'CreateWebhookBody' });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

const LastDelivery = z
  .object({
    status: z.string().describe('succeeded, failed or disabled'),
    responseStatus: z.number().int().nullable(),
    at: z.string(),
  })
  .nullable()
  .describe('The last delivery attempt, null before the first');

/** A registered endpoint (never with its secret). */
export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    symbols: z.array(z.string()).nullable(),
    portfolioId: z
      .string()
      .nullable()
      .describe('The portfolio whose holdings the endpoint is limited to; null for any company'),
    createdAt: z.string(),
    disabledAt: z
      .string()
      .nullable()
      .describe('When the endpoint was disabled (it answered 410 Gone); null while enabled'),
    lastDelivery: LastDelivery,
  })
  .meta({ id: 'WebhookEndpoint' });

/** The answer of `POST /api/account/webhooks`: the endpoint and its secret, shown only here. */
export const CreatedWebhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    symbols: z.array(z.string()).nullable(),
    portfolioId: z.string().nullable(),
    createdAt: z.string(),
    secret: z
      .string()
      .describe('Signing secret (`whsec_…`, Standard Webhooks 1.0); shown only in this answer'),
  })
  .meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

/** Query of `GET /api/account/webhooks/{id}/deliveries`. */
export const WebhookDeliveriesQuery = z.object({
  cursor: z.string().max(100).optional().describe('`nextCursor` of the previous page'),
  limit: numberFromText(z.number().int().min(1).max(100).default(50)).describe(
    'Attempts per page, 1–100, default 50',
  ),
});
export type WebhookDeliveriesQuery = z.infer<typeof WebhookDeliveriesQuery>;

/** A page of an endpoint's delivery log, newest attempt first (CONTRACT §7). */
export const WebhookDeliveriesPage = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        eventId: z.string(),
        type: z.string(),
        attempt: z.number().int().describe('1 for the first attempt of the event'),
        status: z
          .string()
          .describe('succeeded (2xx), failed (retried at nextAttemptAt if set), disabled (410)'),
        responseStatus: z.number().int().nullable().describe('null when no answer came'),
        error: z.string().nullable().describe('Why no answer came (timeout, refused address)'),
        at: z.string(),
        nextAttemptAt: z.string().nullable(),
      }),
    ),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'WebhookDeliveriesPage' });
export type WebhookDeliveriesPage = z.infer<typeof WebhookDeliveriesPage>;

/** The answer of one webhook POST, or why none came. */
export interface WebhookPostResult {
  /** The answer's status; null when none came. */
  readonly status: number | null;
  /** Why no answer came (a refused or unresolved host, a timeout, a refused connection); else null. */
  readonly error: string | null;
}

/**
 * How webhooks leave the process, a port: the composition root gives the implementation
 * (`createWebhookTransport` of `@svc/service`, which resolves the host on every call, checks every
 * address, `WEBHOOK_ALLOW_PRIVATE` aside, and connects only to the checked address).
 */
export interface WebhookTransport {
  /**
   * Why `url` may not receive webhooks (its host does not resolve, or resolves to an address that
   * is not public), or undefined when it may.
   */
  refusal(url: URL): Promise<string | undefined>;
  /**
   * POSTs `body` to `url` after checking its host again as {@link WebhookTransport.refusal} does
   * (a refused host answers `{ status: null, error: 'webhook url: <why>' }` without a connection),
   * connecting only to the checked address, never following a redirect, within `timeoutMs`.
   */
  post(
    url: URL,
    headers: Readonly<Record<string, string>>,
    body: string,
    timeoutMs: number,
  ): Promise<WebhookPostResult>;
}

/** A new signing secret: `whsec_` and 24 random bytes in base64 (Standard Webhooks 1.0). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** What {@link createWebhookService} works with. */
export interface WebhookServiceDeps {
  readonly webhooks: Pick<WebhooksRepository, 'create' | 'list' | 'owns' | 'remove' | 'deliveries'>;
  /** The user's portfolios, to check that a `portfolioId` is theirs. */
  readonly portfolios: Pick<PortfoliosRepository, 'get'>;
  /** Checks a URL's host at registration (`WEBHOOK_ALLOW_PRIVATE` is the transport's setting). */
  readonly transport: Pick<WebhookTransport, 'refusal'>;
}

/**
 * A user's webhook endpoints (CONTRACT §7): register (the secret shown once), list, delete, and
 * read an endpoint's delivery log. Every call names the user: another user's endpoint is
 * `not_found`. Deliveries are made by `createWebhookDispatcher`.
 *
 * @example
 * const hooks = createWebhookService({
 *   webhooks: repos.webhooks,
 *   portfolios: repos.portfolios,
 *   transport: createWebhookTransport({ allowPrivate: false }), // of @svc/service
 * });
 * const { id, secret } = await hooks.create(userId, { url: 'https://example.com/hook', events: ['evaluation.changed'] });
 */
export function createWebhookService(deps: WebhookServiceDeps) {
  const notFound = (id: string) => new UseCaseError('not_found', `no webhook endpoint ${id}`);
  return {
    /**
     * Registers an endpoint for `userId` with a new secret.
     * @throws UseCaseError `validation_failed` for a URL whose host does not resolve or resolves
     *   to a refused address, or past {@link MAX_WEBHOOK_ENDPOINTS}; `not_found` for a
     *   `portfolioId` that is not one of the user's portfolios.
     */
    async create(userId: string, body: CreateWebhookBody): Promise<CreatedWebhook> {
      const portfolioId = body.portfolioId ?? null;
      if (portfolioId !== null && !(await deps.portfolios.get(userId, portfolioId))) {
        throw new UseCaseError('not_found', `no portfolio ${portfolioId}`);
      }
      const url = new URL(body.url);
      const refusal = await deps.transport.refusal(url);
      if (refusal !== undefined) {
        throw new UseCaseError('validation_failed', `webhook url: ${refusal}`, {
          errors: [{ path: 'url', message: refusal }],
        });
      }
      const existing = await deps.webhooks.list(userId);
      if (existing.length >= MAX_WEBHOOK_ENDPOINTS) {
        throw new UseCaseError(
          'validation_failed',
          `at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`,
          { errors: [{ path: 'url', message: 'too many endpoints' }] },
        );
      }
      const symbols = body.symbols ? [...new Set(body.symbols.map(tickerOf))] : null;
      const secret = newWebhookSecret();
      const created = await deps.webhooks.create(userId, {
        url: url.href,
        events: [...new Set(body.events)],
        symbols,
        portfolioId,
        secret,
      });
      return {
        id: created.id,
        url: created.url,
        events: created.events,
        symbols: created.symbols,
        portfolioId: created.portfolioId,
        createdAt: created.createdAt,
        secret,
      };
    },

    /** The user's endpoints, newest first, without secrets. */
    list: (userId: string) => deps.webhooks.list(userId),

    /** Deletes an endpoint of the user. @throws UseCaseError `not_found`. */
    async remove(userId: string, id: string): Promise<void> {
      if (!(await deps.webhooks.remove(userId, id))) throw notFound(id);
    },

    /**
     * A page of an endpoint's delivery log, newest attempt first.
     * @throws UseCaseError `not_found` for another user's endpoint; `validation_failed` for a
     *   cursor this log did not give.
     */
    async deliveries(
      userId: string,
      id: string,
      query: WebhookDeliveriesQuery,
    ): Promise<WebhookDeliveriesPage> {
      if (!(await deps.webhooks.owns(userId, id))) throw notFound(id);
      if (query.cursor !== undefined && !/^\d{1,18}$/.test(query.cursor)) {
        throw new UseCaseError('validation_failed', 'cursor is not one this log gave', {
          errors: [{ path: 'cursor', message: 'not a cursor of this log' }],
        });
      }
      const page = await deps.webhooks.deliveries(id, {
        limit: query.limit,
        ...(query.cursor !== undefined ? { beforeSeq: query.cursor } : {}),
      });
      return { items: page.items, nextCursor: page.lastSeq ?? null };
    },
  };
}

/** The webhook flows (see {@link createWebhookService}). */
export type WebhookService = ReturnType<typeof createWebhookService>;
