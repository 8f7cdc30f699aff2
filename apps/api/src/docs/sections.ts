import type { DocsContent, DocsSectionId } from './schema.js';

/** Public addresses the docs are written against. */
export interface DocsAddresses {
  /** `{base_url}` without trailing slash. */
  readonly baseUrl: string;
  /** `{account_url}` without trailing slash. */
  readonly accountUrl: string;
}

/** Title, one-line description and content of a section. */
export interface SectionText {
  readonly title: string;
  readonly description: string;
  readonly content: DocsContent;
}

const PROBLEM_CODES: NonNullable<DocsContent['errors']> = [
  { code: 'unauthorized', status: 401, meaning: 'No valid session (REST) or token (MCP).' },
  { code: 'forbidden', status: 403, meaning: 'Cross-site request, or sign-up disabled.' },
  {
    code: 'not_found',
    status: 404,
    meaning: 'Unknown route, resource, docs section, or not yours.',
  },
  {
    code: 'validation_failed',
    status: 400,
    meaning: 'Input does not match the schema; see `errors`.',
  },
  {
    code: 'insufficient_data',
    status: 404,
    meaning: 'Too few fundamentals to evaluate the company.',
  },
  {
    code: 'quota_exceeded',
    status: 429,
    meaning: 'Plan quota used up; body has `quota`, header `Retry-After`.',
  },
  {
    code: 'rate_limited',
    status: 429,
    meaning: 'Too many requests or failed logins; see `Retry-After`.',
  },
  { code: 'payload_too_large', status: 413, meaning: 'Body above the size limit.' },
  {
    code: 'unsupported_media_type',
    status: 415,
    meaning: 'Content-Type not accepted by the route.',
  },
  {
    code: 'upstream_unavailable',
    status: 503,
    meaning: 'Fundamentals provider or model endpoint failed.',
  },
  { code: 'conflict', status: 409, meaning: 'Already exists, or changed/decided meanwhile.' },
  {
    code: 'internal',
    status: 500,
    meaning: 'Unexpected error; logged server-side, no stack trace.',
  },
];

const QUOTAS: NonNullable<DocsContent['quotas']> = [
  {
    name: 'stock_evaluation',
    consumedBy:
      'GET /api/stock-evaluation with fresh=1 or a cache miss; MCP getMoatEvaluation with fresh',
  },
  {
    name: 'ai_consult',
    consumedBy:
      'POST /api/stock-evaluation/ai, POST /api/advisor/chat, POST /api/portfolio/ai-chat, MCP generateMoatNarrative',
  },
];

function overview({ baseUrl }: DocsAddresses): SectionText {
  return {
    title: 'Overview',
    description: 'What the service does, how to reach it, and how errors look.',
    content: {
      summary:
        'The service tracks portfolios and scores listed companies against 8 criteria of a durable ' +
        'competitive advantage ("moat"), 12.5 points each, 100 in total, from SEC filings. Output ' +
        'is informational only and is not financial advice. Browsers use the REST API with a ' +
        'session cookie; agents use the MCP server with a personal access token.',
      endpoints: [
        {
          method: 'GET',
          path: '/openapi.json',
          auth: 'none',
          description: 'OpenAPI 3.1.0 description (version 2.5.33)',
        },
        { method: 'GET', path: '/api/docs', auth: 'none', description: 'This documentation index' },
        {
          method: 'GET',
          path: '/.well-known/mcp.json',
          auth: 'none',
          description: 'MCP discovery document',
        },
      ],
      examples: [
        {
          title: 'Fetch the OpenAPI document',
          language: 'bash',
          code: `curl -s ${baseUrl}/openapi.json`,
        },
        {
          title: 'A problem answer (RFC 9457, application/problem+json)',
          language: 'json',
          code: JSON.stringify(
            {
              type: '/api/docs/overview#problem-validation-failed',
              title: 'Invalid request',
              status: 400,
              detail: 'The request does not match the schema; see errors.',
              code: 'validation_failed',
              instance: '/api/auth/register',
              errors: [{ path: 'body.email', message: 'Invalid email address' }],
            },
            null,
            2,
          ),
        },
      ],
      errors: PROBLEM_CODES,
      quotas: QUOTAS,
      notes: [
        'Paths carry no version segment; the OpenAPI info.version is 2.5.33.',
        'Every 4xx/5xx body is problem+json with a stable `code`; 429 answers carry Retry-After (seconds).',
        'Quota periods are calendar months (UTC); GET /api/auth/session shows your limits and use.',
      ],
    },
  };
}

