import type { ToolDefinition, ToolSurface } from './definition.js';
import { compareEvaluations, getEvaluationHistory } from './history-tools.js';
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
  listPortfolios,
  listTransactions,
} from './portfolio-tools.js';
import { getQuote } from './quote-tool.js';

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
