import { createQuotaUsageRepository, type Executor } from '@svc/portfolio-store';
import { type Plan, QUOTA_NAMES, type QuotaName, type QuotaUsage } from '@svc/schemas';
import { type QuotaDenied, QuotaError } from './errors.js';
import {
  isQuotaName,
  type QuotaLimit,
  type QuotaLimitOverrides,
  resolveQuotaLimits,
} from './limits.js';
import { periodEnd, periodStart, secondsUntil } from './period.js';

/** A granted consumption. Keep `periodStart` to refund into the same period. */
export interface QuotaGranted {
  ok: true;
  name: QuotaName;
  limit: number;
  /** Units used in the period, this consumption included. */
  used: number;
  remaining: number;
  /** ISO-8601 start of the counted period (UTC). */
  periodStart: string;
  /** ISO-8601 instant the counter resets (UTC). */
  resetsAt: string;
}

/** Outcome of {@link QuotaService.consume}. */
export type ConsumeResult = QuotaGranted | QuotaDenied;

/** Options of {@link createQuotaService}. */
export interface QuotaServiceOptions {
  /** The store's Kysely instance (the `quota_usage` table must be migrated). */
  db: Executor;
  /** Overrides of `DEFAULT_QUOTA_LIMITS`. */
  limits?: QuotaLimitOverrides;
  /** The clock; default `() => new Date()`. */
  now?: () => Date;
  /**
   * Told of every consumption and refund after it happened (for metrics: the app counts them in
   * Prometheus; this package imports no metrics client). Called synchronously; an exception it
   * throws is swallowed so that counting never breaks a consumption. Default: nothing.
   */
  onEvent?: (event: QuotaEvent) => void;
  /**
   * Milliseconds to wait before each further attempt of a refund of {@link QuotaService.withQuota}
   * whose first attempt failed (typically: the database went away during the work). The retries
   * run in the background, so the caller gets the work's error at once. Default
   * {@link DEFAULT_REFUND_RETRY_DELAYS_MS} (about a minute in all).
   */
  refundRetryDelaysMs?: readonly number[];
  /** Told when a refund is given up after every retry (the unit stays consumed). Default: ignore. */
  onRefundLost?: (error: unknown) => void;
}

/**
 * A quota event reported to {@link QuotaServiceOptions.onEvent}: `granted` and `refused` for
 * each {@link QuotaService.consume} (so also each `withQuota`), `refunded` for each
 * {@link QuotaService.refund} that found a counter. `units` is the amount asked or given back.
 */
export interface QuotaEvent {
  readonly outcome: 'granted' | 'refused' | 'refunded';
  readonly name: QuotaName;
  readonly units: number;
}

/** Waits between refund attempts after a failed first one: 0.5 s doubling to 16 s, then 30 s. */
export const DEFAULT_REFUND_RETRY_DELAYS_MS: readonly number[] = [
  500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000,
];

function checkQuota(name: string): asserts name is QuotaName {
  if (!isQuotaName(name)) throw new QuotaError('unknown_quota', `unknown quota: ${name}`);
}

function checkUnits(units: number): void {
  if (!Number.isSafeInteger(units) || units < 1) {
    throw new QuotaError('invalid_units', `units must be a positive integer: ${units}`);
  }
}

/**
 * Creates the quota service: per-plan limits per period, counted in the `quota_usage` table.
 *
 * @example
 * ```ts
 * const quotas = createQuotaService({ db: database.db, limits: config.quotaLimits });
 * const result = await quotas.consume(user.id, user.plan, 'stock_evaluation');
 * if (!result.ok) throw new QuotaError('quota_exceeded', `quota exhausted until ${result.resetsAt}`, { denied: result });
 * try { return await evaluate(symbol) }
 * catch (error) { await quotas.refund(user.id, 'stock_evaluation', { periodStart: result.periodStart }); throw error }
 * ```
 */
