import { TOKEN_SCOPES } from '@svc/use-cases';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdit, editsOf } from './conformance/mutations.js';
import type { Schema } from './conformance/operations.js';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/**
 * The MCP tools against their own `inputSchema`s, as the REST operations are checked against
 * `/openapi.json` (openapi-conformance.test.ts): every tool that `tools/list` names (read at run
 * time, so the catalogue may change under it) is called with arguments generated from its schema
 * (json-schema-faker; checked with ajv to be valid), with those arguments set at each bound, and
 * with arguments that break exactly one keyword (checked with ajv to be invalid). Valid arguments
 * must never be refused as invalid (a JSON-RPC -32602, or a tool error `validation_failed`);
 * invalid ones must always be (the SDK's -32602 tool error, which is what the server answers
 * today, or `validation_failed`). The token has every scope. `MCP_CONFORMANCE_RUNS` draws more
 * valid arguments per tool for a deep local run.
 */
const RUNS = process.env.MCP_CONFORMANCE_RUNS ? Number(process.env.MCP_CONFORMANCE_RUNS) : 6;
/** The first seed of the draws (`FC_SEED` moves it; fixed otherwise, so a failure reproduces). */
const FIRST_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) * 1_000 : 0;
const SLOW_HOOK_MS = 180_000;

/** Tools whose documented rules go beyond their JSON Schema (stated in their descriptions). */
const SEMANTIC: Readonly<Record<string, string>> = {
  saveMoatReport: '`evaluationJson` is the JSON text of a MoatEvaluation of the same symbol',
  // The rule belongs in the inputSchema (anyOf required symbol | evaluation), as the REST body of
  // a saved report states it; the tool's schema is the tool catalogue's.
  generateMoatNarrative: '`symbol` or `evaluation` is required',
  getPortfolioPerformance:
    'a custom period needs `from`; `from` not after `to`, `to` not after today',
  listPortfolioChanges: '`cursor` is opaque (only a `nextCursor`)',
  getEvaluationChanges:
    '`since` is required without `cursor`; `cursor` is opaque (only a `nextCursor`)',
};

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

interface Tool {
  readonly name: string;
  readonly inputSchema: Schema;
  readonly validate: ValidateFunction;
}

interface Answer {
  readonly status: number;
  readonly body: string;
  /** How the call was refused as invalid input, or undefined when it was not. */
  readonly refusedAsInvalid: string | undefined;
  /** A tool error's code (or the JSON-RPC error's), for the report. */
  readonly outcome: string;
}

