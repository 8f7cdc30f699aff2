import {
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
} from '@svc/use-cases';
import type { McpServerDeps } from '../deps.js';
import { MCP_TOOLS } from '../tool-catalog.js';
import type { ToolRegistry } from '../tool-registry.js';
import { runTool } from '../tool-result.js';

/* Unnamed copies: a tool schema must be `type: "object"` at its top, not a bare `$ref`. */
const HistoryInput = EvaluationHistoryQuery.extend({});
const HistoryOutput = EvaluationHistoryPage.extend({});
const DiffInput = EvaluationDiffQuery.extend({});
const DiffOutput = EvaluationDiff.extend({});

/** Read-only, no quota, answers from the database only. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * Registers the evaluation-history tools (issue 21), each one flow call of
 * `createEvaluationHistoryService`, the flows of `GET /api/stock-evaluation/history[/diff]`:
 * - `getEvaluationHistory {symbol, page?, limit?}`: the kept evaluations, newest first;
 * - `compareEvaluations {symbol, from?, to?}`: the diff of two (default the latest two).
 * Both will need the token scope `moat:read` (issue 21 part A).
 */
export function registerHistoryTools(server: ToolRegistry, deps: McpServerDeps): void {
  const { services, toProblem } = deps;

  server.registerTool(
    'getEvaluationHistory',
    {
      ...MCP_TOOLS.getEvaluationHistory,
      inputSchema: HistoryInput,
      outputSchema: HistoryOutput,
      annotations: READ_ONLY,
    },
    (query) => runTool(toProblem, () => services.history.list(query)),
  );

  server.registerTool(
    'compareEvaluations',
    {
      ...MCP_TOOLS.compareEvaluations,
      inputSchema: DiffInput,
      outputSchema: DiffOutput,
      annotations: READ_ONLY,
    },
    (query) => runTool(toProblem, () => services.history.diff(query)),
  );
}
