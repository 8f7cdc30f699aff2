import { StoreError } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { type LoginThrottle, loginThrottleKey } from './login-throttle.js';
import type {
  AccountRepositories,
  AccountUser,
  Authenticated,
  PasswordHasher,
  QuotaUsageReader,
} from './ports.js';
import type { SessionCache } from './session-cache.js';
import type { SignedTokens } from './signed-tokens.js';

/** Who is asking: recorded on the session row and used to key the login throttle. */
export interface ClientContext {
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/** A session opened by register, login or OIDC: the user and the cookie value (a JWT). */
export interface OpenedSession {
  readonly user: AccountUser;
  readonly jwt: string;
  readonly expiresAt: Date;
}

/** Dependencies of {@link createAuthService}. */
export interface AuthServiceDeps {
  readonly repos: AccountRepositories;
  readonly passwords: PasswordHasher;
  readonly signer: SignedTokens;
  readonly quotas: QuotaUsageReader;
  readonly throttle: LoginThrottle;
  readonly sessionTtlSeconds: number;
  readonly signupEnabled: boolean;
  readonly now: () => Date;
  /** Verified sessions reused for a few seconds (see `createSessionCache`); default none. */
  readonly sessionCache?: SessionCache;
}

const INVALID_CREDENTIALS = 'The e-mail address or password is wrong.';

const isConflict = (error: unknown): boolean =>
  error instanceof StoreError && error.code === 'conflict';

/**
 * The account use cases behind the auth routes: register, log in (password or OIDC identity),
 * authenticate a cookie, log out, describe a session. Route handlers stay thin.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const { repos, passwords, signer, now } = deps;

  async function open(user: AccountUser, client: ClientContext): Promise<OpenedSession> {
    const issuedAt = now();
    const expiresAt = new Date(issuedAt.getTime() + deps.sessionTtlSeconds * 1000);
    const session = await repos.sessions.create(user.id, {
      expiresAt,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
    });
    const jwt = await signer.signSession({
      userId: user.id,
      sessionId: session.id,
      now: issuedAt,
      expiresAt,
    });
    return { user, jwt, expiresAt };
  }

  return {
    /**
     * Creates a password account and signs it in.
     * @throws {UseCaseError} `forbidden` when sign-up is disabled; `conflict` when the e-mail exists.
     */
    async register(
      input: { email: string; password: string; name?: string | undefined },
      client: ClientContext,
    ): Promise<OpenedSession> {
      if (!deps.signupEnabled)
        throw new UseCaseError('forbidden', 'Sign-up is disabled on this server.');
      const passwordHash = await passwords.hash(input.password);
      const user = await repos.users
        .create({ email: input.email, name: input.name ?? null, passwordHash })
        .catch((error: unknown) => {
          if (isConflict(error)) {
            throw new UseCaseError('conflict', 'An account with this e-mail address exists.', {
              cause: error,
            });
          }
          throw error;
        });
      return open(user, client);
    },

    /**
     * Checks a password and opens a session. Unknown e-mail and wrong password give the same
     * 401 after the same work (a verification against a throw-away hash); after repeated
     * failures for one IP and e-mail, 429 `rate_limited` with `Retry-After`.
     * @throws {UseCaseError} `unauthorized` or `rate_limited`.
     */
    async login(
      input: { email: string; password: string },
      client: ClientContext,
    ): Promise<OpenedSession> {
      const key = loginThrottleKey(client.ip, input.email);
      const wait = await deps.throttle.blockedFor(key);
      if (wait !== undefined) {
        throw new UseCaseError(
          'rate_limited',
          'Too many failed sign-in attempts; try again later.',
          {
            retryAfterSeconds: wait,
          },
        );
      }
      const found = await repos.users.findCredentialsByEmail(input.email);
      const ok = await passwords.verify(found?.passwordHash, input.password);
      if (!ok || found === undefined) {
        await deps.throttle.recordFailure(key);
        throw new UseCaseError('unauthorized', INVALID_CREDENTIALS);
      }
      await deps.throttle.reset(key);
      return open(found.user, client);
    },

    /** Opens a session for a user resolved by an OIDC sign-in. */
    async signInWithOidc(
      identity: { issuer: string; subject: string; email: string; name: string | null },
      client: ClientContext,
    ): Promise<OpenedSession> {
      const user = await repos.users.findOrCreateByOidc(identity).catch((error: unknown) => {
        if (isConflict(error)) {
          throw new UseCaseError('conflict', 'This e-mail is linked to another sign-in identity.', {
            cause: error,
          });
        }
        throw error;
      });
      return open(user, client);
    },

    /**
     * Resolves a session cookie: a valid JWT (signature, expiry) AND a live session row (not
     * revoked, not expired) of an existing user. `undefined` otherwise. With a session cache,
     * a cookie verified in the last few seconds is answered from memory (see `SessionCache`),
     * and requests of one cookie that arrive while it is being verified share that verification
     * (`RevocableMemo.shared`).
     */
    async authenticate(jwt: string | undefined): Promise<Authenticated | undefined> {
      if (!jwt) return undefined;
      const at = now();
      const cache = deps.sessionCache;
      const remembered = cache?.get(jwt, at);
      if (remembered) return remembered;
      const version = cache?.version() ?? 0;
      const verify = async (): Promise<Authenticated | undefined> => {
        const claims = await signer.verifySession(jwt, at);
        if (!claims) return undefined;
        const session = await repos.sessions.findActive(claims.sub, claims.sid, at);
        if (!session) return undefined;
        const user = await repos.users.findById(claims.sub);
        if (!user) return undefined;
        const auth = { user, session };
        cache?.set(jwt, auth, version);
        return auth;
      };
      // requests of one cookie arriving together when its memo entry ended verify it once
      return cache ? cache.shared(jwt, version, verify) : verify();
    },

    /** Revokes a session row; its JWT stops working at once (in this process's cache too). */
    async logout(auth: Authenticated): Promise<void> {
      const change = { kind: 'session', id: auth.session.id } as const;
      deps.sessionCache?.forget(change);
      await repos.sessions.revoke(auth.user.id, auth.session.id, now());
      deps.sessionCache?.forget(change);
    },

    /** The session description: user, plan and quota usage of the current period. */
    async describe(user: AccountUser) {
      const quotas = await deps.quotas.usage(user.id, user.plan);
      return {
        user: publicUser(user),
        plan: user.plan,
        quotas: quotas.map((q) => ({
          name: q.name,
          limit: q.limit,
          used: q.used,
          resetsAt: typeof q.resetsAt === 'string' ? q.resetsAt : q.resetsAt.toISOString(),
        })),
      };
    },
  };
}

/** The auth use cases (see {@link createAuthService}). */
export type AuthService = ReturnType<typeof createAuthService>;

/** The user fields the API shows. */
export function publicUser(user: AccountUser) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    plan: user.plan,
    createdAt: user.createdAt,
  };
}
