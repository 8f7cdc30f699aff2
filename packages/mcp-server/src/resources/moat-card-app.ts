import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_APP_MIME_TYPE, MOAT_CARD_URI, moatCardAppHtml } from '@svc/moat-card';

/** The tool whose results the moat card shows, and the `_meta` that names the card in `tools/list`. */
export const CARD_TOOL_META = [
  'getMoatEvaluation',
  { ui: { resourceUri: MOAT_CARD_URI } },
] as const satisfies readonly [string, Record<string, unknown>];

/**
 * The moat card as an MCP App (SEP-1865, `@modelcontextprotocol/ext-apps` 1.x): `tools/list`
 * shows `getMoatEvaluation` with `_meta.ui.resourceUri` = {@link MOAT_CARD_URI}, and that
 * resource (`resources/list`, `resources/read`, scope `moat:read` like every resource) is the
 * card's self-contained HTML with MIME type `text/html;profile=mcp-app` (`moatCardAppHtml` of
 * `@svc/moat-card`: inline script and style, no network, so no `_meta.ui.csp` is declared and
 * the host's default policy applies). A host that shows apps renders it beside the answer and
 * hands it the tool's `structuredContent`; a host without apps ignores `_meta`, and the tool's
 * result is the same for both.
 */
export function registerMoatCardApp(mcp: McpServer): void {
  mcp.registerResource(
    'moatCard',
    MOAT_CARD_URI,
    {
      title: 'Moat card (MCP App)',
      description:
        'The card getMoatEvaluation results are shown in by hosts that render MCP Apps: the ' +
        'verdict against the bands and each criterion with its ten-year trend as a chart.',
      mimeType: MCP_APP_MIME_TYPE,
    },
    (uri): ReadResourceResult => ({
      contents: [
        {
          uri: uri.href,
          mimeType: MCP_APP_MIME_TYPE,
          text: moatCardAppHtml(),
          _meta: { ui: { prefersBorder: true } },
        },
      ],
    }),
  );
}
