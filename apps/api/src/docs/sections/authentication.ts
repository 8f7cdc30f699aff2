import { DEFAULT_TOKEN_SCOPES, READ_ONLY_TOKEN_SCOPES } from '@svc/use-cases';
import { type DocsAddresses, problem, type SectionText } from './shared.js';

/** The `authentication` section. */
export function authentication({ baseUrl, accountUrl }: DocsAddresses): SectionText {
  return {
    title: 'Authentication',
    description: 'Sign in with a password or OpenID Connect, keep the session cookie, mint tokens.',
    content: {
      summary:
        'REST endpoints need the `service_session` cookie: a signed JWT (HS256; claims sub, sid, ' +
        'iat, exp) checked against a server-side session, so logout revokes it at once. The cookie ' +
        'is HttpOnly, SameSite=Lax, Path=/ (Secure behind HTTPS). POST, PUT, PATCH and DELETE with ' +
        `the cookie must send an Origin (or Referer) of this service, otherwise ${problem('forbidden')}. ` +
        'Personal access tokens (`svc_pat_…`) are for the MCP server only.',
      steps: [
        'Create an account with POST /api/auth/register, or sign in with POST /api/auth/login.',
        'Keep the Set-Cookie: service_session=… value and send it on every REST call.',
        'Or sign in through your identity provider: open /api/auth/oidc/login in a browser.',
        `Mint a personal access token at ${accountUrl}/account/developer (shown once) for MCP.`,
        'Sign out with POST /api/auth/logout; revoke tokens on the developer page.',
      ],
      endpoints: [
        {
          method: 'POST',
          path: '/api/auth/register',
          auth: 'none',
          description:
            '{ email, password, name? } → 201 { user } + cookie; 409 if the e-mail exists; 403 when sign-up is off',
        },
        {
          method: 'POST',
          path: '/api/auth/login',
          auth: 'none',
          description:
            '{ email, password } → 200 { user } + cookie; 401 (same for unknown e-mail and wrong password); 429 after repeated failures',
        },
        {
          method: 'POST',
          path: '/api/auth/logout',
          auth: 'session',
          description: '204; the session is revoked and the cookie cleared',
        },
        {
          method: 'GET',
          path: '/api/auth/session',
          auth: 'session',
          description: '{ user, plan, quotas: [{ name, limit, used, resetsAt }] }',
        },
        {
          method: 'GET',
          path: '/api/auth/oidc/login',
          auth: 'none',
          description:
            '302 to the OpenID provider (authorization code + PKCE); ?returnTo=/path optional',
        },
        {
          method: 'GET',
          path: '/api/auth/oidc/callback',
          auth: 'none',
          description: 'Provider callback: sets the cookie, 302 to /',
        },
        {
          method: 'GET',
          path: '/api/account/tokens',
          auth: 'session',
          description:
            '[{ id, name, prefix, createdAt, lastUsedAt, expiresAt, scopes }] (never the secret)',
        },
        {
          method: 'POST',
          path: '/api/account/tokens',
          auth: 'session',
          description: `{ name, expiresInDays? (1-365, default 90), scopes? (default: every scope the spec's eight MCP tools need, ${DEFAULT_TOKEN_SCOPES.join(' ')}; name fewer for least privilege, e.g. ${READ_ONLY_TOKEN_SCOPES.join(' ')}) } → 201 { id, name, token, createdAt, expiresAt, scopes }`,
        },
        {
          method: 'PATCH',
          path: '/api/account/tokens/{id}',
          auth: 'session',
          description:
            '{ scopes } → 200 the token; acts at once on the next MCP request (every process); 404 if not yours',
        },
        {
          method: 'GET',
          path: '/api/account/tokens/{id}/activity',
          auth: 'session',
          description:
            '?page=1&limit=20 (≤100) → { items: [{ id, at, tool, outcome, errorCode, quotaSpent, durationMs, arguments }], page, limit, total, totalPages }: the calls made with the token (MCP tools, and REST routes that take a token such as the X-ray: `tool` is then the route), newest first; 404 if not yours',
        },
        {
          method: 'DELETE',
          path: '/api/account/tokens/{id}',
          auth: 'session',
          description: '204; the token stops working at once',
        },
        {
          method: 'POST',
          path: '/api/auth/password',
          auth: 'session',
          description:
            '{ currentPassword, newPassword (8-512 characters) } → 204; every other session ends at once on every process (this one stays; tokens keep working); 403 `forbidden` for a wrong current password (the session is fine); 429 after repeated wrong ones',
        },
        {
          method: 'GET',
          path: '/api/account/export',
          auth: 'session',
          description:
            '?format=native (default) | ghostfolio → 200 JSON download (Content-Disposition: attachment). native: { format: "moat-portfolio-export", version: 1, exportedAt, user, portfolios: [{ …Portfolio, transactions }], reports, importMappings, tokens (metadata only) }; ghostfolio: Ghostfolio\'s export shape { meta, accounts, activities, assetProfiles, platforms, tags, user }',
        },
        {
          method: 'POST',
          path: '/api/account/import',
          auth: 'session',
          description:
            'a native export → 201 { portfolios, transactions, reports }: created anew (new ids) in this account, holdings and cash derived again; all or nothing; 400 names the failing path',
        },
        {
          method: 'DELETE',
          path: '/api/account',
          auth: 'session',
          description: `{ password } (an account without one: a sign-in in the last 10 minutes, else ${problem('reauthentication_required')}) → 204; the account and every row naming it are erased, every session and token stops at once on every process; export first`,
        },
        {
          method: 'POST',
          path: '/api/account/webhooks',
          auth: 'session',
          description:
            '{ url, events: ["evaluation.changed"], symbols?, portfolioId? } → 201 { id, url, events, symbols, portfolioId, createdAt, secret } (secret `whsec_…` shown only here); `portfolioId` limits it to the companies that portfolio of yours holds when each event is relayed (404 for another user\'s); each event POSTed as { type, timestamp, data } signed as Standard Webhooks 1.0, retried with backoff, 410 disables; `data.cause` is methodology (a new scoring method), filing (a new annual filing) or data; a URL resolving to loopback, private or link-local addresses is 400',
        },
        {
          method: 'GET',
          path: '/api/account/webhooks',
          auth: 'session',
          description:
            '[{ id, url, events, symbols, createdAt, disabledAt, lastDelivery }] (never the secret)',
        },
        {
          method: 'DELETE',
          path: '/api/account/webhooks/{id}',
          auth: 'session',
          description: '204; nothing more is delivered to it; 404 if not yours',
        },
        {
          method: 'GET',
          path: '/api/account/webhooks/{id}/deliveries',
          auth: 'session',
          description:
            '?cursor&limit → { items: [{ id, eventId, type, attempt, status, responseStatus, error, at, nextAttemptAt }], nextCursor }: every attempt, newest first; 404 if not yours',
        },
        {
          method: 'GET',
          path: '/account/developer',
          auth: 'session',
          description:
            'HTML page to mint (with scopes), list and revoke tokens and see their activity',
        },
      ],
      examples: [
        {
          title: 'Register and keep the cookie',
          language: 'bash',
          code:
            `curl -s -c cookies.txt -H 'content-type: application/json' \\\n` +
            `  -d '{"email":"ada@example.com","password":"correct horse battery"}' \\\n` +
            `  ${baseUrl}/api/auth/register`,
        },
        {
          title: 'Sign in, then read the session',
          language: 'bash',
          code:
            `curl -s -c cookies.txt -H 'content-type: application/json' \\\n` +
            `  -d '{"email":"ada@example.com","password":"correct horse battery"}' ${baseUrl}/api/auth/login\n` +
            `curl -s -b cookies.txt ${baseUrl}/api/auth/session`,
        },
        {
          title: 'Mint a personal access token (a write: send Origin)',
          language: 'bash',
          code:
            `curl -s -b cookies.txt -H 'content-type: application/json' -H 'origin: ${new URL(baseUrl).origin}' \\\n` +
            `  -d '{"name":"my agent","expiresInDays":90,"scopes":["portfolio:read","moat:read"]}' ${baseUrl}/api/account/tokens`,
        },
        {
          title: "Read a token's activity",
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/account/tokens/<id>/activity?limit=20'`,
        },
      ],
      notes: [
        'Passwords: at least 8 characters, hashed with argon2id. Tokens are stored as SHA-256 hashes.',
        `Five failed sign-ins for one IP and e-mail within 15 minutes answer ${problem('rate_limited')} until the window ends.`,
        `Session routes are also rate limited per user (${problem('rate_limited')} with Retry-After).`,
        'Token scopes: portfolio:read (portfolios, holdings and cash with quantities and weights), portfolio:values (their money amounts; needs portfolio:read), moat:read (cached evaluations, screener, saved reports), moat:fresh (fresh evaluations, spends stock_evaluation; needs moat:read), ai:consult (narratives, spends ai_consult; needs moat:read), reports:write (save reports; needs moat:read). Needed scopes are added for you.',
        'A token minted without scopes gets portfolio:read and moat:read (least privilege: read-only, no amounts, no quota). Tokens minted before scopes existed keep every scope.',
        'Every call made with a token is recorded — each MCP call, and each REST call of a route that takes a token (the portfolio X-ray) — (tool or route, time, outcome, quota spent, duration, arguments with secrets redacted and long values cut) before it is answered, readable only by the token owner, and kept AUDIT_RETENTION_DAYS days (default 90).',
      ],
    },
  };
}
