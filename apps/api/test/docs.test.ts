import { toolsOn } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_SECTION_IDS } from '../src/docs/schema.js';
import { createTestContext, type TestContext } from './helpers.js';

describe('documentation routes (public)', () => {
  let ctx: TestContext;
  const base = 'https://svc.example.com';
  beforeAll(async () => {
    ctx = await createTestContext({ env: { BASE_URL: base } });
  });
  afterAll(() => ctx.close());

  it('serves the index with the seven sections and the discovery addresses, without a session', async () => {
    const res = await ctx.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.version).toBe('2.5.33');
    expect(body.sections.map((s: { id: string }) => s.id)).toEqual([
      'overview',
      'authentication',
      'mcp',
      'desktop-client',
      'advisor-moat',
      'advisor-chat',
      'portfolio',
    ]);
    expect(body.sections[2].url).toBe(`${base}/api/docs/mcp`);
    expect(body.discovery).toEqual({
      openapi: `${base}/openapi.json`,
      mcpDiscovery: `${base}/.well-known/mcp.json`,
      mcpServer: `${base}/api/mcp/user`,
    });
  });

  it.each(DOCS_SECTION_IDS)(
    'serves section %s with id, title, description, url and content',
    async (id) => {
      const res = await ctx.app.inject({ url: `/api/docs/${id}` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id, url: `${base}/api/docs/${id}` });
      expect(body.title.length).toBeGreaterThan(3);
      expect(body.content.summary.length).toBeGreaterThan(80);
    },
  );

  it('gives MCP clients a ready configuration with the real address and the bearer header', async () => {
    const { content } = (await ctx.app.inject({ url: '/api/docs/mcp' })).json();
    const server = content.mcpClientConfig.mcpServers['moat-portfolio'];
    expect(server.url).toBe(`${base}/api/mcp/user/mcp`);
    expect(server.headers.Authorization).toMatch(/^Bearer svc_pat_/);
  });

  it('documents the real auth paths with curl examples against the base URL', async () => {
    const { content } = (await ctx.app.inject({ url: '/api/docs/authentication' })).json();
    const paths = content.endpoints.map(
      (e: { method: string; path: string }) => `${e.method} ${e.path}`,
    );
    const documented = Object.entries(
      (await ctx.app.inject({ url: '/openapi.json' })).json().paths,
    ).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`));
    for (const op of documented.filter((o) => o.includes('/auth/') || o.includes('account'))) {
      expect(paths).toContain(op);
    }
    expect(content.examples.map((e: { code: string }) => e.code).join('\n')).toContain(
      `${base}/api/auth/login`,
    );
  });

  it("names every tool of the advisor in its chat operations' rules, read from the catalogue", async () => {
    const paths = (await ctx.app.inject({ url: '/openapi.json' })).json().paths;
    const chats = Object.entries(paths as Record<string, Record<string, { description?: string }>>)
      .filter(([path]) => path === '/api/advisor/chat' || path === '/api/portfolio/ai-chat')
      .map(([, ops]) => ops.post?.description ?? '');
    expect(chats).toHaveLength(2);
    const tools = toolsOn('advisor').map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining(['getPortfolioPerformance', 'listPortfolioChanges']),
    );
    for (const description of chats) {
      for (const tool of tools) expect(description).toContain(`\`${tool}\``);
    }
  });

  it('documents the SSE frames of the narrative and the advisor (CONTRACT §4)', async () => {
    const moat = (await ctx.app.inject({ url: '/api/docs/advisor-moat' })).json().content;
    expect(moat.streamFrames.map((f: { frame: string }) => f.frame).join('\n')).toContain(
      'event: done',
    );
    const chat = (await ctx.app.inject({ url: '/api/docs/advisor-chat' })).json().content;
    const types = chat.streamFrames.map(
      (f: { frame: string }) => JSON.parse(f.frame.replace(/^data: /, '')).type,
    );
    expect(types).toEqual(['start', 'delta', 'tool', 'proposal', 'error', 'done']);
  });

  it('answers 404 problem+json for an unknown section', async () => {
    const res = await ctx.app.inject({ url: '/api/docs/pricing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});
