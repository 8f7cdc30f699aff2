import type { NewTokenActivity } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { auditArguments } from './audit-arguments.js';
import { groupCommit } from './group-commit.js';
import type { AccountRepositories, AccountTokenActivity } from './ports.js';

/** Default days a recorded call is kept (`AUDIT_RETENTION_DAYS`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

/** Default and largest page size of a token's activity (as the screener's). */
export const ACTIVITY_PAGE_DEFAULT = 20;
/** Largest page size of a token's activity. */
export const ACTIVITY_PAGE_MAX = 100;

/**
 * One call made with a personal access token to record (see {@link createTokenActivity}): an MCP
 * call, or a REST call of a route that takes a token (`auth: 'session-or-token'`, the X-ray).
 */
export interface TokenCallRecord {
  readonly tokenId: string;
  readonly userId: string;
  /** When the call started. */
  readonly at: Date;
  /** The tool (or other MCP item) called, or the REST route (`GET /api/portfolios/:id/xray`). */
  readonly tool: string;
  /** `ok`, `error` (answered a problem) or `denied` (a scope was missing). */
  readonly outcome: 'ok' | 'error' | 'denied';
  /** The problem code of a failed call. */
  readonly errorCode?: string | undefined;
  /** Units spent per quota. */
  readonly quotaSpent: Readonly<Record<string, number>>;
  readonly durationMs: number;
  /** The arguments as received; redacted and bounded here ({@link auditArguments}). */
  readonly arguments: unknown;
}

/** A page of a token's activity (the page shape of the screener, CONTRACT §4). */
export interface TokenActivityPage {
  readonly items: (AccountTokenActivity & { readonly outcome: TokenCallRecord['outcome'] })[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;
  readonly totalPages: number;
}

/**
 * The audit log of personal access tokens: every call made with a token — each MCP call, and each
 * REST call of a route that takes a token (the X-ray) — with its tool or route, instant, outcome,
 * quota spent, duration and redacted arguments, readable by the token's owner only and
 * kept `retentionDays` (older rows are never answered, and `purgeExpired` deletes them).
 *
 * @example
 * const activity = createTokenActivity({ repos, now: () => new Date(), retentionDays: 90 });
 * await activity.record({ tokenId, userId, at, tool: 'screenMoat', outcome: 'ok', … });
 */
export function createTokenActivity(deps: {
  repos: Pick<AccountRepositories, 'tokens' | 'tokenActivity'>;
  now: () => Date;
  retentionDays: number;
}) {
  const { repos, now } = deps;
  const cutoff = () => new Date(now().getTime() - deps.retentionDays * 86_400_000);
  const write = groupCommit((rows: NewTokenActivity[]) => repos.tokenActivity.recordMany(rows));
  return {
    /**
     * Records one call, arguments redacted and bounded; resolves once its row is written (and
     * rejects when it cannot be). Calls recorded while an earlier INSERT is still in flight are
     * written together in the next one ({@link groupCommit}): one statement per batch, not per call.
     */
    record(call: TokenCallRecord): Promise<void> {
      return write({
        tokenId: call.tokenId,
        userId: call.userId,
        at: call.at,
        tool: call.tool,
        outcome: call.outcome,
        errorCode: call.errorCode ?? null,
        quotaSpent: call.quotaSpent,
        durationMs: call.durationMs,
        arguments: auditArguments(call.arguments),
      });
    },

    /**
     * One page of the calls of one of the user's tokens (revoked ones included), newest first,
     * within the retention period.
     * @throws {UseCaseError} `not_found` when the user owns no token with this id (another
     *   user's token included).
     */
    async page(
      userId: string,
      tokenId: string,
      query: { page?: number | undefined; limit?: number | undefined },
    ): Promise<TokenActivityPage> {
      const page = query.page ?? 1;
      const limit = query.limit ?? ACTIVITY_PAGE_DEFAULT;
      if (!(await repos.tokens.owns(userId, tokenId))) {
        throw new UseCaseError('not_found', 'No token with this id.');
      }
      const { items, total } = await repos.tokenActivity.page(userId, tokenId, {
        since: cutoff(),
        limit,
        offset: (page - 1) * limit,
      });
      const typed = items.map((item) => ({
        ...item,
        outcome: item.outcome as TokenCallRecord['outcome'],
      }));
      return { items: typed, page, limit, total, totalPages: Math.ceil(total / limit) };
    },

    /** Deletes the calls older than the retention period; answers how many. */
    purgeExpired: (): Promise<number> => repos.tokenActivity.purge(cutoff()),
  };
}

/** The token activity flows (see {@link createTokenActivity}). */
export type TokenActivity = ReturnType<typeof createTokenActivity>;

/** How often {@link scheduleActivityPurge} deletes expired calls: hourly. */
export const ACTIVITY_PURGE_INTERVAL_MS = 3_600_000;

/**
 * Purges expired token activity now and then every `everyMs` (default hourly), on a timer that
 * does not keep the process alive; answers how to stop. Several processes purging the same
 * database is harmless (a DELETE by age).
 */
export function scheduleActivityPurge(
  activity: Pick<TokenActivity, 'purgeExpired'>,
  options: { everyMs?: number; onError?: (error: unknown) => void } = {},
): () => void {
  const purge = () => void activity.purgeExpired().catch((error) => options.onError?.(error));
  purge();
  const timer = setInterval(purge, options.everyMs ?? ACTIVITY_PURGE_INTERVAL_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
