import { UseCaseError } from '../errors.js';
import { DEFAULT_TOKEN_SCOPES } from '../tools/catalog.js';
import type { AccountRepositories, AccountToken, AccountUser } from './ports.js';
import { createRevocableMemo, type RevocableMemo } from './revocable-memo.js';
import { knownScopes, type TokenScope, withNeededScopes } from './scopes.js';

/** Token helpers of `@svc/portfolio-store` (minting, hashing, shape check). */
export interface TokenCrypto {
  mint(): { token: string; prefix: string; hash: string };
  hash(token: string): string;
  looksValid(token: string): boolean;
}

/**
 * The scopes a token is given for the wanted ones (those they need added).
 * @throws {UseCaseError} `validation_failed` for none.
 */
function grantedScopes(wanted: readonly TokenScope[]): TokenScope[] {
  const scopes = withNeededScopes(wanted);
  if (scopes.length === 0) {
    throw new UseCaseError('validation_failed', 'A token needs at least one scope.', {
      errors: [{ path: 'body.scopes', message: 'at least one scope' }],
    });
  }
  return scopes;
}

/** A token as listed to its owner, with its known scopes. */
export type ListedToken = Omit<AccountToken, 'scopes'> & { readonly scopes: TokenScope[] };

const listed = (token: AccountToken): ListedToken => ({
  ...token,
  scopes: knownScopes(token.scopes),
});

/** Default lifetime of a personal access token when the request names none. */
export const DEFAULT_TOKEN_LIFETIME_DAYS = 90;

/** Checks a bearer token and answers its owner, or `null`. */
export type PersonalAccessTokenVerifier = (token: string) => Promise<AccountUser | null>;

/** Who a verified token acts for, and with which rights. */
export interface TokenPrincipal {
  readonly tokenId: string;
  readonly user: AccountUser;
  /** The token's scopes (known ones only; see `TOKEN_SCOPES`). */
  readonly scopes: readonly TokenScope[];
}

/** A verified token as the memo keeps it. */
export interface VerifiedToken extends TokenPrincipal {
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
      scopes: knownScopes(found.token.scopes),
      expiresAt: found.token.expiresAt,
      touchedAt: now().getTime(),
    };
  };

  const authenticate = async (token: string): Promise<TokenPrincipal | null> => {
    if (!crypto.looksValid(token)) return null;
    const hash = crypto.hash(token);
    const at = now();
    const remembered = memo?.get(hash, at);
    if (remembered && at.getTime() - remembered.touchedAt < TOKEN_TOUCH_INTERVAL_MS) {
      return remembered;
    }
    const version = memo?.version() ?? 0;
    const verified = await verifyRow(hash);
    if (!verified) return null;
    memo?.set(hash, verified, version);
    return verified;
  };

  const verify: PersonalAccessTokenVerifier = async (token) =>
    (await authenticate(token))?.user ?? null;

  /** Forgets a token in this process (others hear of it from the database's announcement). */
  const forget = (tokenId: string) => memo?.forget({ kind: 'token', id: tokenId });

  return {
    /**
     * Mints a token for `userId`; the answer is the only place the secret appears. `scopes`
     * default to {@link DEFAULT_TOKEN_SCOPES}; the scopes they need are added
     * ({@link withNeededScopes}), and the answer names them all.
     */
    async mint(
      userId: string,
      input: {
        name: string;
        expiresInDays?: number | undefined;
        scopes?: readonly TokenScope[] | undefined;
      },
    ) {
      const scopes = grantedScopes(input.scopes ?? DEFAULT_TOKEN_SCOPES);
      const minted = crypto.mint();
      const days = input.expiresInDays ?? DEFAULT_TOKEN_LIFETIME_DAYS;
      const expiresAt = new Date(now().getTime() + days * 86_400_000);
      const record = await repos.tokens.create(userId, {
        name: input.name,
        prefix: minted.prefix,
        tokenHash: minted.hash,
        expiresAt,
        scopes,
      });
      return {
        id: record.id,
        name: record.name,
        token: minted.token,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
        scopes,
      };
    },
    /**
     * Replaces the scopes of one of the user's live tokens (the scopes they need added); the
     * change acts at once, in this process and, through the database, in every other.
     * @throws {UseCaseError} `not_found` when the user has no live token with this id;
     *   `validation_failed` for no scope.
     */
    async updateScopes(
      userId: string,
      tokenId: string,
      wanted: readonly TokenScope[],
    ): Promise<ListedToken> {
      const scopes = grantedScopes(wanted);
      forget(tokenId);
      const updated = await repos.tokens.updateScopes(userId, tokenId, scopes);
      forget(tokenId);
      if (!updated) throw new UseCaseError('not_found', 'No token with this id.');
      return listed(updated);
    },
    /** The user's tokens (not revoked), without secrets. */
    list: async (userId: string): Promise<ListedToken[]> =>
      (await repos.tokens.list(userId)).map(listed),
    /**
     * Revokes one of the user's tokens.
     * @throws {UseCaseError} `not_found` when the user has no live token with this id.
     */
    async revoke(userId: string, tokenId: string): Promise<void> {
      forget(tokenId);
      const revoked = await repos.tokens.revoke(userId, tokenId, now());
      forget(tokenId);
      if (!revoked) throw new UseCaseError('not_found', 'No token with this id.');
    },
    verify,
    /** Checks a bearer token: its owner, id and scopes, or null (see the factory's comment). */
    authenticate,
  };
}

/** The token use cases (see {@link createPersonalAccessTokens}). */
export type PersonalAccessTokens = ReturnType<typeof createPersonalAccessTokens>;
