import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import { evaluateCompany } from '@svc/use-cases';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMcpServer } from './build-mcp-server.js';
import type { McpServices } from './deps.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

/** A served evaluation of AAPL from the shared SEC snapshot. */
async function servedAapl() {
  const evaluation = await evaluateCompany('AAPL', {
    fundamentals: createFundamentalsProvider({
      provider: 'snapshot',
      snapshotDir: resolve(SHARED, 'fundamentals/raw/companyfacts'),
    }),
    ...createQuoteSource({ provider: 'csv', pricesDir: resolve(SHARED, 'prices') }),
    now: () => new Date('2026-09-01T12:00:00Z'),
  });
  return { ...evaluation, _cached: true, _cachedAt: '2026-09-01T12:00:00.000Z' };
}

describe('the moat card MCP App (SEP-1865)', () => {
  let client: Client;
  let served: Awaited<ReturnType<typeof servedAapl>>;

  beforeAll(async () => {
    served = await servedAapl();
    const services = {
      evaluations: { getEvaluation: async () => served, served: async () => served },
      reports: { list: async () => [] },
      screener: { screen: async () => ({ items: [] }) },
    } as unknown as McpServices;
    const { server } = buildMcpServer({
      services,
      actor: { id: 'user-1', plan: 'free' },
      toProblem: () => ({ type: '/x', title: 'x', status: 500, detail: 'x', code: 'internal' }),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'unit', version: '1' });
    await client.connect(clientSide);
  }, 60_000);

  it('getMoatEvaluation names the card in _meta.ui.resourceUri; no other tool has _meta', async () => {
    const { tools } = await client.listTools();
    const withMeta = tools.filter((t) => t._meta !== undefined);
    expect(withMeta.map((t) => [t.name, t._meta])).toEqual([
      ['getMoatEvaluation', { ui: { resourceUri: 'ui://moat/card.html' } }],
    ]);
  });

  it('lists the card as a resource with the MCP App MIME type', async () => {
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.startsWith('ui://'))).toEqual([
      expect.objectContaining({
        uri: 'ui://moat/card.html',
        name: 'moatCard',
        mimeType: 'text/html;profile=mcp-app',
      }),
    ]);
  });

  it('reads the card: one self-contained HTML document (inline script and style, no network)', async () => {
    const { contents } = await client.readResource({ uri: 'ui://moat/card.html' });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content?.mimeType).toBe('text/html;profile=mcp-app');
    const html = content && 'text' in content ? content.text : '';
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<script>[\s\S]{1000,}<\/script>/);
    expect(html).toContain('<style>');
    // Nothing is loaded from elsewhere: no src/href/url() to another origin, no import of a module.
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toMatch(/url\(\s*['"]?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
  });

  it('answers getMoatEvaluation as before: the evaluation as structured content and text, no _meta', async () => {
    const result = await client.callTool({
      name: 'getMoatEvaluation',
      arguments: { symbol: 'AAPL' },
    });
    expect(result.isError).toBeFalsy();
    expect(result._meta).toBeUndefined();
    expect(result.structuredContent).toEqual(served);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(served) }]);
  });
});
