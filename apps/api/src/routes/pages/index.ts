import { TickerSymbol } from '@svc/schemas';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE } from '../../auth/cookies.js';
import { errorResponses } from '../../problem.js';
import { AUTH_PAGE_SCRIPT } from './auth-page-script.js';
import {
  cspNonce,
  escapeHtml,
  pageCsp,
  renderPage,
  safeNext,
  sendHtml,
  wantsHtml,
} from './page-shell.js';

const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() } },
});

/** The JSON index `GET /` answers a client (CONTRACT §9 "Pages"): where everything is. */
const ServiceIndex = z
  .object({
    name: z.string(),
    description: z.string(),
    links: z.object({
      docs: z.string().describe('Interactive API reference'),
      openapi: z.string().describe('The OpenAPI document'),
      signup: z.string(),
      signin: z.string(),
      developer: z.string().describe('Personal access tokens, password, export and erasure'),
      mcp: z.string().describe('MCP endpoint (Streamable HTTP, `Authorization: Bearer svc_pat_…`)'),
      evaluationPage: z.string().describe('The moat card of a company (HTML), a URI template'),
      evaluation: z.string().describe('The evaluation as JSON, a URI template'),
    }),
  })
  .meta({ id: 'ServiceIndex' });

const NAME = 'moat-portfolio';
const TICKER_SYMBOL_HINT =
  'a ticker symbol is 1 to 10 letters, digits, "." or "-", e.g. AAPL or BRK.B.';
const ABOUT =
  'Track your portfolios and judge the companies in them: a ten-criteria moat evaluation from ' +
  'SEC filings, valuations and a sell trigger, as a REST API, an MCP server for AI assistants ' +
  'and a few pages.';

function sendPage(reply: FastifyReply, nonce: string, body: string, status = 200) {
  return sendHtml(reply, body, { csp: pageCsp(nonce), status });
}

function mcpConfig(baseUrl: string): string {
  const config = {
    mcpServers: {
      [NAME]: {
        type: 'streamable-http',
        url: `${baseUrl}/api/mcp/user/mcp`,
        headers: { Authorization: 'Bearer svc_pat_...' },
      },
    },
  };
  return escapeHtml(JSON.stringify(config, null, 2));
}

function homeBody(baseUrl: string, signedIn: boolean, searchError?: string): string {
  const start = signedIn
    ? '<p>You are signed in. Manage tokens and your password on the <a href="/account/developer">developer page</a>.</p>'
    : '<p><a href="/signup">Create an account</a> or <a href="/signin">sign in</a> to open moat cards and mint tokens for your AI assistant.</p>';
  const error = searchError
    ? `<p id="search-error" class="error" role="alert">Not a ticker: ${escapeHtml(searchError)}</p>`
    : '';
  return `<p>${escapeHtml(ABOUT)}</p>
${start}
<h2 id="card-heading">Open a company's moat card</h2>
<form class="search" method="get" action="/" role="search" aria-labelledby="card-heading">
<div><label for="symbol">Ticker symbol (US-listed, e.g. AAPL)</label>
<input id="symbol" name="symbol" required maxlength="10" autocomplete="off" autocapitalize="characters" spellcheck="false"${searchError ? ' aria-invalid="true" aria-describedby="search-error"' : ''}></div>
<button type="submit">Open card</button>
</form>${error}
<h2>For developers</h2>
<ul>
<li><a href="/api/docs">API reference</a> (OpenAPI at <a href="/openapi.json">/openapi.json</a>)</li>
<li><a href="/account/developer">Developer page</a>: personal access tokens, password, your data</li>
</ul>
<h2>Connect an AI assistant (MCP)</h2>
<p>Mint a token on the developer page, then add this to your MCP client's configuration:</p>
<pre tabindex="0" aria-label="MCP client configuration"><code>${mcpConfig(baseUrl)}</code></pre>`;
}

