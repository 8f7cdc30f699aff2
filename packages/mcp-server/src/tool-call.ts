import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import type { ProblemMapper } from './deps.js';
import type { ToolRegistry } from './tool-registry.js';
import { toolResultJson } from './tool-result.js';

/** A `tools/call` the fast path answers: its JSON-RPC id, the tool's name and its arguments. */
export interface PlainToolCall {
  readonly id: string | number;
  readonly name: string;
  readonly arguments: Record<string, unknown> | undefined;
}

/** Whether a `Content-Type` is JSON by its media type (`application/json; charset=utf-8` is). */
const isJson = (contentType: string | undefined) =>
  contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';

/** A plain JSON object (what `JSON.parse` makes of `{…}`): not null, not an array. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const has = (object: object, key: string) => Object.hasOwn(object, key);
const onlyKeys = (object: object, allowed: readonly string[]) =>
  Object.keys(object).every((key) => allowed.includes(key));

/**
 * The request, when it is the common `tools/call` that the SDK's transport would answer with one
 * JSON response and nothing else: `Accept` listing both `application/json` and
 * `text/event-stream`, a JSON `Content-Type`, no `MCP-Protocol-Version` or a supported one, and a
 * body that is one JSON-RPC request `{ jsonrpc: "2.0", id, method: "tools/call", params: { name,
 * arguments? } }` with nothing else in it (an id that is a string or a safe integer, `arguments`
 * an object). Checked by hand, without the SDK's zod schemas: the call's arguments are parsed
 * once, by the tool's own input schema ({@link ToolRegistry.call}). Anything else, a `_meta` or a
 * task in `params` included, is left to the SDK's transport (null), so its answers and errors
 * stay exactly the SDK's.
 */
export function plainToolCall(request: FastifyRequest): PlainToolCall | null {
  const { accept, 'content-type': contentType } = request.headers;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return null;
  if (!isJson(contentType)) return null;
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) return null;
  const body = request.body;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return null;
  if (!onlyKeys(body, ['jsonrpc', 'id', 'method', 'params'])) return null;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  if (!isPlainObject(params) || typeof params.name !== 'string') return null;
  if (!onlyKeys(params, ['name', 'arguments'])) return null;
  const args = params.arguments;
  if (has(params, 'arguments') && !isPlainObject(args)) return null;
  return {
    id: id as string | number,
    name: params.name,
    arguments: args as PlainToolCall['arguments'],
  };
}

const RESPONSE_TAIL = Buffer.from('}');

/**
 * Answers a plain `tools/call` ({@link plainToolCall}) with the registry's own
 * {@link ToolRegistry.call}, as the SDK's `Server` would answer it, without its request machinery
 * (two more zod parses of the request, an abort controller and the handler's extra per request,
 * a zod parse and copy of the result): the JSON-RPC response as UTF-8 JSON, the result's bytes
 * reused when its answer object was served before ({@link toolResultJson}). Failures are mapped
 * by `toProblem`, the mapping of the request that carries the call.
 *
 * Answers `null`, leaving the request to the SDK, for a tool the registry does not know (the
 * SDK's -32602 error). An error thrown by the call (not a tool's failure, which is an `isError`
 * result, but a failing problem mapping) is answered as the SDK's `Protocol` answers a handler's
 * error: `code` when it is an integer, else -32603, its `message`, and its `data` when present.
 *
 * Results are those of `toolResult` and `problemResult`, valid `CallToolResult`s by construction,
 * which the SDK would otherwise check against `CallToolResultSchema` on every call.
 */
export async function answerToolCall(
  tools: ToolRegistry,
  call: PlainToolCall,
  toProblem: ProblemMapper,
): Promise<Buffer | null> {
  if (!tools.has(call.name)) return null;
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},`;
  try {
    const result = await tools.call(call.name, call.arguments, toProblem);
    return Buffer.concat([Buffer.from(`${head}"result":`), toolResultJson(result), RESPONSE_TAIL]);
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    const body = {
      code: Number.isSafeInteger(code) ? code : ErrorCode.InternalError,
      message: message ?? 'Internal error',
      ...(data !== undefined && { data }),
    };
    return Buffer.from(`${head}"error":${JSON.stringify(body)}}`);
  }
}