describe('the MCP tools against their inputSchemas (schema-driven property test)', () => {
  let ctx: TestContext;
  let token: string;
  let portfolioId: string;
  let tools: Tool[];

  beforeAll(async () => {
    ctx = await createTestContext({
      env: {
        RATE_LIMIT_PER_MINUTE: '1000000',
        QUOTA_LIMITS: JSON.stringify({
          free: { stock_evaluation: { limit: 100_000 }, ai_consult: { limit: 100_000 } },
        }),
      },
    });
    const { cookie } = await registerUser(ctx.app, 'mcp-conformance@example.com');
    const minted = await ctx.app.inject({
      method: 'POST',
      url: '/api/account/tokens',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'conformance', scopes: [...TOKEN_SCOPES] },
    });
    expect(minted.statusCode, minted.body).toBe(201);
    token = minted.json().token;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'MCP conformance' },
    });
    portfolioId = created.json().id;
    const listed = await rpc('tools/list', {});
    expect(listed.statusCode, listed.body).toBe(200);
    const raw = (listed.json() as { result: { tools: { name: string; inputSchema: Schema }[] } })
      .result.tools;
    tools = raw.map((tool) => {
      const { $schema: _dialect, ...schema } = tool.inputSchema;
      return { name: tool.name, inputSchema: schema, validate: ajv.compile(schema) };
    });
  }, SLOW_HOOK_MS);
  afterAll(() => ctx?.close(), SLOW_HOOK_MS);

  function rpc(method: string, params: object) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/mcp/user/mcp',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  }

  async function call(tool: Tool, args: unknown): Promise<Answer> {
    const res = await rpc('tools/call', { name: tool.name, arguments: args });
    const answer = { status: res.statusCode, body: res.body.slice(0, 400) };
    if (res.statusCode !== 200) {
      return { ...answer, refusedAsInvalid: undefined, outcome: `HTTP ${res.statusCode}` };
    }
    const json = res.json() as {
      result?: { isError?: boolean; content?: { type: string; text?: string }[] };
      error?: { code: number; message: string };
    };
    if (json.error) {
      const code = `jsonrpc ${json.error.code}`;
      return {
        ...answer,
        refusedAsInvalid: json.error.code === -32602 ? code : undefined,
        outcome: code,
      };
    }
    if (!json.result?.isError) return { ...answer, refusedAsInvalid: undefined, outcome: 'ok' };
    const text = json.result.content?.find((c) => c.type === 'text')?.text ?? '';
    if (text.startsWith('MCP error -32602')) {
      return { ...answer, refusedAsInvalid: 'MCP error -32602', outcome: 'MCP error -32602' };
    }
    const code = (() => {
      try {
        return String((JSON.parse(text) as { code?: unknown }).code);
      } catch {
        return 'unparsed';
      }
    })();
    return {
      ...answer,
      refusedAsInvalid: code === 'validation_failed' ? code : undefined,
      outcome: code,
    };
  }

  /** Valid arguments of `tool` drawn from `seed`, naming the user's portfolio on even seeds. */
  function validArguments(tool: Tool, seed: number): Record<string, unknown> | undefined {
    for (let attempt = 0; attempt < 5; attempt++) {
      const drawn = generateSync(tool.inputSchema, {
        seed: seed * 7 + attempt,
        optionalsProbability: 0.5,
        failOnInvalidTypes: false,
        maxItems: 3,
        maxDepth: 8,
      }) as Record<string, unknown>;
      const args =
        seed % 2 === 0 && 'portfolioId' in ((tool.inputSchema.properties as object) ?? {})
          ? { ...drawn, portfolioId }
          : drawn;
      if (tool.validate(args)) return args;
    }
    return undefined;
  }

  /** Runs `check` for every tool and fails once with every tool's first counterexample. */
  async function eachTool(check: (tool: Tool) => Promise<void>): Promise<void> {
    const failures: string[] = [];
    for (const tool of tools) {
      await check(tool).catch((error: unknown) => {
        failures.push(`${tool.name}: ${String((error as Error).message).slice(0, 600)}`);
      });
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }

  const refusesValid = (tool: Tool) => !(tool.name in SEMANTIC);

  it('lists tools whose inputSchemas are JSON Schemas of an object', () => {
    expect(tools.length).toBeGreaterThan(3);
    for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe('object');
  });

  it('never refuses generated valid arguments as invalid', async () => {
    await eachTool(async (tool) => {
      for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS; seed++) {
        const args = validArguments(tool, seed);
        if (args === undefined) continue;
        const answer = await call(tool, args);
        expect(answer.status, answer.body).toBe(200);
        if (refusesValid(tool)) {
          expect(
            answer.refusedAsInvalid,
            `valid ${JSON.stringify(args).slice(0, 300)} → ${answer.body}`,
          ).toBeUndefined();
        }
      }
    });
  }, 600_000);

  it('accepts every bound exactly, astral characters counted as one', async () => {
    await eachTool(async (tool) => {
      const base = validArguments(tool, 0) ?? validArguments(tool, 2);
      if (base === undefined) return;
      for (const edit of editsOf(tool.inputSchema, base, 'edges')) {
        const args = applyEdit(base, edit);
        if (!tool.validate(args)) continue;
        const answer = await call(tool, args);
        if (refusesValid(tool)) {
          expect(
            answer.refusedAsInvalid,
            `edge ${JSON.stringify(args).slice(0, 300)} → ${answer.body}`,
          ).toBeUndefined();
        }
      }
    });
  }, 600_000);

  it('refuses every argument that breaks one keyword, as invalid params', async () => {
    await eachTool(async (tool) => {
      const base = validArguments(tool, 0) ?? validArguments(tool, 2);
      if (base === undefined) return;
      for (const edit of editsOf(tool.inputSchema, base, 'invalid')) {
        if (edit.path.length === 0) continue; // arguments are always an object
        const args = applyEdit(base, edit);
        if (tool.validate(args)) continue;
        const answer = await call(tool, args);
        expect(
          answer.refusedAsInvalid,
          `invalid ${JSON.stringify(args).slice(0, 300)} → ${answer.outcome} ${answer.body}`,
        ).toBeDefined();
      }
    });
  }, 600_000);
});
