// The route option `config.rateLimit` (registered by `registerSharedRateLimit` of @svc/service).
import type {} from '@fastify/rate-limit';
import type { AiFlows, AppConfig, MoatServices, PortfolioFlows } from '@svc/service';
import type {
  AccountLifecycle,
  AccountUser,
  Authenticated,
  AuthService,
  OidcClient,
  PersonalAccessTokens,
  PersonalAccessTokenVerifier,
  SignedTokens,
  TokenActivity,
  TokenPrincipal,
  TokenScope,
} from '@svc/use-cases';

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration. */
    config: AppConfig;
    /** The clock every service uses. */
    clock: () => Date;
    /** JWT signer (sessions, OIDC state). */
    signer: SignedTokens;
    /** Account use cases. */
    auth: AuthService;
    /** Password change and account erasure (CONTRACT §6). */
    accountLifecycle: AccountLifecycle;
    /** Personal access token use cases. */
    personalAccessTokens: PersonalAccessTokens;
    /** The audit log of personal access tokens (MCP calls and REST calls made with a token). */
    tokenActivity: TokenActivity;
    /** PAT check for the MCP app: the owner, or null. */
    verifyPersonalAccessToken: PersonalAccessTokenVerifier;
    /** The OIDC client, when configured. */
    oidc: OidcClient | undefined;
    /** The moat flows: evaluation, screener, saved reports (`@svc/use-cases`). */
    moat: MoatServices;
    /** The portfolio flows: portfolios, quotes, account data (`createPortfolioFlows`). */
    portfolio: PortfolioFlows;
    /** The AI flows: narration and the advisor (`createAiFlows`). */
    ai: AiFlows;
    /** The migrations not yet applied (`pendingMigrations` of `@svc/portfolio-store`); throws when the database cannot be reached. */
    pendingMigrations: () => Promise<readonly string[]>;
    /** Session guard (`onRequest`): 401 without a live session; same-site check for writes. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Bearer guard (`onRequest`) for PAT routes: 401 + `WWW-Authenticate: Bearer` otherwise. */
    requirePersonalAccessToken: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by the session guard on `config: { auth: 'session' }` routes. */
    account: Authenticated | null;
    /** Set by the bearer guard on PAT-authenticated routes (MCP). */
    tokenUser: AccountUser | null;
    /** The verified token (owner, id, scopes), set with `tokenUser`. */
    tokenPrincipal: TokenPrincipal | null;
  }
  interface FastifyContextConfig {
    /**
     * `session`: the route needs a signed-in user; `session-or-token`: a signed-in user or a
     * personal access token with `tokenScopes` (see the session guard).
     */
    auth?: 'session' | 'session-or-token' | 'public';
    /** The token scopes a `session-or-token` route needs of a bearer token. */
    tokenScopes?: readonly TokenScope[];
    /** A page for people: a signed-out browser is sent to `/signin?next=…` rather than a 401. */
    page?: boolean;
  }
}
