import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { McpProblem } from './deps.js';

/** What the MCP server derives from one frozen answer object, each made once. */
interface Derived {
  /** `JSON.stringify(answer)`: the text block of its result. */
  text?: string;
  /** The UTF-8 JSON of the whole result around it ({@link toolResultJson}). */
  bytes?: Buffer;
  /** The output schemas it was checked against and matched. */
  conforms?: WeakSet<z.ZodType>;
}

const derived = new WeakMap<object, Derived>();

/**
 * What is derived from `answer`, kept per answer object, when the answer is frozen (the read
 * path's rule, `freezeAnswer` of `@svc/use-cases`: a memoised portfolio read, a cached
 * evaluation); `undefined` for any other answer, which is then serialized and checked anew.
 */
export function derivedOf(answer: unknown): Derived | undefined {
  if (typeof answer !== 'object' || answer === null || !Object.isFrozen(answer)) return undefined;
  let known = derived.get(answer);
  if (known === undefined) {
    known = {};
    derived.set(answer, known);
  }
  return known;
}

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

/**
 * A tool result as UTF-8 JSON (what `JSON.stringify(result)` gives), for the JSON-RPC response
 * that carries it: made once per frozen answer ({@link derivedOf}), so a cached evaluation's
 * answer (about 8 kB) and its text copy are neither walked nor escaped nor encoded again. Other
 * results are serialized as they come.
 */
export function toolResultJson(result: CallToolResult): Buffer {
  const known = madeHere.has(result) ? derivedOf(result.structuredContent) : undefined;
  if (known === undefined) return Buffer.from(JSON.stringify(result));
  known.bytes ??= Buffer.from(JSON.stringify(result));
  return known.bytes;
}

/** The JSON text of an answer, made once per frozen answer ({@link derivedOf}). */
function jsonTextOf(structured: Record<string, unknown>): string {
  const known = derivedOf(structured);
  if (known === undefined) return JSON.stringify(structured);
  known.text ??= JSON.stringify(structured);
  return known.text;
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
