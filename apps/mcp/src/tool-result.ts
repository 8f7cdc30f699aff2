import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpProblem, ProblemMapper } from './deps.js';

/**
 * A successful tool result (CONTRACT §4): `structuredContent` matching the tool's `outputSchema`,
 * and the same JSON as one text content block for clients that do not read structured content.
 */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return {
    structuredContent: structured,
    content: [{ type: 'text', text: JSON.stringify(structured) }],
  };
}

/** A failed tool result: `isError: true` with the problem object as structured content and text. */
export function problemResult(problem: McpProblem): CallToolResult {
  return { ...toolResult({ ...problem }), isError: true };
}

/**
 * Runs a tool body and shapes its answer: the value as {@link toolResult}, or anything thrown,
 * mapped by `toProblem`, as {@link problemResult}. Tool bodies so stay one flow call each.
 */
export async function runTool(
  toProblem: ProblemMapper,
  body: () => Promise<Record<string, unknown>>,
): Promise<CallToolResult> {
  try {
    return toolResult(await body());
  } catch (error) {
    return problemResult(toProblem(error));
  }
}