function authBody(kind: 'signin' | 'signup', next: string, oidcEnabled: boolean): string {
  const signup = kind === 'signup';
  const endpoint = signup ? '/api/auth/register' : '/api/auth/login';
  const name = signup
    ? '<label for="name">Name (optional)</label><input id="name" name="name" maxlength="100" autocomplete="name">'
    : '';
  const other = signup
    ? `<p>Already have an account? <a href="/signin?next=${encodeURIComponent(next)}">Sign in</a>.</p>`
    : `<p>New here? <a href="/signup?next=${encodeURIComponent(next)}">Create an account</a>.</p>`;
  const oidc = oidcEnabled
    ? `<p><a id="oidc-login" href="/api/auth/oidc/login?returnTo=${encodeURIComponent(next)}">Sign in with your identity provider</a></p>`
    : '';
  return `<form id="auth-form" method="post" data-endpoint="${endpoint}" data-next="${escapeHtml(next)}" novalidate>
${name}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="${signup ? 'email' : 'username'}" required maxlength="254">
<label for="password">Password${signup ? ' (at least 8 characters)' : ''}</label><input id="password" name="password" type="password" autocomplete="${signup ? 'new-password' : 'current-password'}" required minlength="${signup ? 8 : 1}" maxlength="512">
<p><button type="submit">${signup ? 'Create account' : 'Sign in'}</button></p>
<p id="auth-error" class="error" role="alert" tabindex="-1" hidden></p>
</form>
${oidc}${other}`;
}

/**
 * The people's pages (CONTRACT §9 "Pages"): `GET /` (HTML for a browser, a JSON index for a
 * client, by `Accept`), `GET /signin` and `GET /signup` (forms over the existing auth routes,
 * which keep their Origin/CSRF checks). The home page's search box is `GET /?symbol=`, sent on
 * (303) to the card `GET /evaluation/{symbol}`.
 */
export const pageRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = async (cookie: string | undefined) =>
    Boolean(await app.auth.authenticate(cookie));

  app.get('/', {
    schema: {
      tags: ['pages'],
      summary: 'Home: a page for people, or a JSON index for clients',
      description:
        'Content negotiation on `Accept`: `text/html` (as browsers send it) gets the home page; ' +
        'anything else (`application/json`, `*/*`) gets the JSON index of where things are.',
      querystring: z.object({
        symbol: z
          .string()
          .max(100)
          .optional()
          .describe(
            "The search box: a ticker opens that company's card (303); anything else shows the page saying what a ticker looks like (a client gets the index)",
          ),
      }),
      response: {
        200: {
          description:
            'The home page (saying what a ticker looks like after a bad search) or the index',
          content: {
            'application/json': { schema: ServiceIndex },
            'text/html': { schema: z.string() },
          },
        },
        303: z.undefined().describe('`?symbol=` named a ticker: see `/evaluation/{symbol}`'),
        ...errorResponses(),
      },
    },
    handler: async (request, reply) => {
      reply.header('vary', 'Accept');
      const html = wantsHtml(request.headers.accept);
      const { symbol } = request.query;
      const searched = symbol === undefined ? undefined : TickerSymbol.safeParse(symbol);
      if (searched?.success) {
        return reply.redirect(
          `/evaluation/${encodeURIComponent(searched.data.toUpperCase())}`,
          303,
        );
      }
      if (!html) {
        const base = app.config.baseUrl;
        return reply.type('application/json').send({
          name: NAME,
          description: ABOUT,
          links: {
            docs: `${base}/api/docs`,
            openapi: `${base}/openapi.json`,
            signup: `${base}/signup`,
            signin: `${base}/signin`,
            developer: `${base}/account/developer`,
            mcp: `${base}/api/mcp/user/mcp`,
            evaluationPage: `${base}/evaluation/{symbol}`,
            evaluation: `${base}/api/stock-evaluation?symbol={symbol}`,
          },
        });
      }
      const nonce = cspNonce();
      const isSignedIn = await signedIn(request.cookies[SESSION_COOKIE]);
      const body = homeBody(app.config.baseUrl, isSignedIn, searched && TICKER_SYMBOL_HINT);
      return sendPage(
        reply,
        nonce,
        renderPage({ title: 'Moat portfolio', body, nonce, signedIn: isSignedIn }),
      );
    },
  });

  for (const kind of ['signin', 'signup'] as const) {
    app.get(`/${kind}`, {
      schema: {
        tags: ['pages'],
        summary: kind === 'signin' ? 'Sign-in page (HTML)' : 'Sign-up page (HTML)',
        description:
          'The form posts to `/api/auth/' +
          (kind === 'signin' ? 'login' : 'register') +
          '` and then opens `next` (a same-site path only; anything else opens `/`).',
        querystring: z.object({ next: z.string().max(2000).optional() }),
        response: { 200: htmlPage('The page'), ...errorResponses() },
      },
      handler: async (request, reply) => {
        const nonce = cspNonce();
        const next = safeNext(request.query.next);
        const body = authBody(kind, next, app.oidc !== undefined);
        const title = kind === 'signin' ? 'Sign in' : 'Create an account';
        return sendPage(reply, nonce, renderPage({ title, body, nonce, script: AUTH_PAGE_SCRIPT }));
      },
    });
  }
};
