import type { Selectable } from 'kysely';
import type { PersonalAccessTokensTable } from '../db-types.js';
import { toStoreError } from '../errors.js';
import { type Executor, iso, isoOrNull, isUuid } from './shared.js';

/** A personal access token as listed to its owner (CONTRACT §2): never the secret or its hash. */
export interface PersonalAccessToken {
  id: string;
  name: string;
  /** The first characters of the token, for recognition. */
  prefix: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601, null until first used. */
  lastUsedAt: string | null;
  /** ISO-8601, null for a token without expiry. */
  expiresAt: string | null;
  /** The token's scopes as stored (`TokenScope`s of `@svc/use-cases`). */
  scopes: string[];
}

/** Fields of a new token: hash and prefix from `mintPersonalAccessToken()`. */
export interface NewPersonalAccessToken {
  name: string;
  prefix: string;
  tokenHash: string;
  expiresAt?: Date | null;
  /** The token's scopes (at least one; the flows check their names). */
  scopes: readonly string[];
}

function toToken(row: Selectable<PersonalAccessTokensTable>): PersonalAccessToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.created_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    expiresAt: isoOrNull(row.expires_at),
    scopes: [...row.scopes],
  };
}

/** Creates the personal-access-token repository over `db`. */
export function createPersonalAccessTokensRepository(db: Executor) {
  return {
    /**
     * Stores a token's hash for a user.
     * @throws {StoreError} `conflict` when the hash already exists.
     */
    async create(userId: string, token: NewPersonalAccessToken): Promise<PersonalAccessToken> {
      const row = await db
        .insertInto('personal_access_tokens')
        .values({
          user_id: userId,
          name: token.name,
          prefix: token.prefix,
          token_hash: token.tokenHash,
          expires_at: token.expiresAt ?? null,
          scopes: [...token.scopes],
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((error: unknown) => {
          throw toStoreError(error, 'personal access token');
        });
      return toToken(row);
    },

    /** The user's tokens that are not revoked (expired ones included), newest first. */
    async list(userId: string): Promise<PersonalAccessToken[]> {
      const rows = await db
        .selectFrom('personal_access_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toToken);
    },

    /**
     * Authenticates a bearer token by its hash (`hashToken(token)`): when a token with this hash is
     * neither revoked nor expired at `now`, sets its `last_used_at` to `now` in the same statement
     * and answers the token with its owner's id. The lookup is an equality on a unique index of
     * SHA-256 digests, so no secret-dependent comparison happens in JavaScript.
     */
    async findActiveByHash(
      tokenHash: string,
      now: Date,
    ): Promise<{ userId: string; token: PersonalAccessToken } | undefined> {
      const row = await db
        .updateTable('personal_access_tokens')
        .set({ last_used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .returningAll()
        .executeTakeFirst();
      return row && { userId: row.user_id, token: toToken(row) };
    },

    /**
     * Replaces the scopes of a user's live token (not revoked); the change is announced to every
     * process at once (trigger of migration 0010). Answers the token, or undefined when the user
     * has no live token with this id.
     */
    async updateScopes(
      userId: string,
      tokenId: string,
      scopes: readonly string[],
    ): Promise<PersonalAccessToken | undefined> {
      if (!isUuid(tokenId)) return undefined;
      const row = await db
        .updateTable('personal_access_tokens')
        .set({ scopes: [...scopes] })
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      return row && toToken(row);
    },

    /** Whether the user owns a token with this id (revoked or not). */
    async owns(userId: string, tokenId: string): Promise<boolean> {
      if (!isUuid(tokenId)) return false;
      const row = await db
        .selectFrom('personal_access_tokens')
        .select('id')
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Revokes a user's token; it stops working at once. Answers whether one was revoked. */
    async revoke(userId: string, tokenId: string, now: Date): Promise<boolean> {
      if (!isUuid(tokenId)) return false;
      const result = await db
        .updateTable('personal_access_tokens')
        .set({ revoked_at: now })
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

/** The personal-access-token repository (see {@link createPersonalAccessTokensRepository}). */
export type PersonalAccessTokensRepository = ReturnType<
  typeof createPersonalAccessTokensRepository
>;
