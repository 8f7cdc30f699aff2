import type { SessionChange } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import type { ClientContext } from './auth-service.js';
import { counterKeyDigest, type LoginThrottle, loginThrottleKey } from './login-throttle.js';
import type { AccountRepositories, Authenticated, PasswordHasher } from './ports.js';

/**
 * How recent a sign-in must be to erase an account that has no password (OIDC): 10 minutes
 * (CONTRACT §6), in seconds.
 */
export const REAUTHENTICATION_WINDOW_SECONDS = 600;

/** Dependencies of {@link createAccountLifecycle}. */
export interface AccountLifecycleDeps {
  readonly repos: Pick<AccountRepositories, 'users' | 'sessions'>;
  readonly passwords: PasswordHasher;
  /** The failed-login throttle: wrong current passwords count as failed logins of the e-mail. */
  readonly throttle: LoginThrottle;
  readonly now: () => Date;
  /**
   * Forgets credentials in this process's memos (sessions and tokens) at once; other processes
   * forget them when the database announces the change (migration 0006).
   */
  readonly forget: (change: SessionChange) => void;
  /** Override of {@link REAUTHENTICATION_WINDOW_SECONDS}. */
  readonly reauthenticationWindowSeconds?: number;
}

/** Input of {@link AccountLifecycle.changePassword}. */
export interface PasswordChange {
  readonly currentPassword: string;
  /** Already checked against the registration rules (8–512 characters) by the caller's schema. */
  readonly newPassword: string;
}

const WRONG_PASSWORD = 'The current password is wrong.';

/**
 * The account's own lifecycle beyond sign-in (CONTRACT §6): change the password, and erase the
 * account with everything in it. Both act on every process at once: the database announces every
 * revoked session and the deleted user (triggers of migration 0006) to the memos of every process,
 * and this process's memos are told directly.
 *
 * @example
 * const lifecycle = createAccountLifecycle({ repos, passwords, throttle, now, forget });
 * await lifecycle.changePassword(auth, { currentPassword, newPassword }, client);
 */
export function createAccountLifecycle(deps: AccountLifecycleDeps) {
  const { repos, passwords, throttle, now } = deps;
  const windowMs = (deps.reauthenticationWindowSeconds ?? REAUTHENTICATION_WINDOW_SECONDS) * 1000;

  /**
   * Checks the user's password against the stored hash, counting a wrong one as a failed login
   * of the e-mail from this client (429 after repeated failures, as on login).
   */
  async function checkPassword(
    auth: Authenticated,
    password: string,
    client: ClientContext,
  ): Promise<void> {
    const key = loginThrottleKey(client.ip, auth.user.email);
    const wait = await throttle.blockedFor(key);
    if (wait !== undefined) {
      throw new UseCaseError('rate_limited', 'Too many wrong passwords; try again later.', {
        retryAfterSeconds: wait,
      });
    }
    const found = await repos.users.findCredentialsByEmail(auth.user.email);
    const hash = found?.user.id === auth.user.id ? found.passwordHash : null;
    if (!(await passwords.verify(hash, password))) {
      await throttle.recordFailure(key);
      // `forbidden`, not `unauthorized`: the session is valid, the confirmation is not
      throw new UseCaseError(
        'forbidden',
        hash === null ? 'This account has no password (it signs in with OIDC).' : WRONG_PASSWORD,
      );
    }
    await throttle.reset(key);
  }

  return {
    /**
     * Replaces the password after checking the current one, then ends every other session of the
     * user at once (this one stays signed in). Personal access tokens are not sessions and keep
     * working; revoke them apart.
     * @throws UseCaseError `forbidden` (wrong current password, or an account without one),
     *   `rate_limited` (after repeated wrong passwords, with `Retry-After`).
     */
    async changePassword(
      auth: Authenticated,
      input: PasswordChange,
      client: ClientContext,
    ): Promise<{ endedSessions: number }> {
      await checkPassword(auth, input.currentPassword, client);
      const hash = await passwords.hash(input.newPassword);
      if (!(await repos.users.setPasswordHash(auth.user.id, hash))) {
        throw new UseCaseError('unauthorized', 'The account no longer exists.');
      }
      const ended = await repos.sessions.revokeOthers(auth.user.id, auth.session.id, now());
      for (const id of ended) deps.forget({ kind: 'session', id });
      return { endedSessions: ended.length };
    },

    /**
     * Erases the account: the user and every row that names them (sessions, tokens and their
     * recorded calls, portfolios with their transactions, positions and changes, reports, advisor
     * proposals, quota usage, saved mappings) in one database transaction, and the shared
     * counters keyed by them. Every session and token stops working at once on every process.
     * An account with a password confirms with it; one without (OIDC) needs a sign-in in the last
     * 10 minutes.
     * @throws UseCaseError `validation_failed` (no `password` for an account that has one),
     *   `forbidden` (wrong password), `rate_limited`, `reauthentication_required` (OIDC account,
     *   sign-in older than the window).
     */
    async erase(
      auth: Authenticated,
      input: { password?: string | undefined },
      client: ClientContext,
    ): Promise<void> {
      if (auth.user.hasPassword) {
        if (input.password === undefined) {
          throw new UseCaseError('validation_failed', 'Confirm with your password.', {
            errors: [{ path: 'body.password', message: 'required for an account with a password' }],
          });
        }
        await checkPassword(auth, input.password, client);
      } else if (now().getTime() - Date.parse(auth.session.createdAt) > windowMs) {
        throw new UseCaseError(
          'reauthentication_required',
          `Sign in again: erasing an account without a password needs a sign-in in the last ${windowMs / 60_000} minutes.`,
        );
      }
      const { id, email } = auth.user;
      deps.forget({ kind: 'user', id });
      await repos.users.erase(id, {
        counterKeyFragments: [id, counterKeyDigest(id), counterKeyDigest(email)],
      });
      deps.forget({ kind: 'user', id });
    },
  };
}

/** The account lifecycle flows (see {@link createAccountLifecycle}). */
export type AccountLifecycle = ReturnType<typeof createAccountLifecycle>;
