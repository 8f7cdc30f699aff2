import { scopesPerTool, toolSignature, toolsOn } from '@svc/use-cases';
import { type DocsAddresses, QUOTAS, type SectionText } from './shared.js';

/** The MCP tools of the catalogue (`toolsOn('mcp')`), which the notes below list. */
const MCP_TOOLS = toolsOn('mcp');

/** The `mcp` section. */
export function mcp({ baseUrl, accountUrl }: DocsAddresses): SectionText {
  return {
    title: 'MCP server',
    description: 'Connect an MCP client with a personal access token and call the tools.',
    content: {
      summary:
        `The MCP server speaks streamable HTTP at ${baseUrl}/api/mcp/user; clients are configured ` +
        `with ${baseUrl}/api/mcp/user/mcp and the header Authorization: Bearer <token>. A missing ` +
        'or bad token answers HTTP 401 with WWW-Authenticate: Bearer. Tool results carry ' +
        'structuredContent matching the tool outputSchema plus the same JSON as text; a failed call ' +
        '(arguments outside the inputSchema included: code validation_failed with errors) answers ' +
        'isError: true with the problem object as JSON text content and no structuredContent. ' +
        'A token sees and calls only the tools its scopes allow; a call outside them answers the ' +
        'problem insufficient_scope naming the missing scope (scope field).',
      steps: [
        `Mint a token at ${accountUrl}/account/developer (it starts with svc_pat_, shown once) with the scopes the agent needs.`,
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
          description:
            'Discovery: name, version, transport, url, authentication, tools, capabilities, resources, prompts',
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
        `Tools: ${MCP_TOOLS.map(toolSignature).join(', ')}.`,
        'Resources: moat://reports/{id} and moat://reports/{id}/markdown (your saved reports only), moat://evaluations/{symbol} and moat://evaluations/{symbol}/markdown (cached evaluations; reading never spends quota).',
        'MCP App (SEP-1865): getMoatEvaluation names ui://moat/card.html in _meta.ui.resourceUri, a resource of MIME type text/html;profile=mcp-app (self-contained, no network) that hosts showing apps render beside the answer as the moat card; the tool result is the same for hosts without apps.',
        'Prompts: evaluateCompany {symbol}, reviewPortfolioMoats {portfolioId?}, explainCriterion {criterion} (completable).',
        'Agents should use MCP (not REST) for portfolio reads; REST needs a browser session, except the portfolio X-ray (GET /api/portfolios/{id}/xray), which takes a token with portfolio:read and moat:read and is recorded in its activity too.',
        'Fresh evaluations and narratives consume the same quotas as the web application.',
        `Scopes per tool: ${scopesPerTool(MCP_TOOLS)}`,
        'resources/list, resources/templates/list and resources/read need moat:read: without it the HTTP answer is 403 with WWW-Authenticate: Bearer error="insufficient_scope", scope="moat:read" (RFC 6750).',
        'Every tool call is recorded in the token activity (GET /api/account/tokens/{id}/activity, and the developer page) before it is answered.',
      ],
    },
  };
}

/** The `desktopClient` section. */
export function desktopClient({ baseUrl, accountUrl }: DocsAddresses): SectionText {
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