function authentication({ baseUrl, accountUrl }: DocsAddresses): SectionText {
  return {
    title: 'Authentication',
    description: 'Sign in with a password or OpenID Connect, keep the session cookie, mint tokens.',
    content: {
      summary:
        'REST endpoints need the `service_session` cookie: a signed JWT (HS256; claims sub, sid, ' +
        'iat, exp) checked against a server-side session, so logout revokes it at once. The cookie ' +
        'is HttpOnly, SameSite=Lax, Path=/ (Secure behind HTTPS). POST, PUT, PATCH and DELETE with ' +
        'the cookie must send an Origin (or Referer) of this service, otherwise 403 forbidden. ' +
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
            '[{ id, name, prefix, createdAt, lastUsedAt, expiresAt }] (never the secret)',
        },
        {
          method: 'POST',
          path: '/api/account/tokens',
          auth: 'session',
          description:
            '{ name, expiresInDays? (1-365, default 90) } → 201 { id, name, token, createdAt, expiresAt }',
        },
        {
          method: 'DELETE',
          path: '/api/account/tokens/{id}',
          auth: 'session',
          description: '204; the token stops working at once',
        },
        {
          method: 'GET',
          path: '/account/developer',
          auth: 'session',
          description: 'HTML page to mint, list and revoke tokens',
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
            `  -d '{"name":"my agent","expiresInDays":90}' ${baseUrl}/api/account/tokens`,
        },
      ],
      notes: [
        'Passwords: at least 8 characters, hashed with argon2id. Tokens are stored as SHA-256 hashes.',
        'Five failed sign-ins for one IP and e-mail within 15 minutes answer 429 rate_limited until the window ends.',
        'Session routes are also rate limited per user (429 rate_limited with Retry-After).',
      ],
    },
  };
}

function mcp({ baseUrl, accountUrl }: DocsAddresses): SectionText {
  return {
    title: 'MCP server',
    description: 'Connect an MCP client with a personal access token and call the tools.',
    content: {
      summary:
        `The MCP server speaks streamable HTTP at ${baseUrl}/api/mcp/user; clients are configured ` +
        `with ${baseUrl}/api/mcp/user/mcp and the header Authorization: Bearer <token>. A missing ` +
        'or bad token answers HTTP 401 with WWW-Authenticate: Bearer. Tool results carry ' +
        'structuredContent matching the tool outputSchema plus the same JSON as text; a failed call ' +
        'answers isError: true with a problem object.',
      steps: [
        `Mint a token at ${accountUrl}/account/developer (it starts with svc_pat_, shown once).`,
        'Add the server to your MCP client with the configuration below.',
        'List tools, then call listPortfolios to check the connection.',
      ],
      endpoints: [
        {
          method: 'POST',
          path: '/api/mcp/user/mcp',
          auth: 'bearer',
          description: 'MCP streamable HTTP endpoint (JSON-RPC)',
        },
        {
          method: 'GET',
          path: '/.well-known/mcp.json',
          auth: 'none',
          description: 'Discovery: name, version, transport, url, authentication, tools',
        },
      ],
      mcpClientConfig: {
        mcpServers: {
          'moat-portfolio': {
            type: 'streamable-http',
            url: `${baseUrl}/api/mcp/user/mcp`,
            headers: { Authorization: 'Bearer svc_pat_...' },
          },
        },
      },
      examples: [
        {
          title: 'Initialize over plain HTTP',
          language: 'bash',
          code:
            `curl -s ${baseUrl}/api/mcp/user/mcp -H 'authorization: Bearer svc_pat_...' \\\n` +
            `  -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \\\n` +
            `  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'`,
        },
        {
          title: 'Call a tool',
          language: 'json',
          code: JSON.stringify(
            {
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'getMoatEvaluation', arguments: { symbol: 'KO' } },
            },
            null,
            2,
          ),
        },
      ],
      quotas: QUOTAS,
      notes: [
        'Tools: listPortfolios, listHoldings {portfolioId?}, listCash {portfolioId?}, getMoatEvaluation {symbol, fresh?}, generateMoatNarrative {symbol?, evaluation?, language}, listMoatReports {tags?}, screenMoat, saveMoatReport.',
        'Agents should use MCP (not REST) for portfolio reads; REST needs a browser session.',
        'Fresh evaluations and narratives consume the same quotas as the web application.',
      ],
    },
  };
}

