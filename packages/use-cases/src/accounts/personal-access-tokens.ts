import { UseCaseError } from '../errors.js';
import type { AccountRepositories, AccountToken, AccountUser } from './ports.js';
import { createRevocableMemo, type RevocableMemo } from './revocable-memo.js';

/** Token helpers of `@svc/portfolio-store` (minting, hashing, shape check). */
export interface TokenCrypto {
  mint(): { token: string; prefix: string; hash: string };
  hash(token: string): string;
  looksValid(token: string): boolean;
}

/** Default lifetime of a personal access token when the request names none. */
export const DEFAULT_TOKEN_LIFETIME_DAYS = 90;

/** Checks a bearer token and answers its owner, or `null`. */
export type PersonalAccessTokenVerifier = (token: string) => Promise<AccountUser | null>;

/** A verified token as the memo keeps it. */
export interface VerifiedToken {
  readonly tokenId: string;
  readonly user: AccountUser;
  readonly expiresAt: string | null;
  /** When `last_used_at` was last written (epoch ms). */
  touchedAt: number;
}

/** The in-process memory of verified tokens (keyed by the token's hash). */
export type TokenMemo = RevocableMemo<VerifiedToken>;

/** `last_used_at` is written at most once per this many milliseconds per token and process. */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/**
 * Creates a {@link TokenMemo}: a revocable memo of tokens (forgotten on `token:<id>` and
 * `user:<id>` announcements). With `ttlMs` 0 it remembers nothing.
 */
export function createTokenMemo(options: { ttlMs: number; suspended?: boolean }): TokenMemo {
  return createRevocableMemo<VerifiedToken>({
    ...options,
    kind: 'token',
    identify: (verified) => ({
      id: verified.tokenId,
      userId: verified.user.id,
      expiresAt: verified.expiresAt,
    }),
  });
}

/**
 * Personal access token use cases: mint (secret shown once), list, revoke, verify. Tokens are
 * stored only as SHA-256 hashes; verification is a lookup on the hash (no secret-dependent
 * comparison in JavaScript), refuses revoked and expired tokens and touches `lastUsedAt`.
 *
 * With a `memo`, a token verified in the last few seconds is answered from memory (revocations
 * reach the memo at once, see {@link TokenMemo}); `lastUsedAt` is then written at most once per
 * {@link TOKEN_TOUCH_INTERVAL_MS}, by a verification against the row that also re-checks it.
 */
export function createPersonalAccessTokens(deps: {
  repos: AccountRepositories;
  crypto: TokenCrypto;
  now: () => Date;
  memo?: TokenMemo;
}) {
  const { repos, crypto, now, memo } = deps;

  const verifyRow = async (hash: string): Promise<VerifiedToken | null> => {
    const found = await repos.tokens.findActiveByHash(hash, now());
    if (!found) return null;
    const user = await repos.users.findById(found.userId);
    if (!user) return null;
    return {
      tokenId: found.token.id,
      user,
      expiresAt: found.token.expiresAt,
      touchedAt: now().getTime(),
    };
  };

  const verify: PersonalAccessTokenVerifier = async (token) => {
    if (!crypto.looksValid(token)) return null;
    const hash = crypto.hash(token);
    const at = now();
    const remembered = memo?.get(hash, at);
    if (remembered && at.getTime() - remembered.touchedAt < TOKEN_TOUCH_INTERVAL_MS) {
      return remembered.user;
    }
    const version = memo?.version() ?? 0;
    const verified = await verifyRow(hash);
    if (!verified) return null;
    memo?.set(hash, verified, version);
    return verified.user;
  };

  return {
    /** Mints a token for `userId`; the answer is the only place the secret appears. */
    async mint(userId: string, input: { name: string; expiresInDays?: number | undefined }) {
      const minted = crypto.mint();
      const days = input.expiresInDays ?? DEFAULT_TOKEN_LIFETIME_DAYS;
      const expiresAt = new Date(now().getTime() + days * 86_400_000);
      const record = await repos.tokens.create(userId, {
        name: input.name,
        prefix: minted.prefix,
        tokenHash: minted.hash,
        expiresAt,
      });
      return {
        id: record.id,
        name: record.name,
        token: minted.token,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
      };
    },
    /** The user's tokens (not revoked), without secrets. */
    list: (userId: string): Promise<AccountToken[]> => repos.tokens.list(userId),
    /**
     * Revokes one of the user's tokens.
     * @throws {UseCaseError} `not_found` when the user has no live token with this id.
     */
    async revoke(userId: string, tokenId: string): Promise<void> {
      memo?.forget({ kind: 'token', id: tokenId });
      const revoked = await repos.tokens.revoke(userId, tokenId, now());
      memo?.forget({ kind: 'token', id: tokenId });
      if (!revoked) throw new UseCaseError('not_found', 'No token with this id.');
    },
    verify,
  };
}

/** The token use cases (see {@link createPersonalAccessTokens}). */
export type PersonalAccessTokens = ReturnType<typeof createPersonalAccessTokens>;
