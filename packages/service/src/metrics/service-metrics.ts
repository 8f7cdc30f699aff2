import type { QuotaEvent } from '@svc/quota';
import { Counter, Gauge, Registry } from 'prom-client';

/** The part of a node-postgres `pg.Pool` read for the pool gauges. */
export interface PoolStats {
  /** Connections open (idle or in use). */
  readonly totalCount: number;
  /** Open connections not in use. */
  readonly idleCount: number;
  /** Queries (or checkouts) queued for a connection. */
  readonly waitingCount: number;
}

/**
 * The service's own Prometheus metrics, in one registry per app (never prom-client's global
 * one, so several apps in one process, as in the tests, do not collide). The metrics plugin
 * (`registerMetrics` of apps/api) keeps the HTTP request histogram and the process metrics in a registry of
 * each app, and `GET /metrics` renders both together.
 *
 * | Metric                               | Type    | Labels              | Meaning                                                        |
 * | ------------------------------------ | ------- | ------------------- | -------------------------------------------------------------- |
 * | `svc_quota_events_total`             | counter | `quota`, `outcome`  | consumptions `granted` / `refused`, units `refunded`           |
 * | `svc_provider_errors_total`          | counter | `provider`, `code`  | failed calls to fundamentals, quotes, fx, model                |
 * | `svc_sse_streams_open`               | gauge   | `route`             | `text/event-stream` responses open now                         |
 * | `svc_db_pool_connections`            | gauge   | `state`             | `total`, `idle`, `waiting` of the database pool, read on scrape |
 */
export interface ServiceMetrics {
  /** The registry `GET /metrics` renders. */
  readonly registry: Registry;
  /** The `onEvent` listener of `createQuotaService` (`@svc/quota`): counts each event's units. */
  readonly quotaEvent: (event: QuotaEvent) => void;
  /**
   * Counts one failed call to an outside provider. `code` is the error's string `code`
   * (`upstream_unavailable`, `parse_failed`, …) or `unknown`.
   */
  providerError(provider: ProviderName, code: string): void;
  /**
   * Counts an open event stream of `route` (the route pattern, e.g.
   * `/api/stock-evaluation/narrative`); the answer closes it (idempotent). See
   * `trackEventStream` for the usual call on a reply.
   */
  openStream(route: string): () => void;
  /** Reports a database pool's connections (`Database.pool` of `@svc/portfolio-store`) on each scrape. */
  observePool(pool: PoolStats): void;
  /**
   * Wraps a provider (fundamentals, quotes, fx, model client) so that every method call that
   * throws or rejects counts one {@link ServiceMetrics.providerError} with the error's `code`,
   * then fails as before. Properties that are not functions are passed through; `null` stays
   * `null`.
   */
  instrument<T extends object | null>(provider: ProviderName, target: T): T;
}

/** Outside providers whose errors are counted. */
export type ProviderName = 'fundamentals' | 'quotes' | 'fx' | 'model';

/** The string `code` of a package error, or `unknown`. */
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z0-9_]{1,64}$/i.test(code) ? code : 'unknown';
}

/**
 * Creates the service metrics over a fresh registry (see {@link ServiceMetrics} for the list).
 *
 * @example
 * const metrics = createServiceMetrics();
 * const quotas = createQuotaService({ db, onEvent: metrics.quotaEvent });
 * metrics.observePool(database.pool);
 */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  const quota = new Counter({
    name: 'svc_quota_events_total',
    help: 'Quota units granted, refused and refunded, by quota',
    labelNames: ['quota', 'outcome'] as const,
    registers,
  });
  const providerErrors = new Counter({
    name: 'svc_provider_errors_total',
    help: 'Failed calls to outside providers (fundamentals, quotes, fx, model), by error code',
    labelNames: ['provider', 'code'] as const,
    registers,
  });
  const streams = new Gauge({
    name: 'svc_sse_streams_open',
    help: 'Event streams (text/event-stream) open now, by route',
    labelNames: ['route'] as const,
    registers,
  });
  const pools: PoolStats[] = [];
  new Gauge({
    name: 'svc_db_pool_connections',
    help: 'Database pool connections: total open, idle, and requests waiting for one',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const sum = (read: (pool: PoolStats) => number) => pools.reduce((n, p) => n + read(p), 0);
      this.set(
        { state: 'total' },
        sum((p) => p.totalCount),
      );
      this.set(
        { state: 'idle' },
        sum((p) => p.idleCount),
      );
      this.set(
        { state: 'waiting' },
        sum((p) => p.waitingCount),
      );
    },
  });

  const providerError = (provider: ProviderName, code: string) =>
    providerErrors.inc({ provider, code });

  return {
    registry,
    quotaEvent: (event) => quota.inc({ quota: event.name, outcome: event.outcome }, event.units),
    providerError,
    openStream(route) {
      streams.inc({ route });
      let open = true;
      return () => {
        if (!open) return;
        open = false;
        streams.dec({ route });
      };
    },
    observePool(pool) {
      pools.push(pool);
    },
    instrument(provider, target) {
      if (target === null) return target;
      return new Proxy(target, {
        get(object, key) {
          const value: unknown = Reflect.get(object, key);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const failed = (error: unknown) => {
              providerError(provider, errorCode(error));
              throw error;
            };
            let result: unknown;
            try {
              result = value.apply(object, args);
            } catch (error) {
              return failed(error);
            }
            return result instanceof Promise ? result.catch(failed) : result;
          };
        },
      });
    },
  };
}