function desktopClient({ baseUrl, accountUrl }: DocsAddresses): SectionText {
  return {
    title: 'Desktop client',
    description: 'Use the service from a desktop MCP client (e.g. an AI assistant app).',
    content: {
      summary:
        'Desktop AI clients connect to the MCP server with a personal access token. Clients that ' +
        'only launch local (stdio) servers can use a bridge such as `mcp-remote` that forwards to ' +
        'the HTTP endpoint.',
      steps: [
        `Sign in at ${accountUrl}/account/developer and create a token named after the client.`,
        'Open the client settings file for MCP servers and add one of the entries below.',
        'Restart the client; the tools (listPortfolios, getMoatEvaluation, …) appear.',
        'Revoke the token on the developer page when you remove the client.',
      ],
      mcpClientConfig: {
        mcpServers: {
          'moat-portfolio': {
            type: 'streamable-http',
            url: `${baseUrl}/api/mcp/user/mcp`,
            headers: { Authorization: 'Bearer svc_pat_...' },
          },
        },
      },
      examples: [
        {
          title: 'Through a stdio bridge',
          language: 'json',
          code: JSON.stringify(
            {
              mcpServers: {
                'moat-portfolio': {
                  command: 'npx',
                  args: [
                    '-y',
                    'mcp-remote',
                    `${baseUrl}/api/mcp/user/mcp`,
                    '--header',
                    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable the client expands
                    'Authorization:Bearer ${SVC_TOKEN}',
                  ],
                  env: { SVC_TOKEN: 'svc_pat_...' },
                },
              },
            },
            null,
            2,
          ),
        },
      ],
      notes: [
        'Keep the token out of shared files; anyone holding it can read your portfolios.',
        'A revoked or expired token is refused at once with HTTP 401.',
      ],
    },
  };
}

