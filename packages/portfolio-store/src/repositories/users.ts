import type { Selectable } from 'kysely';
import type { Plan, UsersTable } from '../db-types.js';
import { StoreError, toStoreError } from '../errors.js';
import { type Executor, inTransaction, iso, isUuid } from './shared.js';

/** A user as the API shows it (no password hash). */
export interface User {
  id: string;
  /** Lower-cased e-mail address. */
  email: string;
  name: string | null;
  plan: Plan;
  /** Whether the user can sign in with a password (false for OIDC-only users). */
  hasPassword: boolean;
  /** ISO-8601. */
  createdAt: string;
}

/** Fields of a new user. Give a `passwordHash` (from `hashPassword`) or an `oidc` identity, or both. */
export interface NewUser {
  email: string;
  name?: string | null;
  passwordHash?: string | null;
  oidc?: { issuer: string; subject: string };
  /** Default `free`. */
  plan?: Plan;
}

/** An OIDC identity with the claims used to create or link a user. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
  email: string;
  name?: string | null;
}

/** Normalises an e-mail address for storage and lookup: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    plan: row.plan,
    hasPassword: row.password_hash !== null,
    createdAt: iso(row.created_at),
  };
}

/** Creates the users repository over `db`. */
export function createUsersRepository(db: Executor) {
  const byEmail = (email: string) =>
    db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', normalizeEmail(email)));

  return {
    /**
     * Creates a user with a lower-cased e-mail.
     * @throws {StoreError} `conflict` when the e-mail (or the OIDC identity) is already registered.
     */
    async create(user: NewUser): Promise<User> {
      const row = await db
        .insertInto('users')
        .values({
          email: normalizeEmail(user.email),
          name: user.name ?? null,
          password_hash: user.passwordHash ?? null,
          oidc_issuer: user.oidc?.issuer ?? null,
          oidc_subject: user.oidc?.subject ?? null,
          plan: user.plan,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch((error: unknown) => {
          throw toStoreError(error, 'user');
        });
      return toUser(row);
    },

    /** Finds a user by e-mail, case-insensitively. */
    async findByEmail(email: string): Promise<User | undefined> {
      const row = await byEmail(email).executeTakeFirst();
      return row && toUser(row);
    },

    /**
     * Finds a user and the stored password hash by e-mail, for a login check with
     * `verifyPassword(found?.passwordHash, password)`.
     */
    async findCredentialsByEmail(
      email: string,
    ): Promise<{ user: User; passwordHash: string | null } | undefined> {
      const row = await byEmail(email).executeTakeFirst();
      return row && { user: toUser(row), passwordHash: row.password_hash };
    },

    /** Finds a user by id. */
    async findById(id: string): Promise<User | undefined> {
      if (!isUuid(id)) return undefined;
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toUser(row);
    },

    /** Finds a user by OIDC issuer and subject. */
    async findByOidcSubject(issuer: string, subject: string): Promise<User | undefined> {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('oidc_issuer', '=', issuer)
        .where('oidc_subject', '=', subject)
        .executeTakeFirst();
      return row && toUser(row);
    },

    /**
     * Resolves an OIDC sign-in: the user with this identity; else the user with this e-mail,
     * to whom the identity is linked (only when the user has no other identity yet); else a new
     * user. The caller must only pass an e-mail the provider reports as verified.
     * @throws {StoreError} `conflict` when the e-mail belongs to a user linked to another identity.
     */
    async findOrCreateByOidc(identity: OidcIdentity): Promise<User> {
      const known = await this.findByOidcSubject(identity.issuer, identity.subject);
      if (known) return known;
      const linked = await db
        .updateTable('users')
        .set({ oidc_issuer: identity.issuer, oidc_subject: identity.subject })
        .where((eb) => eb(eb.fn('lower', ['email']), '=', normalizeEmail(identity.email)))
        .where('oidc_subject', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (linked) return toUser(linked);
      return this.create({
        email: identity.email,
        name: identity.name ?? null,
        oidc: { issuer: identity.issuer, subject: identity.subject },
      });
    },

    /**
     * Sets a user's plan.
     * @throws {StoreError} `not_found` when no user has this id.
     */
    async setPlan(id: string, plan: Plan): Promise<User> {
      if (!isUuid(id)) throw new StoreError('not_found', `user ${id} not found`);
      const row = await db
        .updateTable('users')
        .set({ plan })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new StoreError('not_found', `user ${id} not found`);
      return toUser(row);
    },

    /**
     * Erases a user in one database transaction: the `users` row, and by the foreign keys'
     * cascades every row that references it (sessions, tokens and their activity, portfolios with
     * their transactions and positions, reports, proposals, quota usage, mappings, and any later
     * table that references `users` or `portfolios` with `on delete cascade`); plus the shared
     * counters (`rate_limits`) whose key contains one of `counterKeyFragments` (the user's id, the
     * digest its login throttle keys carry), which reference no row. The database announces the
     * deleted user, sessions and tokens to every process (migration 0006). Answers whether the
     * user existed.
     */
    async erase(id: string, options: { counterKeyFragments: readonly string[] }): Promise<boolean> {
      if (!isUuid(id)) return false;
      return inTransaction(db, async (trx) => {
        for (const fragment of options.counterKeyFragments) {
          if (fragment.length < 8) continue; // a short fragment could match other users' keys
          await trx
            .deleteFrom('rate_limits')
            .where((eb) => eb(eb.fn('strpos', ['key', eb.val(fragment)]), '>', 0))
            .execute();
        }
        const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },

    /** Replaces the password hash (e.g. after a reset, or to add a password to an OIDC user). */
    async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

/** The users repository (see {@link createUsersRepository}). */
export type UsersRepository = ReturnType<typeof createUsersRepository>;