export function createQuotaService(options: QuotaServiceOptions) {
  // Every statement on `quota_usage` is the store's (one home per table); this service is policy.
  const counters = createQuotaUsageRepository(options.db);
  const limits = resolveQuotaLimits(options.limits);
  const now = options.now ?? (() => new Date());
  const report = (event: QuotaEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // counting must never break a consumption
    }
  };

  const retryDelays = options.refundRetryDelaysMs ?? DEFAULT_REFUND_RETRY_DELAYS_MS;

  /** Retries a failed refund in the background, one attempt after each delay. */
  const refundLater = (refund: () => Promise<unknown>, attempt = 0): void => {
    const delay = retryDelays[attempt];
    if (delay === undefined) return;
    const timer = setTimeout(() => {
      refund().catch((error: unknown) => {
        if (attempt + 1 < retryDelays.length) refundLater(refund, attempt + 1);
        else options.onRefundLost?.(error);
      });
    }, delay);
    timer.unref?.();
  };

  const window = (plan: Plan, name: QuotaName, at: Date) => {
    const limit: QuotaLimit = limits[plan][name];
    return { ...limit, start: periodStart(at, limit.period), end: periodEnd(at, limit.period) };
  };

  const service = {
    /** The resolved limits (defaults with the overrides applied). */
    limits,

    /**
     * Consumes `units` of a quota for the current period in one atomic SQL statement.
     * @throws {QuotaError} `unknown_quota`, `invalid_units`.
     */
    async consume(userId: string, plan: Plan, name: QuotaName, units = 1): Promise<ConsumeResult> {
      checkQuota(name);
      checkUnits(units);
      const at = now();
      const w = window(plan, name, at);
      const key = { userId, quota: name, periodStart: w.start };
      const base = {
        name,
        limit: w.limit,
        periodStart: w.start.toISOString(),
        resetsAt: w.end.toISOString(),
      };
      const used = await counters.consumeWithin(key, units, w.limit);
      report({ outcome: used === undefined ? 'refused' : 'granted', name, units });
      if (used !== undefined) return { ok: true, ...base, used, remaining: w.limit - used };
      return {
        ok: false,
        ...base,
        used: await counters.used(key),
        retryAfterSeconds: secondsUntil(at, w.end),
      };
    },

    /**
     * Gives units back after failed work (CONTRACT §3), to the period they were taken from (the
     * grant's `periodStart`), never below 0. Answers the units used afterwards (0 when the period
     * has no counter).
     * @throws {QuotaError} `unknown_quota`, `invalid_units`.
     */
    async refund(
      userId: string,
      name: QuotaName,
      refund: { periodStart: string | Date; units?: number },
    ): Promise<number> {
      checkQuota(name);
      const units = refund.units ?? 1;
      checkUnits(units);
      const used = await counters.giveBack(
        { userId, quota: name, periodStart: new Date(refund.periodStart) },
        units,
      );
      if (used !== undefined) report({ outcome: 'refunded', name, units });
      return used ?? 0;
    },

    /**
     * Runs `work` under one unit of a quota: refused → `QuotaError` `quota_exceeded`; work throws
     * → the unit is refunded and the work's error rethrown. When the refund itself fails (the
     * database went away during the work), the work's error is still what is thrown, at once,
     * and the refund is retried in the background (`refundRetryDelaysMs`) so that an outage does
     * not cost the user the unit.
     */
    async withQuota<T>(
      userId: string,
      plan: Plan,
      name: QuotaName,
      work: () => Promise<T>,
    ): Promise<T> {
      const result = await service.consume(userId, plan, name);
      if (!result.ok) throw quotaExceeded(name, result);
      try {
        return await work();
      } catch (error) {
        const refund = () => service.refund(userId, name, { periodStart: result.periodStart });
        await refund().catch(() => refundLater(refund));
        throw error;
      }
    },

    /**
     * Reserves one unit of a quota for work that may end without being charged (an AI answer):
     * refused → `QuotaError` `quota_exceeded` (built by {@link quotaExceeded}, the one place);
     * granted → a {@link QuotaReservation} whose `refund()` gives the unit back at most once
     * (later calls do nothing; a failed refund is retried in the background, as `withQuota`).
     *
     * @example
     * const unit = await quotas.reserve(user.id, user.plan, 'ai_consult');
     * if (answeredNothing) await unit.refund();
     */
    async reserve(userId: string, plan: Plan, name: QuotaName): Promise<QuotaReservation> {
      const result = await service.consume(userId, plan, name);
      if (!result.ok) throw quotaExceeded(name, result);
      let refunded = false;
      return {
        periodStart: result.periodStart,
        async refund() {
          if (refunded) return;
          refunded = true;
          const refund = () => service.refund(userId, name, { periodStart: result.periodStart });
          await refund().catch(() => refundLater(refund));
        },
      };
    },

    /** Every quota of the user's plan with its current usage and reset instant, in `QUOTA_NAMES` order. */
    async usage(userId: string, plan: Plan): Promise<QuotaUsage[]> {
      const at = now();
      return Promise.all(
        QUOTA_NAMES.map(async (name) => {
          const w = window(plan, name, at);
          const used = await counters.used({ userId, quota: name, periodStart: w.start });
          return { name, limit: w.limit, used, resetsAt: w.end.toISOString() };
        }),
      );
    },

    /** Clears a user's counters (one quota or all), every period. Answers the rows removed. */
    async reset(userId: string, name?: QuotaName): Promise<number> {
      if (name !== undefined) checkQuota(name);
      return counters.clear(userId, name);
    },
  };
  return service;
}

/** A unit reserved by {@link QuotaService.reserve}. */
export interface QuotaReservation {
  /** The period the unit was counted in (ISO 8601). */
  readonly periodStart: string;
  /** Gives the unit back; at most once, later calls do nothing. */
  refund(): Promise<void>;
}

/**
 * The one `quota_exceeded` error: the quota's name and reset instant in the message, the refused
 * consumption (limit, used, reset, retry-after) as `denied` for the 429 problem.
 */
export function quotaExceeded(name: QuotaName, denied: QuotaDenied): QuotaError {
  return new QuotaError('quota_exceeded', `quota ${name} exhausted until ${denied.resetsAt}`, {
    denied,
  });
}

/** The quota service (see {@link createQuotaService}). */
export type QuotaService = ReturnType<typeof createQuotaService>;