function advisorMoat({ baseUrl }: DocsAddresses): SectionText {
  const origin = new URL(baseUrl).origin;
  return {
    title: 'Moat evaluation',
    description: 'Evaluate a company, stream its narrative, save and screen reports.',
    content: {
      summary:
        'GET /api/stock-evaluation scores a company on 8 criteria (earnings consistency, gross ' +
        'margin, net margin, retained earnings, ROIC, debt sustainability, capex efficiency, ' +
        'product durability; 12.5 points each) and returns a verdict: at least 70% Strong Durable ' +
        'Competitive Advantage, 50% Moderate Competitive Advantage, 35% Narrow Moat — Proceed with ' +
        'Caution, else No Clear Moat Detected, plus valuation signals (P/E; sell trigger at 40 or above).',
      steps: [
        'Get an evaluation (cached, or fresh=1 which consumes stock_evaluation).',
        'Stream the narrative with POST /api/stock-evaluation/ai (consumes ai_consult).',
        'Save it with POST /api/moat-reports; list with GET /api/moat-reports?tags=a,b.',
        'Screen the cache with GET /api/moat-screener (action=meta for statistics).',
      ],
      endpoints: [
        {
          method: 'GET',
          path: '/api/stock-evaluation?symbol=KO&fresh=1',
          auth: 'session',
          description: 'MoatEvaluation; 404 insufficient_data; 429 quota_exceeded',
        },
        {
          method: 'POST',
          path: '/api/stock-evaluation/ai',
          auth: 'session',
          description: '{ evaluation, language? } → text/event-stream of markdown chunks',
        },
        {
          method: 'GET',
          path: '/api/moat-screener',
          auth: 'session',
          description:
            'Filters scoreMin/Max, verdict, sector, industry, peMin/Max, marketCapMin/Max; sortBy score|symbol|pe|marketCap; page (1), limit (20, max 100) → { items, page, limit, total, totalPages }',
        },
        {
          method: 'GET',
          path: '/api/moat-reports',
          auth: 'session',
          description: 'Saved reports; ?tags=a,b returns those carrying every tag',
        },
        {
          method: 'POST',
          path: '/api/moat-reports',
          auth: 'session',
          description:
            '{ symbol, evaluationJson, companyName?, totalScore?, maxScore?, verdict?, tags? } → 201 { id }',
        },
        {
          method: 'GET',
          path: '/api/moat-reports/{id}',
          auth: 'session',
          description: 'One report with the parsed evaluation',
        },
        {
          method: 'DELETE',
          path: '/api/moat-reports/{id}',
          auth: 'session',
          description: 'Delete one report',
        },
      ],
      streamFrames: [
        {
          frame: 'data: "## Summary\\nKO shows…"',
          meaning: 'A JSON string: the next markdown chunk',
        },
        { frame: 'event: done\\ndata: {}', meaning: 'The narrative is complete' },
        {
          frame: 'event: error\\ndata: {"type":"…","status":503,"code":"upstream_unavailable",…}',
          meaning: 'Failure mid-stream: a problem object, then the stream ends',
        },
      ],
      examples: [
        {
          title: 'Evaluate (cached)',
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/stock-evaluation?symbol=KO'`,
        },
        {
          title: 'Stream the narrative',
          language: 'bash',
          code:
            `curl -N -b cookies.txt -H 'origin: ${origin}' -H 'content-type: application/json' \\\n` +
            `  -d "{\\"evaluation\\": $(curl -s -b cookies.txt '${baseUrl}/api/stock-evaluation?symbol=KO'), \\"language\\": \\"en\\"}" \\\n` +
            `  ${baseUrl}/api/stock-evaluation/ai`,
        },
      ],
      quotas: QUOTAS,
      notes: ['A fresh evaluation that fails (no data, provider down) gives its quota unit back.'],
    },
  };
}

