import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from './tool-registry.js';
import { toolResultJson } from './tool-result.js';

const RESPONSE_TAIL = Buffer.from('}');

/**
 * Answers a plain `tools/call` request (see `plainRequest`) with the registry's own
 * {@link ToolRegistry.call}, as the SDK's `Server` would answer it, without its request machinery
 * (a second and third zod parse of the request, an abort controller and the handler's extra per
 * request, a zod parse and copy of the result): the JSON-RPC response as UTF-8 JSON, the result's
 * bytes reused when its answer object was served before ({@link toolResultJson}).
 *
 * Answers `null`, leaving the request to the SDK, for everything whose answer the SDK shapes
 * itself: params that do not parse as the SDK's `CallToolRequestSchema` (its -32602 message), a
 * task-augmented call (`params.task`), an unknown tool name (its -32602 error). An error thrown by
 * the call (not a tool's failure, which is an `isError` result, but a broken output schema) is
 * answered as the SDK's `Protocol` answers a handler's error: `code` when it is an integer, else
 * -32603, its `message`, and its `data` when present.
 *
 * Results are those of `toolResult` and `problemResult`, valid `CallToolResult`s by construction,
 * which the SDK would otherwise check against `CallToolResultSchema` on every call.
 */
export async function answerToolCall(
  tools: ToolRegistry,
  request: JSONRPCRequest,
): Promise<Buffer | null> {
  if (request.method !== 'tools/call') return null;
  const parsed = CallToolRequestSchema.safeParse(request);
  if (!parsed.success) return null;
  const { params } = parsed.data;
  if (params.task !== undefined || !tools.has(params.name)) return null;
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},`;
  try {
    const result = await tools.call(params.name, params.arguments);
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
