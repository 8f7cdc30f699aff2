import type { AccountRepositories, AccountToken, AccountUser } from '../accounts/ports.js';
import { ApiError } from '../problem.js';

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

/**
 * Personal access token use cases: mint (secret shown once), list, revoke, verify. Tokens are
 * stored only as SHA-256 hashes; verification is a lookup on the hash (no secret-dependent
 * comparison in JavaScript), refuses revoked and expired tokens and touches `lastUsedAt`.
 */
export function createPersonalAccessTokens(deps: {
  repos: AccountRepositories;
  crypto: TokenCrypto;
  now: () => Date;
}) {
  const { repos, crypto, now } = deps;

  const verify: PersonalAccessTokenVerifier = async (token) => {
    if (!crypto.looksValid(token)) return null;
    const found = await repos.tokens.findActiveByHash(crypto.hash(token), now());
    if (!found) return null;
    return (await repos.users.findById(found.userId)) ?? null;
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
     * @throws {ApiError} `not_found` when the user has no live token with this id.
     */
    async revoke(userId: string, tokenId: string): Promise<void> {
      const revoked = await repos.tokens.revoke(userId, tokenId, now());
      if (!revoked) throw new ApiError('not_found', 'No token with this id.');
    },
    verify,
  };
}

/** The token use cases (see {@link createPersonalAccessTokens}). */
export type PersonalAccessTokens = ReturnType<typeof createPersonalAccessTokens>;

/**
 * The PAT check for the MCP app, without building the HTTP app: `svc_pat_` shape, SHA-256 hash
 * lookup, refuses revoked and expired tokens, touches `lastUsedAt`; answers the owner or `null`.
 *
 * @example
 * const verifyPersonalAccessToken = createPersonalAccessTokenVerifier({ repos });
 * const user = await verifyPersonalAccessToken(bearer); // null → 401 + WWW-Authenticate: Bearer
 */
export function createPersonalAccessTokenVerifier(deps: {
  repos: AccountRepositories;
  crypto: TokenCrypto;
  now?: () => Date;
}): PersonalAccessTokenVerifier {
  return createPersonalAccessTokens({ ...deps, now: deps.now ?? (() => new Date()) }).verify;
}