function advisorChat({ baseUrl }: DocsAddresses): SectionText {
  const origin = new URL(baseUrl).origin;
  return {
    title: 'Advisor chat',
    description: 'Stream answers of the portfolio advisor and confirm its proposals.',
    content: {
      summary:
        'POST /api/advisor/chat takes { messages: [{ role: user|assistant, content (≤ 12000 ' +
        'characters) }], language?, activePortfolioId?, activePortfolioName?, baseCurrency? (EUR), ' +
        'portfolioContext? } as JSON, or multipart/form-data with parts payload (that JSON), ' +
        'userText and files[]. It answers text/event-stream, one JSON frame per data: line, and ' +
        'consumes ai_consult. Proposals change nothing until confirmed.',
      endpoints: [
        {
          method: 'POST',
          path: '/api/advisor/chat',
          auth: 'session',
          description: 'text/event-stream of JSON frames',
        },
        {
          method: 'POST',
          path: '/api/advisor/confirm',
          auth: 'session',
          description:
            '{ proposalId, decision: accept|reject } → { status: applied|rejected, result? }; 409 if already decided or expired, 404 if not yours',
        },
        {
          method: 'POST',
          path: '/api/portfolio/ai-chat',
          auth: 'session',
          description:
            'The same conversation as one JSON answer: { message: { role: "assistant", content } }',
        },
      ],
      streamFrames: [
        { frame: 'data: {"type":"start","id":"…","model":"…"}', meaning: 'The answer begins' },
        { frame: 'data: {"type":"delta","text":"Your portfolio…"}', meaning: 'Next piece of text' },
        {
          frame: 'data: {"type":"tool","name":"listHoldings","status":"done"}',
          meaning: 'A tool ran',
        },
        {
          frame:
            'data: {"type":"proposal","proposal":{"id":"…","kind":"…","summary":"…","payload":{},"expiresAt":"…"}}',
          meaning: 'A change to confirm with /api/advisor/confirm',
        },
        {
          frame: 'data: {"type":"error","code":"upstream_unavailable","message":"…"}',
          meaning: 'Failure; the stream ends',
        },
        { frame: 'data: {"type":"done","finishReason":"stop"}', meaning: 'The answer is complete' },
      ],
      examples: [
        {
          title: 'Ask the advisor',
          language: 'bash',
          code:
            `curl -N -b cookies.txt -H 'origin: ${origin}' -H 'content-type: application/json' \\\n` +
            `  -d '{"messages":[{"role":"user","content":"How concentrated is my portfolio?"}]}' \\\n` +
            `  ${baseUrl}/api/advisor/chat`,
        },
      ],
      quotas: QUOTAS.filter((q) => q.name === 'ai_consult'),
      notes: [
        'A proposal applies at most once, only for the user it was made for, and not after it expires.',
      ],
    },
  };
}

function portfolio({ baseUrl }: DocsAddresses): SectionText {
  return {
    title: 'Portfolio',
    description: 'Read portfolios, holdings, cash, transactions and quotes.',
    content: {
      summary:
        'Holdings and cash follow from recorded transactions and carry stored EUR values with ' +
        'the instant they were valued (valuedAt). Reads take an optional portfolioId (default: ' +
        'all of your portfolios). Money is sent as decimal numbers in the record currency plus EUR.',
      endpoints: [
        {
          method: 'GET',
          path: '/api/portfolios',
          auth: 'session',
          description: '[{ id, name, baseCurrency, createdAt }]',
        },
        {
          method: 'GET',
          path: '/api/holdings?portfolioId=',
          auth: 'session',
          description:
            '[{ id, portfolioId, symbol, name, quantity, averageCost, currency, lastPrice, marketValue, marketValueEur, costBasisEur, unrealizedPnlEur, weight, valuedAt }]',
        },
        {
          method: 'GET',
          path: '/api/transactions?portfolioId=',
          auth: 'session',
          description:
            '[{ id, portfolioId, type: buy|sell|dividend|deposit|withdrawal|fee|split, symbol?, quantity?, price?, currency, fee?, executedAt, note? }]',
        },
        {
          method: 'GET',
          path: '/api/quote?symbol=KO',
          auth: 'session',
          description: '{ symbol, price, currency, asOf, source, priceEur }',
        },
      ],
      examples: [
        {
          title: 'List portfolios',
          language: 'bash',
          code: `curl -s -b cookies.txt ${baseUrl}/api/portfolios`,
        },
        {
          title: 'Holdings of one portfolio',
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/holdings?portfolioId=<id>'`,
        },
      ],
      notes: [
        'Agents should read portfolio data through MCP (listPortfolios, listHoldings, listCash).',
        'Write routes (create a portfolio, record a transaction, import a broker CSV) are listed in /openapi.json.',
        "You only ever see your own rows; another user's ids answer 404.",
      ],
    },
  };
}

const BUILDERS: Readonly<Record<DocsSectionId, (addresses: DocsAddresses) => SectionText>> = {
  overview,
  authentication,
  mcp,
  'desktop-client': desktopClient,
  'advisor-moat': advisorMoat,
  'advisor-chat': advisorChat,
  portfolio,
};

/** The text of one docs section, written against the service's real addresses. */
export function sectionText(id: DocsSectionId, addresses: DocsAddresses): SectionText {
  return BUILDERS[id](addresses);
}
