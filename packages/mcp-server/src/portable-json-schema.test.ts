import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpServices } from './deps.js';
import { portableJsonSchema } from './portable-json-schema.js';
import { MCP_TOOL_NAMES } from './tool-catalog.js';

const MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
const ARRAYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else'];
const BOOLEAN_OK = ['additionalProperties', 'additionalItems'];
/** Keywords that constrain a value (the MCP Inspector's list, abridged to what zod emits). */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  '$ref',
]);

/**
 * The findings of the MCP Inspector's schema-portability check (`--strict`) that zod output can
 * trigger, written out independently: a `type` array, a schema that constrains nothing (`{}`),
 * a bare boolean where a schema is expected.
 */
function findings(node: unknown, path: string, keyword?: string): string[] {
  if (typeof node === 'boolean') {
    return keyword !== undefined && BOOLEAN_OK.includes(keyword) ? [] : [`${path}: bare boolean`];
  }
  if (typeof node !== 'object' || node === null) return [];
  const schema = node as Record<string, unknown>;
  const found: string[] = [];
  if (Array.isArray(schema.type)) found.push(`${path}: type array`);
  if (keyword !== 'not' && !Object.keys(schema).some((k) => CONSTRAINING.has(k))) {
    found.push(`${path}: constrains nothing`);
  }
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS.includes(key) && typeof value === 'object' && value !== null) {
      for (const [name, sub] of Object.entries(value)) {
        found.push(...findings(sub, `${path}.${key}.${name}`, key));
      }
    } else if (ARRAYS.includes(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries())
        found.push(...findings(sub, `${path}.${key}[${i}]`, key));
    } else if (SINGLES.includes(key) || BOOLEAN_OK.includes(key)) {
      found.push(...findings(value, `${path}.${key}`, key));
    }
  }
  return found;
}

describe('portableJsonSchema', () => {
  it('spells nullable fields as anyOf branches of one type each', () => {
    const json = portableJsonSchema(
      z.object({ pe: z.number().nullable().describe('P/E'), name: z.string().nullable() }),
      'output',
    );
    expect(json.properties).toEqual({
      pe: { anyOf: [{ type: 'number' }, { type: 'null' }], description: 'P/E' },
      name: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    expect(findings(json, 'schema')).toEqual([]);
  });

  it('spells a loose object as additionalProperties: true, also inside definitions', () => {
    const Named = z.looseObject({ a: z.number().nullable() }).meta({ id: 'Named' });
    const json = portableJsonSchema(z.looseObject({ named: Named }), 'output');
    expect(json.additionalProperties).toBe(true);
    expect(json.definitions).toEqual({
      Named: {
        type: 'object',
        properties: { a: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
        required: ['a'],
        additionalProperties: true,
      },
    });
    expect(findings(json, 'schema')).toEqual([]);
  });

  it('leaves constants and defaults alone', () => {
    const json = portableJsonSchema(
      z.object({ kind: z.literal('a'), page: z.number().default(1) }),
      'input',
    );
    expect(json.properties).toMatchObject({ kind: { const: 'a' }, page: { default: 1 } });
  });

  it('gives every tool of the server schemas without portability findings', async () => {
    const { server } = buildMcpServer({
      services: {} as McpServices,
      actor: { id: 'u', plan: 'free' },
      toProblem: () => ({ type: '/p', title: 'P', status: 500, detail: 'p', code: 'internal' }),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(MCP_TOOL_NAMES.length);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(findings(tool.inputSchema, `${tool.name}.inputSchema`)).toEqual([]);
      expect(findings(tool.outputSchema, `${tool.name}.outputSchema`)).toEqual([]);
    }
  });
});
