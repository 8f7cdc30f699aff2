import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from '@svc/mcp-server';
import { createServiceMetrics, errorCode, type ServiceMetrics } from '@svc/service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import promClient from 'prom-client';
import { ApiError } from '../../problem.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's Prometheus metrics (quota, providers, streams, pool); see `ServiceMetrics`. */
    serviceMetrics: ServiceMetrics;
  }
  interface FastifyContextConfig {
    /** `true`: the route is left out of `http_request_duration_seconds` (`GET /metrics`). */
    disableMetrics?: boolean;
  }
}

/** Path of the Prometheus exposition (text format 0.0.4). */
export const METRICS_PATH = '/metrics';

/**
 * Upper bounds (seconds) of the request duration histogram: finer than prom-client's default
 * below 100 ms, where this service's answers lie (cached evaluation ≈ 1–5 ms).
 */
export const REQUEST_DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** Methods left out of the request histogram (as `fastify-metrics` did). */
const UNCOUNTED_METHODS = new Set(['HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);

/** The route label of a request that matched no route. */
const UNKNOWN_ROUTE = '__unknown__';

/** Labels of the request histogram, in the order the exposition prints them. */
const ROUTE_LABELS = ['method', 'route', 'status_code'] as const;

/**
 * The request histogram as one `onResponse` hook: the request's duration (`reply.elapsedTime`,
 * from its arrival) observed once it is answered, hijacked answers (MCP, streams) included, under
 * its method, route pattern and status code. What `fastify-metrics` recorded, the same names and
 * labels, without its per-request timer objects and `onRequest` hook (they were 3–5% of a
 * request's CPU in the profiles of issue 22). The summary `http_request_summary_seconds`, which
 * `fastify-metrics` created but never filled here, is registered as before, so the exposition
 * keeps its names.
 */
function registerRequestHistogram(app: FastifyInstance, registry: promClient.Registry): void {
  const histogram = new promClient.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds, by method, route pattern and status code',
    labelNames: ROUTE_LABELS,
    buckets: REQUEST_DURATION_BUCKETS,
    registers: [registry],
  });
  new promClient.Summary({
    name: 'http_request_summary_seconds',
    help: 'request duration in seconds summary',
    labelNames: ROUTE_LABELS,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const { routeOptions } = request;
    if (routeOptions.config.disableMetrics !== true && !UNCOUNTED_METHODS.has(request.method)) {
      histogram.observe(
        {
          method: request.method,
          route: routeOptions.url ?? UNKNOWN_ROUTE,
          status_code: reply.statusCode,
        },
        reply.elapsedTime / 1000,
      );
    }
    done();
  });
}

/** Error classes of the model path (`@svc/advisor`, `@svc/narrative`), recognised by name. */
const MODEL_ERRORS = new Set(['AdvisorError', 'NarrativeError']);

/** Options of {@link registerMetrics}. */
export interface MetricsOptions {
  /** The metrics to fill and expose; default a fresh {@link createServiceMetrics}. */
  readonly metrics?: ServiceMetrics | undefined;
  /**
   * Bearer token a scraper must send (`METRICS_TOKEN`). Unset: `GET /metrics` does not exist
   * (404), though the metrics are still collected.
   */
  readonly token?: string | undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Prometheus metrics (`prom-client`), in the app's own registry:
 *
 * - `http_request_duration_seconds{method,route,status_code}`: a histogram of every request by
 *   route PATTERN (`/api/moat-reports/:id`, never the raw URL; unknown URLs as `__unknown__`),
 *   whose `_count` is the request count; MCP and streams are counted when they end.
 * - the process metrics of `prom-client` (CPU, resident memory, heap, event-loop lag, GC);
 * - the service metrics of {@link ServiceMetrics} (quota events, provider errors, open streams,
 *   database pool), plus model errors: an `AdvisorError` or `NarrativeError` that reaches the
 *   error handler counts as `svc_provider_errors_total{provider="model"}`.
 *
 * Access: `GET /metrics` exists only when `token` (`METRICS_TOKEN`) is set, and then answers
 * only `Authorization: Bearer <token>` (401 problem+json with `WWW-Authenticate: Bearer`
 * otherwise; compared in constant time). It is outside the session guard and the rate limits,
 * not counted in the histogram, and hidden from the OpenAPI document (`hide: true`): it is an
 * operator's endpoint, not part of the API.
 */
export async function registerMetrics(
  app: FastifyInstance,
  options: MetricsOptions = {},
): Promise<ServiceMetrics> {
  const metrics = options.metrics ?? createServiceMetrics();
  // The request histogram and the process metrics live in a registry of this app: the service
  // metrics may be shared by several apps of one runtime (each would register them again).
  const http = new promClient.Registry();
  app.decorate('serviceMetrics', metrics);
  promClient.collectDefaultMetrics({ register: http });
  registerRequestHistogram(app, http);
  const registry = promClient.Registry.merge([metrics.registry, http]);

  app.addHook('onError', async (_request, _reply, error) => {
    if (MODEL_ERRORS.has(error.name)) metrics.providerError('model', errorCode(error));
  });

  const token = options.token;
  if (token === undefined) return metrics;
  const expected = digest(token);
  const realm = `realm="${app.config.baseUrl}"`;
  const authorize = async (request: FastifyRequest, _reply: FastifyReply) => {
    const given = bearerToken(request.headers.authorization);
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return;
    throw new ApiError('unauthorized', 'The metrics token is required.', {
      headers: {
        'www-authenticate':
          given === undefined ? `Bearer ${realm}` : `Bearer ${realm}, error="invalid_token"`,
      },
    });
  };
  app.get(
    METRICS_PATH,
    {
      schema: { hide: true },
      config: { disableMetrics: true, auth: 'public' },
      logLevel: 'warn',
      onRequest: authorize,
    },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
  return metrics;
}

/**
 * Counts a `text/event-stream` response in `svc_sse_streams_open{route}` (the route pattern)
 * from now until its connection closes. Call it where a route opens its stream (after
 * `reply.hijack()` too: the close of `reply.raw` is what ends the count).
 *
 * @example
 * const stream = openEventStream(reply, { heartbeatMs: 15_000 });
 * trackEventStream(reply);
 */
export function trackEventStream(reply: FastifyReply): void {
  const route = reply.request.routeOptions.url ?? '__unknown__';
  const close = reply.server.serviceMetrics.openStream(route);
  reply.raw.once('close', close);
}
