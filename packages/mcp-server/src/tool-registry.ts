import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type AnyToolDefinition,
  type FieldProblem,
  insufficientScope,
  missingScopes,
  runTokenCall,
  TOKEN_SCOPES,
  type TokenCall,
  type TokenScope,
  UseCaseError,
} from '@svc/use-cases';
import type { z } from 'zod';
import type { McpCallAudit, ProblemMapper } from './deps.js';
import { type JsonSchemaObject, portableJsonSchema } from './portable-json-schema.js';
import { derivedOf, problemResult, toolResult } from './tool-result.js';

/**
 * A tool body: the arguments as parsed by the definition's `input` and the call's
 * {@link TokenCall} in (passed as the MCP SDK passes a handler its `extra`: flows that spend a
 * quota take it as `tokenCall`), the tool's answer out (its `structuredContent`); anything it
 * throws is mapped to a problem by the call's mapping (see {@link ToolRegistry.call}).
 */
export type ToolHandler = (
  input: Record<string, unknown>,
  call: TokenCall,
) => Promise<Record<string, unknown>>;

interface RegisteredTool {
  readonly config: AnyToolDefinition;
  readonly handler: ToolHandler;
}

/**
 * JSON Schemas by zod schema: the schemas are module constants, so `tools/list` converts each one
 * once per process rather than once per server.
 */
const jsonSchemas = { input: new WeakMap<z.ZodType, Tool['inputSchema']>(), output: new WeakMap() };

function toolSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const cache = jsonSchemas[io] as WeakMap<z.ZodType, Tool['inputSchema']>;
  let json = cache.get(schema);
  if (json === undefined) {
    json = portableJsonSchema(schema, io) as JsonSchemaObject & Tool['inputSchema'];
    cache.set(schema, json);
  }
  return json;
}

/** zod issues as the field errors of a `validation_failed` problem (`path` dotted, relative to the arguments). */
function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? 'arguments' : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Who calls the tools of one server, and where their calls are recorded. */
export interface ToolCaller {
  /** The token's scopes; default every scope (in-process use without a token). */
  readonly scopes?: readonly TokenScope[] | undefined;
  /** The audit log of the token's calls; default none. */
  readonly audit?: McpCallAudit | undefined;
}

/** A call's answer and what its audit row says of it. */
interface Answered {
  readonly result: CallToolResult;
  readonly outcome: 'ok' | 'error' | 'denied';
  readonly spent: Record<string, number>;
}

