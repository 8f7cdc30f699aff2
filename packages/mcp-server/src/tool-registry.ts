import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type FieldProblem, UseCaseError } from '@svc/use-cases';
import { z } from 'zod';
import type { McpServerInfo, ProblemMapper } from './deps.js';
import { type JsonSchemaObject, portableJsonSchema } from './portable-json-schema.js';
import { problemResult } from './tool-result.js';

/** What a tool is declared with: text, zod schemas (one home each) and annotations. */
export interface ToolConfig<I extends z.ZodObject> {
  readonly title: string;
  readonly description: string;
  /** The arguments; none when absent (an empty object schema is listed). */
  readonly inputSchema?: I;
  /** The `structuredContent` of a successful result (an object schema). */
  readonly outputSchema: z.ZodType;
  readonly annotations: ToolAnnotations;
}

/** A tool body: the parsed arguments in, a result out (see `runTool`). */
export type ToolHandler<I extends z.ZodObject> = (input: z.output<I>) => Promise<CallToolResult>;

interface RegisteredTool {
  readonly config: ToolConfig<z.ZodObject>;
  readonly input: z.ZodObject;
  readonly handler: (input: Record<string, unknown>) => Promise<CallToolResult>;
}

const NO_INPUT = z.object({});

/**
 * The JSON Schema validator the SDK `Server` keeps (used only for elicitation, which these tools
 * do not use): one per process. The SDK's default builds a new Ajv instance per `Server`, about a
 * millisecond of every stateless request.
 */
const JSON_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * JSON Schemas by zod schema: the schemas are module constants, so `tools/list` converts each one
 * once per process rather than once per (stateless) request.
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

/**
 * The tools of one MCP server on the SDK's low-level `Server` (the documented way to answer
 * `tools/list` and `tools/call` yourself), so that every answer an agent gets is ours:
 * - `tools/list`: each tool with title, description, annotations and JSON Schemas made portable
 *   ({@link portableJsonSchema}; the MCP Inspector's portability check prints no warning);
 * - `tools/call`: arguments parsed with the tool's zod schema; arguments that do not match answer
 *   `isError: true` with the `validation_failed` problem (`errors: [{ path, message }]`) of the
 *   app's mapping, where `McpServer` would answer a plain text message; anything the body throws
 *   is mapped the same way; a successful result is checked against the `outputSchema` (a mismatch
 *   is our bug: an `internal` problem). An unknown tool name is a JSON-RPC error -32602, as the
 *   MCP specification asks.
 * `registerTool` has the shape of `McpServer.registerTool`, so tool modules read the same.
 */
export class ToolRegistry {
  /** The SDK server answering `initialize`, `tools/list` and `tools/call`; connect it to a transport. */
  readonly server: Server;
  /**
   * The SDK's high-level server around {@link server}, for `registerResource` and
   * `registerPrompt` (it sets the resource, prompt and completion handlers and capabilities);
   * its own `registerTool` is not used: the tool handlers above are ours.
   */
  readonly mcp: McpServer;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #toProblem: ProblemMapper;

  constructor(info: McpServerInfo, toProblem: ProblemMapper) {
    this.#toProblem = toProblem;
    this.mcp = new McpServer(
      { name: info.name, version: info.version },
      { capabilities: { tools: {} }, jsonSchemaValidator: JSON_SCHEMA_VALIDATOR },
    );
    this.server = this.mcp.server;
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.list() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.call(request.params.name, request.params.arguments),
    );
  }

  /** Declares a tool; `handler` receives the arguments as parsed by `config.inputSchema`. */
  registerTool<I extends z.ZodObject = typeof NO_INPUT>(
    name: string,
    config: ToolConfig<I>,
    handler: ToolHandler<I>,
  ): void {
    this.#tools.set(name, {
      config,
      input: config.inputSchema ?? NO_INPUT,
      handler: handler as RegisteredTool['handler'],
    });
  }

  /** The `tools` of a `tools/list` answer. */
  list(): Tool[] {
    return [...this.#tools].map(([name, { config, input }]) => ({
      name,
      title: config.title,
      description: config.description,
      inputSchema: toolSchema(input, 'input'),
      outputSchema: toolSchema(config.outputSchema, 'output'),
      annotations: config.annotations,
    }));
  }

  /** Answers one `tools/call` (see the class comment). */
  async call(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const tool = this.#tools.get(name);
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success) {
      const error = new UseCaseError(
        'validation_failed',
        `The arguments do not match the input schema of ${name}.`,
        { cause: parsed.error, errors: fieldProblems(parsed.error) },
      );
      return problemResult(this.#toProblem(error));
    }
    try {
      const result = await tool.handler(parsed.data);
      if (result.isError !== true) {
        const checked = tool.config.outputSchema.safeParse(result.structuredContent);
        if (!checked.success) {
          throw new Error(`${name} answered outside its outputSchema`, { cause: checked.error });
        }
      }
      return result;
    } catch (error) {
      return problemResult(this.#toProblem(error));
    }
  }
}
