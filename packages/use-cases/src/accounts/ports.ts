/**
 * What the HTTP layer needs from storage and quotas, written as narrow structural interfaces.
 * `createRepositories(db)` of `@svc/portfolio-store` and `createQuotaService()` of `@svc/quota`
 * satisfy them as they are; tests may pass the same real implementations over PGlite/Postgres.
 */

import type { NewTokenActivity } from '@svc/portfolio-store';
import type { Plan, QuotaName } from '@svc/schemas';

/** A plan name (CONTRACT §3): `Plan` of `@svc/schemas`. */
export type PlanName = Plan;

/** A user as the API shows it (no password hash). */
export interface AccountUser {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly plan: PlanName;
  readonly hasPassword: boolean;
  /** ISO 8601. */
  readonly createdAt: string;
}

/** A personal access token as listed to its owner (never the secret). */
export interface AccountToken {
  readonly id: string;
  readonly name: string;
  readonly prefix: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly expiresAt: string | null;
  /** The token's scopes as stored (see `TokenScope`). */
  readonly scopes: readonly string[];
}

/**
 * One recorded call of a token, MCP or REST (the audit log; `TokenActivity` of
 * `@svc/portfolio-store`).
 */
export interface AccountTokenActivity {
  readonly id: string;
  readonly at: string;
  readonly tool: string;
  readonly outcome: string;
  readonly errorCode: string | null;
  readonly quotaSpent: Readonly<Record<string, number>>;
  readonly durationMs: number;
  readonly arguments: unknown;
}

/** A server-side session row. */
export interface AccountSession {
  readonly id: string;
  readonly userId: string;
  readonly expiresAt: string;
  /** When the session was opened (the sign-in), ISO 8601. */
  readonly createdAt: string;
}

/** The user, session and token repositories the auth routes use. */
export interface AccountRepositories {
  readonly users: {
    create(user: {
      email: string;
      name?: string | null;
      passwordHash?: string | null;
    }): Promise<AccountUser>;
    findById(id: string): Promise<AccountUser | undefined>;
    findCredentialsByEmail(
      email: string,
    ): Promise<{ user: AccountUser; passwordHash: string | null } | undefined>;
    findOrCreateByOidc(identity: {
      issuer: string;
      subject: string;
      email: string;
      name?: string | null;
    }): Promise<AccountUser>;
    /** Replaces the password hash; answers whether the user exists. */
    setPasswordHash(id: string, passwordHash: string): Promise<boolean>;
    /**
     * Deletes the user and every row that references it, and the shared counters whose key
     * contains one of the fragments, in one database transaction; answers whether it existed.
     */
    erase(id: string, options: { counterKeyFragments: readonly string[] }): Promise<boolean>;
  };
  readonly sessions: {
    create(
      userId: string,
      session: { expiresAt: Date; userAgent?: string | null; ip?: string | null },
    ): Promise<AccountSession>;
    findActive(userId: string, sessionId: string, now: Date): Promise<AccountSession | undefined>;
    revoke(userId: string, sessionId: string, now: Date): Promise<boolean>;
    /** Revokes every live session of the user but one; answers the ids revoked. */
    revokeOthers(userId: string, keepSessionId: string, now: Date): Promise<string[]>;
  };
  readonly tokens: {
    create(
      userId: string,
      token: {
        name: string;
        prefix: string;
        tokenHash: string;
        expiresAt?: Date | null;
        scopes: readonly string[];
      },
    ): Promise<AccountToken>;
    list(userId: string): Promise<AccountToken[]>;
    findActiveByHash(
      tokenHash: string,
      now: Date,
    ): Promise<{ userId: string; token: AccountToken } | undefined>;
    revoke(userId: string, tokenId: string, now: Date): Promise<boolean>;
    updateScopes(
      userId: string,
      tokenId: string,
      scopes: readonly string[],
    ): Promise<AccountToken | undefined>;
    owns(userId: string, tokenId: string): Promise<boolean>;
  };
  readonly tokenActivity: {
    /** Records calls in one statement (nothing for an empty list); the store's own row shape. */
    recordMany(entries: readonly NewTokenActivity[]): Promise<void>;
    page(
      userId: string,
      tokenId: string,
      options: { since: Date; limit: number; offset: number },
    ): Promise<{ items: AccountTokenActivity[]; total: number }>;
    purge(before: Date): Promise<number>;
  };
}

/** One quota's state for the session endpoint (CONTRACT §2). */
export interface QuotaUsageEntry {
  readonly name: QuotaName;
  readonly limit: number;
  readonly used: number;
  readonly resetsAt: Date | string;
}

/** Reads a user's quota usage (`@svc/quota`'s `usage`). */
export interface QuotaUsageReader {
  usage(userId: string, plan: PlanName): Promise<readonly QuotaUsageEntry[]>;
}

/** Password hashing (`@svc/portfolio-store`'s argon2id helpers). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Verifies; with an absent hash it still does the work of a verification and answers false. */
  verify(storedHash: string | null | undefined, password: string): Promise<boolean>;
}

/** An authenticated request: the user and the live session row. */
export interface Authenticated {
  readonly user: AccountUser;
  readonly session: AccountSession;
}