/** The `code` of a failed result's problem (its one text block), for the audit log. */
function problemCode(result: CallToolResult): string | undefined {
  const [block] = result.content;
  if (result.isError !== true || block?.type !== 'text') return undefined;
  try {
    const code = (JSON.parse(block.text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tools of one caller (a token's owner and scopes, its audit log), answering `tools/list`
 * and `tools/call` so that every answer an agent gets is ours. It holds no SDK server and no
 * request: `buildMcpServer` wires it to the SDK's low-level `Server` (the documented way to
 * answer `tools/list` and `tools/call` yourself), and the HTTP plugin's fast path calls
 * {@link call} directly; the problem mapping (which logs through the HTTP request) is an argument
 * of each call, never state of the registry, so one registry serves any number of calls at once.
 * - `tools/list`: each tool with title, description, annotations and JSON Schemas made portable
 *   ({@link portableJsonSchema}; the MCP Inspector's portability check prints no warning);
 * - `tools/call`: arguments parsed once, with the tool's zod schema; arguments that do not match
 *   answer `isError: true` with the `validation_failed` problem (`errors: [{ path, message }]`)
 *   of the app's mapping, where `McpServer` would answer a plain text message; anything the body
 *   throws is mapped the same way; a successful answer is checked against the `outputSchema` (a
 *   mismatch is our bug: an `internal` problem). An unknown tool name is a JSON-RPC error -32602,
 *   as the MCP specification asks.
 * - scopes: `tools/list` shows only the tools whose `scopes` the caller has; calling another one
 *   answers an `insufficient_scope` problem naming the missing scopes; the body runs inside
 *   `runTokenCall` and is handed its {@link TokenCall} as an argument, which the flows that spend
 *   take (quota spending needs its scope and is counted);
 *   `redactUnless` leaves out what a missing scope hides;
 * - audit: each call (tool, start, outcome, problem code, quota spent, duration, arguments) is
 *   given to `caller.audit` and awaited before the answer goes out.
 * Each tool is registered from its definition of `@svc/use-cases` (`registerTool`), the one the
 * advisor's tools are made from too.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  /** The `_meta` of tools that have one in `tools/list` (e.g. the MCP App of `getMoatEvaluation`). */
  readonly #meta = new Map<string, Record<string, unknown>>();
  readonly #scopes: ReadonlySet<TokenScope>;
  readonly #audit: McpCallAudit | undefined;

  constructor(caller: ToolCaller = {}) {
    this.#scopes = new Set(caller.scopes ?? TOKEN_SCOPES);
    this.#audit = caller.audit;
  }

  /**
   * Declares a tool from its one definition (`@svc/use-cases` `src/tools/`: name, title,
   * description, input and output schemas, annotations, scopes, what a missing scope hides);
   * `handler` receives the arguments as parsed by `tool.input`.
   */
  registerTool(tool: AnyToolDefinition, handler: ToolHandler): void {
    this.#tools.set(tool.name, { config: tool, handler });
  }

  /**
   * Sets the `_meta` a tool shows in `tools/list` (SEP-1865: `{ ui: { resourceUri } }` names the
   * MCP App that shows its results). Calls and their results are unchanged.
   */
  setToolMeta(name: string, meta: Record<string, unknown>): void {
    this.#meta.set(name, meta);
  }

  /** Whether a tool of this name is registered (listed or not). */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The scopes of `required` the caller lacks. */
  missing(required: readonly TokenScope[]): TokenScope[] {
    return missingScopes(this.#scopes, required);
  }

  /** The `tools` of a `tools/list` answer: those the caller's scopes allow. */
  list(): Tool[] {
    const allowed = [...this.#tools].filter(([, t]) => this.missing(t.config.scopes).length === 0);
    return allowed.map(([name, { config }]) => ({
      name,
      title: config.title,
      description: config.description,
      inputSchema: toolSchema(config.input, 'input'),
      outputSchema: toolSchema(config.output, 'output'),
      annotations: { ...config.annotations },
      ...(this.#meta.has(name) ? { _meta: this.#meta.get(name) } : {}),
    }));
  }

  /**
   * Answers one `tools/call` (see the class comment), failures mapped by `toProblem` (the
   * mapping of the request that carries the call), and records it in the audit log before the
   * answer goes out; when the record cannot be written, the answer is that error's problem.
   * @throws {McpError} -32602 for an unknown tool; whatever `toProblem` throws.
   */
  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    toProblem: ProblemMapper,
  ): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const at = new Date();
    const started = performance.now();
    const answered = await this.#answer(name, tool, args, toProblem);
    if (this.#audit === undefined) return answered.result;
    try {
      await this.#audit({
        tool: name,
        at,
        outcome: answered.outcome,
        errorCode: problemCode(answered.result),
        quotaSpent: answered.spent,
        durationMs: performance.now() - started,
        arguments: args,
      });
    } catch (error) {
      return problemResult(toProblem(error));
    }
    return answered.result;
  }

  async #answer(
    name: string,
    tool: RegisteredTool,
    args: Record<string, unknown> | undefined,
    toProblem: ProblemMapper,
  ): Promise<Answered> {
    const missing = this.missing(tool.config.scopes);
    if (missing.length > 0) {
      const error = insufficientScope(missing, `the tool ${name}`);
      return { result: problemResult(toProblem(error)), outcome: 'denied', spent: {} };
    }
    const parsed = tool.config.input.safeParse(args ?? {});
    if (!parsed.success) {
      const error = new UseCaseError(
        'validation_failed',
        `The arguments do not match the input schema of ${name}.`,
        { cause: parsed.error, errors: fieldProblems(parsed.error) },
      );
      return { result: problemResult(toProblem(error)), outcome: 'error', spent: {} };
    }
    const run = await runTokenCall([...this.#scopes], (call) =>
      this.#checked(name, tool, parsed.data, call),
    );
    const result = run.ok ? run.value : problemResult(toProblem(run.error));
    const code = problemCode(result);
    const outcome = code === undefined ? 'ok' : code === 'insufficient_scope' ? 'denied' : 'error';
    return { result, outcome, spent: run.spent };
  }

  /** Runs the body, redacts what the scopes do not allow, checks the `outputSchema`. */
  async #checked(
    name: string,
    tool: RegisteredTool,
    input: Record<string, unknown>,
    call: TokenCall,
  ): Promise<CallToolResult> {
    let answer = await tool.handler(input, call);
    const redaction = tool.config.redactUnless;
    if (redaction && !this.#scopes.has(redaction.scope)) answer = redaction.redact(answer);
    assertConforms(name, tool.config.output, answer);
    return toolResult(answer);
  }
}

/**
 * @throws {Error} when `structured` does not match `output` (a bug of the tool's flow). A frozen
 * answer served again (a memoised read, a cached evaluation) is checked once per schema
 * ({@link derivedOf}).
 */
function assertConforms(name: string, output: z.ZodType, structured: unknown): void {
  const known = derivedOf(structured);
  if (known?.conforms?.has(output)) return;
  const result = output.safeParse(structured);
  if (!result.success) {
    throw new Error(`${name} answered outside its outputSchema`, { cause: result.error });
  }
  if (known === undefined) return;
  known.conforms ??= new WeakSet();
  known.conforms.add(output);
}
