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

/** One label set of {@link RequestHistogram}: counts per bucket (not cumulative), sum and count. */
interface Series {
  readonly labels: Readonly<Record<(typeof ROUTE_LABELS)[number], string | number>>;
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * `http_request_duration_seconds` as a metric of prom-client's registry (`name`, `help`, `type`,
 * `get()`: what `Registry.metrics()` reads of every metric, the shape of prom-client's own
 * `Histogram.get()`), observed without prom-client's per-call work: its `observe(labels, value)`
 * validates the label names and hashes the sorted label object on every call (about 1.2 µs, 3-10%
 * of a small request's CPU in the profiles of issue 22). Here a series is found by one string key
 * (method, status, route pattern) and its bucket by a scan of {@link REQUEST_DURATION_BUCKETS}.
 * The exposition is prom-client's: `_bucket` lines with `le` first (cumulative, `+Inf` last),
 * `_sum`, `_count`.
 */
class RequestHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'HTTP request duration in seconds, by method, route pattern and status code';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  /** Counts one request of `seconds` under its method, route pattern and status code. */
  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const key = `${method} ${statusCode} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        labels: { method, route, status_code: statusCode },
        counts: new Float64Array(REQUEST_DURATION_BUCKETS.length),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    let bucket = 0;
    while (
      bucket < REQUEST_DURATION_BUCKETS.length &&
      seconds > (REQUEST_DURATION_BUCKETS[bucket] ?? 0)
    ) {
      bucket += 1;
    }
    if (bucket < series.counts.length) series.counts[bucket] = (series.counts[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The samples, as prom-client's `Histogram.get()` answers them. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      for (const [i, le] of REQUEST_DURATION_BUCKETS.entries()) {
        cumulative += counts[i] ?? 0;
        values.push({
          labels: { le, ...labels },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      }
      values.push({
        labels: { le: '+Inf', ...labels },
        value: count,
        metricName: `${this.name}_bucket`,
      });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  /** Forgets every series (prom-client's `Registry.resetMetrics()`). */
  reset(): void {
    this.#series.clear();
  }
}

/**
 * The request histogram as one `onResponse` hook: the request's duration (`reply.elapsedTime`,
 * from its arrival) observed once it is answered, hijacked answers (MCP, streams) included, under
 * its method, route pattern and status code. What `fastify-metrics` recorded, the same names and
 * labels, without its per-request timer objects and `onRequest` hook (they were 3–5% of a
 * request's CPU in the profiles of issue 22), in a {@link RequestHistogram}. The summary
 * `http_request_summary_seconds`, which `fastify-metrics` created but never filled here, is
 * registered as before, so the exposition keeps its names.
 */
function registerRequestHistogram(app: FastifyInstance, registry: promClient.Registry): void {
  const histogram = new RequestHistogram();
  // prom-client's registry reads `name`, `help`, `type` and `get()` of each metric
  registry.registerMetric(histogram as unknown as promClient.Metric);
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
        request.method,
        routeOptions.url ?? UNKNOWN_ROUTE,
        reply.statusCode,
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
