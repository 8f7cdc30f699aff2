import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  type ListResourcesResult,
  McpError,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { TickerSymbol } from '@svc/schemas';
import { UseCaseError } from '@svc/use-cases';
import type { McpServerDeps } from '../deps.js';
import { MCP_RESOURCES, type McpResourceText } from '../resource-catalog.js';
import { evaluationMarkdown, reportMarkdown } from './evaluation-markdown.js';

/** JSON-RPC error of `resources/read` for a resource that does not exist (MCP specification). */
const RESOURCE_NOT_FOUND = -32002;

/** Cached evaluations listed by `resources/list` (highest total score first). */
const LISTED_EVALUATIONS = 100;

type Variables = Record<string, string | string[]>;
type Listed = ListResourcesResult['resources'];

const variable = (variables: Variables, name: string) => String(variables[name] ?? '');

/**
 * Registers the resource templates of {@link MCP_RESOURCES} on the SDK's `McpServer`:
 * - `moat://reports/{id}[/markdown]`: the token owner's saved reports, listed from their library
 *   and read through `reports.get(actor.id, id)`; another user's id, or an unknown one, answers
 *   JSON-RPC error -32002 "Resource not found" alike, so nothing says it exists;
 * - `moat://evaluations/{symbol}[/markdown]`: cached evaluations, shared by all users (the 100
 *   highest-scoring listed), read from the cache only: never fetched, never a quota unit.
 * Any other failure answers a JSON-RPC error carrying the app's problem object as `data`.
 * Scope: `moat:read` (`MCP_METHOD_SCOPES`).
 */
export function registerMoatResources(mcp: McpServer, deps: McpServerDeps): void {
  const { services, actor, toProblem } = deps;

  /** Runs a read; a missing resource, or a malformed address, is -32002 / -32602. */
  async function read(uri: URL, work: () => Promise<string>, mimeType: string) {
    try {
      const text = await work();
      return { contents: [{ uri: uri.href, mimeType, text }] } satisfies ReadResourceResult;
    } catch (error) {
      if (error instanceof McpError) throw error;
      if (error instanceof UseCaseError && error.code === 'not_found') {
        throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href}`, {
          uri: uri.href,
        });
      }
      const problem = toProblem(error);
      throw new McpError(ErrorCode.InternalError, problem.detail, problem);
    }
  }

  const symbolOf = (uri: URL, variables: Variables) => {
    const parsed = TickerSymbol.safeParse(decodeURIComponent(variable(variables, 'symbol')));
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Not a ticker: ${uri.href}`);
    return parsed.data;
  };

  const listReports = async (text: McpResourceText, suffix: string): Promise<Listed> =>
    (await services.reports.list(actor.id)).map((r) => ({
      uri: `moat://reports/${r.id}${suffix}`,
      name: `${r.symbol} report ${r.createdAt.slice(0, 10)}${suffix ? ' (markdown)' : ''}`,
      title: `${r.companyName ?? r.symbol}: ${r.totalScore ?? '?'} / ${r.maxScore ?? '?'}`,
      description: `${r.verdict ?? 'no verdict'}; saved ${r.createdAt}${r.tags.length ? `; tags ${r.tags.join(', ')}` : ''}`,
      mimeType: text.mimeType,
    }));

  const listEvaluations = async (text: McpResourceText, suffix: string): Promise<Listed> => {
    const page = await services.screener.screen({
      sortBy: 'score',
      page: 1,
      limit: LISTED_EVALUATIONS,
    });
    return page.items.map((row) => ({
      uri: `moat://evaluations/${encodeURIComponent(row.symbol)}${suffix}`,
      name: `${row.symbol} evaluation${suffix ? ' (markdown)' : ''}`,
      title: `${row.companyName}: ${row.totalScore} / ${row.maxScore}`,
      description: `${row.verdict}; cached ${row.cachedAt}`,
      mimeType: text.mimeType,
    }));
  };

  const report = (v: Variables) => services.reports.get(actor.id, variable(v, 'id'));
  const cached = (uri: URL, v: Variables) => services.history.cached(symbolOf(uri, v));

  /** Each template: how its resources are listed and how one is read into text. */
  const templates: Record<
    keyof typeof MCP_RESOURCES,
    { list: () => Promise<Listed>; text: (uri: URL, v: Variables) => Promise<string> }
  > = {
    moatReport: {
      list: () => listReports(MCP_RESOURCES.moatReport, ''),
      text: async (_uri, v) => JSON.stringify(await report(v)),
    },
    moatReportMarkdown: {
      list: () => listReports(MCP_RESOURCES.moatReportMarkdown, '/markdown'),
      text: async (_uri, v) => reportMarkdown(await report(v)),
    },
    cachedEvaluation: {
      list: () => listEvaluations(MCP_RESOURCES.cachedEvaluation, ''),
      text: async (uri, v) => JSON.stringify(await cached(uri, v)),
    },
    cachedEvaluationMarkdown: {
      list: () => listEvaluations(MCP_RESOURCES.cachedEvaluationMarkdown, '/markdown'),
      text: async (uri, v) => evaluationMarkdown(await cached(uri, v)),
    },
  };

  for (const [name, { list, text }] of Object.entries(templates)) {
    const { uriTemplate, title, description, mimeType } =
      MCP_RESOURCES[name as keyof typeof MCP_RESOURCES];
    mcp.registerResource(
      name,
      new ResourceTemplate(uriTemplate, { list: async () => ({ resources: await list() }) }),
      { title, description, mimeType },
      (uri, v) => read(uri, () => text(uri, v), mimeType),
    );
  }
}
