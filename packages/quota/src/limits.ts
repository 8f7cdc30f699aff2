import { PLAN_NAMES, type Plan, QUOTA_NAMES, type QuotaName } from '@svc/schemas';
import { z } from 'zod';
import { QuotaError } from './errors.js';

/** Counting periods, in UTC: a calendar day or a calendar month (CONTRACT §3 default). */
export type QuotaPeriod = 'day' | 'month';

/** The limit of one quota on one plan: `limit` units per `period`. */
export interface QuotaLimit {
  /** Units per period; 0 disables the quota for the plan. */
  limit: number;
  period: QuotaPeriod;
}

/** Limits for every plan and quota. */
export type QuotaLimits = Record<Plan, Record<QuotaName, QuotaLimit>>;

/** Partial limits to lay over {@link DEFAULT_QUOTA_LIMITS}. */
export type QuotaLimitOverrides = Partial<
  Record<Plan, Partial<Record<QuotaName, Partial<QuotaLimit>>>>
>;

/**
 * Default limits, per calendar month (UTC). Our own choice (the interface spec leaves the amounts
 * open, §8): free 10 fresh evaluations and 5 AI answers, pro 500 and 200.
 */
export const DEFAULT_QUOTA_LIMITS: QuotaLimits = {
  free: {
    stock_evaluation: { limit: 10, period: 'month' },
    ai_consult: { limit: 5, period: 'month' },
  },
  pro: {
    stock_evaluation: { limit: 500, period: 'month' },
    ai_consult: { limit: 200, period: 'month' },
  },
};

const LimitOverride = z
  .object({ limit: z.number().int().min(0), period: z.enum(['day', 'month']) })
  .partial()
  .strict();
const PlanOverride = z
  .object({ stock_evaluation: LimitOverride, ai_consult: LimitOverride })
  .partial()
  .strict();

/**
 * Zod schema of {@link QuotaLimitOverrides}, e.g. for a `QUOTA_LIMITS` JSON variable parsed at
 * the app's edge: `{"free":{"ai_consult":{"limit":3}},"pro":{"stock_evaluation":{"period":"day"}}}`.
 */
export const QuotaLimitOverridesSchema = z
  .object({ free: PlanOverride, pro: PlanOverride })
  .partial()
  .strict();

/**
 * Lays overrides over the defaults.
 * @throws {QuotaError} `invalid_limits` when the overrides do not match
 *   {@link QuotaLimitOverridesSchema} (unknown plan or quota, negative or fractional limit).
 */
export function resolveQuotaLimits(overrides: QuotaLimitOverrides = {}): QuotaLimits {
  const parsed = QuotaLimitOverridesSchema.safeParse(overrides);
  if (!parsed.success) {
    throw new QuotaError('invalid_limits', `invalid quota limits: ${parsed.error.message}`, {
      cause: parsed.error,
    });
  }
  const resolve = (plan: Plan): Record<QuotaName, QuotaLimit> => ({
    stock_evaluation: {
      ...DEFAULT_QUOTA_LIMITS[plan].stock_evaluation,
      ...parsed.data[plan]?.stock_evaluation,
    },
    ai_consult: { ...DEFAULT_QUOTA_LIMITS[plan].ai_consult, ...parsed.data[plan]?.ai_consult },
  });
  return Object.fromEntries(PLAN_NAMES.map((plan) => [plan, resolve(plan)])) as QuotaLimits;
}

/** True when `name` is a quota name (one of `QUOTA_NAMES` of `@svc/schemas`). */
export function isQuotaName(name: string): name is QuotaName {
  return (QUOTA_NAMES as readonly string[]).includes(name);
}

/** True when `name` is a plan (one of `PLAN_NAMES` of `@svc/schemas`). */
export function isPlan(name: string): name is Plan {
  return (PLAN_NAMES as readonly string[]).includes(name);
}
