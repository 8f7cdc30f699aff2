import { z } from 'zod';

/** The plans of CONTRACT §3, cheapest first; a plan decides the quota limits. */
export const PLAN_NAMES = ['free', 'pro'] as const;

/** A user's plan (`free` or `pro`), deciding the quota limits (CONTRACT §3). */
export const Plan = z.enum(PLAN_NAMES).describe('Plan deciding the quota limits');

/** A plan name (see {@link Plan}). */
export type Plan = z.infer<typeof Plan>;

/** The quotas of CONTRACT §3: what a plan allows per period. */
export const QUOTA_NAMES = ['stock_evaluation', 'ai_consult'] as const;

/** A quota name (`stock_evaluation` or `ai_consult`). */
export const QuotaName = z.enum(QUOTA_NAMES).describe('Quota name: stock_evaluation or ai_consult');

/** A quota name (see {@link QuotaName}). */
export type QuotaName = z.infer<typeof QuotaName>;

/**
 * The state of one quota in the current period (CONTRACT §2 `quotas` item, and the `quota` of a
 * `quota_exceeded` problem): units allowed and used, and the instant (UTC) the period ends.
 */
export const QuotaUsage = z
  .object({
    name: QuotaName,
    limit: z.number().int().describe("Units per period for the user's plan"),
    used: z.number().int().describe('Units used in the current period'),
    resetsAt: z.iso.datetime({ offset: true }).describe('ISO 8601 instant the period ends (UTC)'),
  })
  .meta({ id: 'QuotaUsage' });

/** One quota's state (see {@link QuotaUsage}). */
export type QuotaUsage = z.infer<typeof QuotaUsage>;

/** One label of a saved report: 1–50 characters after trimming. */
export const Tag = z.string().trim().min(1).max(50).describe('A label, 1–50 characters');

/** Labels of a saved report or a filter: at most 20 {@link Tag}s. */
export const Tags = z.array(Tag).max(20).describe('Labels for filtering, at most 20');

/** Labels (see {@link Tags}). */
export type Tags = z.infer<typeof Tags>;

/**
 * The one e-mail rule of the service, stricter than zod's default so that the server and the
 * JSON Schema `format: email` of its document agree: a dot-atom local part of letters, digits and
 * `_ ' + -`; a domain of dot-separated labels of 1–63 letters, digits and inner hyphens (no label
 * starts or ends with `-`), ending in a top-level domain of 2–63 letters (RFC 5321 §4.1.2, RFC
 * 1035 §2.3.4), the local part at most 64 characters (RFC 5321 §4.5.3.1.1; the one lookahead,
 * which regex-driven generators such as Hypothesis's `from_regex` satisfy by filtering).
 */
const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * An e-mail address as sign-up, sign-in and the user record accept it: {@link EMAIL_PATTERN} (a
 * local part of at most 64 characters), at most 254 characters (RFC 5321's path limit less the
 * brackets).
 *
 * @example
 * ```ts
 * EmailAddress.safeParse('x@example-.com').success // false: a label ends with "-"
 * ```
 */
export const EmailAddress = z.email({ pattern: EMAIL_PATTERN }).max(254);
