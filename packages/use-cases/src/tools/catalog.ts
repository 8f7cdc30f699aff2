import { QUOTA_SCOPES, type TokenScope, withNeededScopes } from '../accounts/scopes.js';
import type { ToolDefinition, ToolSurface } from './definition.js';
import { compareEvaluations, getEvaluationChanges, getEvaluationHistory } from './history-tools.js';
import {
  generateMoatNarrative,
  getMoatEvaluation,
  listMoatReports,
  saveMoatReport,
  screenMoat,
} from './moat-tools.js';
import {
  getPortfolioPerformance,
  listCash,
  listHoldings,
  listPortfolioChanges,
  listPortfolios,
  listTransactions,
} from './portfolio-tools.js';
import { getQuote } from './quote-tool.js';
import { getPortfolioXray } from './xray-tool.js';

/**
 * Every tool, each declared once (one file per tool or small group under `src/tools/`), in the
 * order `tools/list` and the advisor's model show them. The MCP server offers those whose
 * `surfaces` name `mcp` (interface spec 4.5's eight, the history tools of issue 21 and the
 * performance of issue 20); the advisor those naming `advisor`, plus its turn-bound proposal
 * tools (`advisor/proposal-tools.ts`). A new tool: one file with a `defineTool` call, and
 * its line here.
 */
export const TOOL_DEFINITIONS = [
  listPortfolios,
  listHoldings,
  listCash,
  listTransactions,
  getQuote,
  getMoatEvaluation,
  generateMoatNarrative,
  listMoatReports,
  screenMoat,
  saveMoatReport,
  getEvaluationHistory,
  compareEvaluations,
  getPortfolioPerformance,
  listPortfolioChanges,
  getEvaluationChanges,
  getPortfolioXray,
] as const;

type Defined = (typeof TOOL_DEFINITIONS)[number];

/** The name of a tool offered on surface `S`. */
export type ToolNameOn<S extends ToolSurface> = Defined extends infer D
  ? D extends { readonly name: infer N; readonly surfaces: readonly (infer X)[] }
    ? S extends X
      ? N
      : never
    : never
  : never;

/** A tool definition with its types erased (what a surface adapter iterates over). */
// biome-ignore lint/suspicious/noExplicitAny: the adapters parse arguments with `input` first.
export type AnyToolDefinition = ToolDefinition<string, any, any>;

/** The definitions of the tools offered on `surface`, in catalogue order. */
export function toolsOn(surface: ToolSurface): readonly AnyToolDefinition[] {
  return TOOL_DEFINITIONS.filter((tool) =>
    (tool.surfaces as readonly ToolSurface[]).includes(surface),
  );
}

/**
 * The eight MCP tools of the interface spec (§4.5), by name: what a client written against the
 * spec calls.
 */
export const SPEC_MCP_TOOLS = [
  'listPortfolios',
  'listHoldings',
  'listCash',
  'getMoatEvaluation',
  'generateMoatNarrative',
  'listMoatReports',
  'screenMoat',
  'saveMoatReport',
] as const satisfies readonly ToolNameOn<'mcp'>[];

/**
 * Every scope a caller needs to use `tools` fully: each tool's `scopes`, the scope that shows the
 * fields its answer would otherwise leave out (`redactUnless`), the scope of each quota it may
 * spend (`spends`, {@link QUOTA_SCOPES}), and what those need ({@link withNeededScopes}); in the
 * order of `TOKEN_SCOPES`.
 */
export function scopesToUse(tools: readonly AnyToolDefinition[]): TokenScope[] {
  const scopes: TokenScope[] = [];
  for (const tool of tools) {
    scopes.push(...tool.scopes);
    if (tool.redactUnless !== undefined) scopes.push(tool.redactUnless.scope);
    for (const quota of tool.spends ?? []) {
      const scope = QUOTA_SCOPES[quota];
      if (scope !== undefined) scopes.push(scope);
    }
  }
  return withNeededScopes(scopes);
}

/**
 * The scopes of a personal access token minted without `scopes` (CONTRACT §2's body is
 * `{ name, expiresInDays? }`): everything the spec's eight MCP tools need ({@link SPEC_MCP_TOOLS},
 * {@link scopesToUse}), so a client written against the interface spec gets "read access to
 * portfolio data and the moat tools" with stored EUR values, fresh evaluations and narratives
 * spending the user's quotas "as in the web application" (spec §1, §4.5). Least privilege is one
 * field away: `scopes` in the mint body (the developer page ticks `READ_ONLY_TOKEN_SCOPES`).
 * Tokens minted earlier keep the scopes they were given.
 */
export const DEFAULT_TOKEN_SCOPES: readonly TokenScope[] = scopesToUse(
  TOOL_DEFINITIONS.filter((tool) => (SPEC_MCP_TOOLS as readonly string[]).includes(tool.name)),
);
