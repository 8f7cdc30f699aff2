import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpProblem, ProblemMapper } from './deps.js';

/**
 * A successful tool result (CONTRACT §4): `structuredContent` matching the tool's `outputSchema`,
 * and the same JSON as one text content block for clients that do not read structured content.
 */
export function toolResult(structured: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = {
    structuredContent: structured,
    content: [{ type: 'text', text: jsonTextOf(structured) }],
  };
  madeHere.add(result);
  return result;
}

/** Results made by {@link toolResult} (never changed afterwards: results are read-only). */
const madeHere = new WeakSet<CallToolResult>();

/** UTF-8 JSON of whole {@link toolResult} results, kept per answer object like {@link jsonTexts}. */
const resultBytes = new WeakMap<object, Buffer>();

/**
 * A tool result as UTF-8 JSON (what `JSON.stringify(result)` gives), for the JSON-RPC response
 * that carries it. A result of {@link toolResult} whose answer object was served before (a
 * memoised cache row) reuses the bytes made then: the answer (about 8 kB for an evaluation) and
 * its text copy (the same JSON again, escaped) are neither walked nor escaped nor encoded again.
 * Other results are serialized as they come.
 */
export function toolResultJson(result: CallToolResult): Buffer {
  const structured = result.structuredContent;
  if (structured === undefined || !madeHere.has(result)) {
    return Buffer.from(JSON.stringify(result));
  }
  let bytes = resultBytes.get(structured);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(result));
    resultBytes.set(structured, bytes);
  }
  return bytes;
}

/**
 * JSON text of answers, kept per answer object: a flow that serves the same object again (a
 * memoised cache row, e.g. a cached evaluation) is not serialized again on every call. Answers
 * are read, never mutated, once a flow has returned them.
 */
const jsonTexts = new WeakMap<object, string>();

function jsonTextOf(structured: Record<string, unknown>): string {
  const known = jsonTexts.get(structured);
  if (known !== undefined) return known;
  const text = JSON.stringify(structured);
  jsonTexts.set(structured, text);
  return text;
}

/**
 * A failed tool result: `isError: true` with the problem object as JSON text content, and no
 * `structuredContent`: clients (the SDK's `Client`, the MCP Inspector) validate any
 * `structuredContent` against the tool's `outputSchema`, even on an error, and a problem object
 * does not match an evaluation's schema (`MCP error -32602 Structured content does not match the
 * tool's output schema`). The agent reads `code`, `status`, `detail` (and `errors` / `quota`) by
 * parsing the text.
 */
export function problemResult(problem: McpProblem): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(problem) }], isError: true };
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
