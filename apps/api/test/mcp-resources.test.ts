import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CRITERION_KEYS, type MoatEvaluation } from '@svc/schemas';
import { freePort } from '@svc/service/testing';
import { EvaluationDiff, EvaluationHistoryPage } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, registerUser, type TestContext } from './helpers.js';

/** The text of the one content of a `resources/read` answer. */
function textOf(result: { contents: ({ text: string } | { blob: string })[] }): string {
  expect(result.contents).toHaveLength(1);
  const [content] = result.contents;
  return content && 'text' in content ? content.text : '';
}

function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBeFalsy();
  const [text] = result.content;
  expect(JSON.parse(text?.type === 'text' ? text.text : 'null')).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** Resources, prompts and history tools as agents meet them: the SDK `Client` over real HTTP. */
describe('MCP resources, prompts and history tools over a real listening socket', () => {
  let ctx: TestContext;
  let base: string;
  const clients: Client[] = [];
  const users: Record<'alice' | 'bob', { cookie: string; userId: string; token: string }> =
    {} as never;

  async function connect(who: 'alice' | 'bob'): Promise<Client> {
    const client = new Client({ name: 'vitest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/user/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${users[who].token}` } },
      }),
    );
    clients.push(client);
    await client.listTools();
    return client;
  }

  const rest = (who: 'alice' | 'bob', method: string, path: string, body?: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        cookie: users[who].cookie,
        origin: base,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { BASE_URL: base, ACCOUNT_URL: BASE_URL } });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    for (const who of ['alice', 'bob'] as const) {
      const user = await registerUser(ctx.app, `mcp-res-${who}@example.com`);
      const { token } = await ctx.app.personalAccessTokens.mint(user.userId, { name: who });
      users[who] = { ...user, token };
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await ctx.close();
  });

  it('advertises resources, prompts and completions in initialize and the discovery document', async () => {
    const client = await connect('alice');
    const capabilities = client.getServerCapabilities();
    expect(capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {} });
    const doc = (await (await fetch(`${base}/.well-known/mcp.json`)).json()) as {
      resources: { name: string; uriTemplate: string; mimeType: string }[];
      prompts: { name: string; arguments: { name: string }[] }[];
    };
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(doc.resources.map((r) => [r.name, r.uriTemplate, r.mimeType])).toEqual(
      resourceTemplates.map((t) => [t.name, t.uriTemplate, t.mimeType]),
    );
    expect(resourceTemplates.map((t) => t.mimeType).sort()).toEqual([
      'application/json',
      'application/json',
      'text/markdown',
      'text/markdown',
    ]);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'evaluateCompany',
      'reviewPortfolioMoats',
      'explainCriterion',
    ]);
    expect(doc.prompts.map((p) => [p.name, p.arguments.map((a) => a.name)])).toEqual(
      prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => a.name)]),
    );
  });

  it("lists and reads the user's own reports only, as JSON and markdown", async () => {
    const got = await rest('alice', 'GET', '/api/stock-evaluation?symbol=PG');
    expect(got.status).toBe(200);
    const evaluation = (await got.json()) as MoatEvaluation;
    const saved = await rest('alice', 'POST', '/api/moat-reports', {
      symbol: 'PG',
      evaluationJson: JSON.stringify(evaluation),
      tags: ['staples'],
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };

    const alice = await connect('alice');
    const { resources } = await alice.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`moat://reports/${id}`);
    expect(uris).toContain(`moat://reports/${id}/markdown`);
    // PG is now cached: listed as an evaluation resource for everyone.
    expect(uris).toContain('moat://evaluations/PG');

    const json = await alice.readResource({ uri: `moat://reports/${id}` });
    expect(json.contents).toHaveLength(1);
    expect(json.contents[0]?.mimeType).toBe('application/json');
    const report = JSON.parse(textOf(json));
    expect(report).toMatchObject({ id, symbol: 'PG', tags: ['staples'] });
    expect(report.evaluation.totalScore).toBe(evaluation.totalScore);

    const md = await alice.readResource({ uri: `moat://reports/${id}/markdown` });
    expect(md.contents[0]?.mimeType).toBe('text/markdown');
    const text = textOf(md);
    expect(text).toContain(`# ${evaluation.companyName} (PG)`);
    expect(text).toContain(
      `**${evaluation.totalScore} / ${evaluation.maxScore}: ${evaluation.verdict}**`,
    );
    for (const c of evaluation.criteria) expect(text).toContain(`| ${c.name} | ${c.status} |`);

    // Bob neither sees nor reads Alice's report; the answer is the one for an unknown id.
    const bob = await connect('bob');
    const bobs = (await bob.listResources()).resources.map((r) => r.uri);
    expect(bobs.some((uri) => uri.startsWith('moat://reports/'))).toBe(false);
    expect(bobs).toContain('moat://evaluations/PG');
    await expect(bob.readResource({ uri: `moat://reports/${id}` })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(
      bob.readResource({ uri: 'moat://reports/00000000-0000-4000-8000-000000000000/markdown' }),
    ).rejects.toMatchObject({ code: -32002 });
  });

  it('reads cached evaluations without fetching or spending quota', async () => {
    const before = await ctx.quotas.usage(users.bob.userId, 'free');
    const bob = await connect('bob');
    const read = await bob.readResource({ uri: 'moat://evaluations/pg' });
    expect(JSON.parse(textOf(read))).toMatchObject({
      symbol: 'PG',
      _cached: true,
    });
    const md = await bob.readResource({ uri: 'moat://evaluations/PG/markdown' });
    expect(textOf(md)).toContain('_Informational only, not financial advice._');
    // Not cached: not found, and nothing fetched.
    await expect(bob.readResource({ uri: 'moat://evaluations/COST' })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(bob.readResource({ uri: 'moat://evaluations/%24%24' })).rejects.toMatchObject({
      code: -32602,
    });
    expect(await ctx.repos.evaluations.get('COST')).toBeUndefined();
    expect(await ctx.quotas.usage(users.bob.userId, 'free')).toEqual(before);
  });

  it('gets each prompt, completes criterion keys, and validates arguments', async () => {
    const client = await connect('alice');
    const evaluate = await client.getPrompt({
      name: 'evaluateCompany',
      arguments: { symbol: 'pg' },
    });
    const [first, attached] = evaluate.messages;
    expect(first?.content.type === 'text' && first.content.text).toContain('getMoatEvaluation');
    expect(first?.content.type === 'text' && first.content.text).toContain('"symbol":"PG"');
    // PG is cached: its evaluation is attached as a resource.
    expect(attached?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'moat://evaluations/PG', mimeType: 'application/json' },
    });
    const uncached = await client.getPrompt({
      name: 'evaluateCompany',
      arguments: { symbol: 'COST' },
    });
    expect(uncached.messages).toHaveLength(1);

    const portfolioId = '8f2c19fa-0d5e-4c1b-9a57-3f0a1b2c3d4e';
    const review = await client.getPrompt({
      name: 'reviewPortfolioMoats',
      arguments: { portfolioId },
    });
    const reviewText = review.messages[0]?.content;
    expect(reviewText?.type === 'text' && reviewText.text).toContain(
      `listHoldings with {"portfolioId":"${portfolioId}"}`,
    );
    const all = await client.getPrompt({ name: 'reviewPortfolioMoats', arguments: {} });
    expect(all.messages[0]?.content.type === 'text' && all.messages[0].content.text).toContain(
      'all my portfolios',
    );

    const explain = await client.getPrompt({
      name: 'explainCriterion',
      arguments: { criterion: 'return_on_invested_capital' },
    });
    const explained = explain.messages[0]?.content;
    expect(explained?.type === 'text' && explained.text).toContain('Return on Invested Capital');
    expect(explained?.type === 'text' && explained.text).toContain('15%');

    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'explainCriterion' },
      argument: { name: 'criterion', value: 're' },
    });
    expect(completion.completion.values).toEqual(
      CRITERION_KEYS.filter((key) => key.startsWith('re')),
    );

    await expect(
      client.getPrompt({ name: 'explainCriterion', arguments: { criterion: 'moat_size' } }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.getPrompt({ name: 'reviewPortfolioMoats', arguments: { portfolioId: 'p1' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('lists the history and compares evaluations through the tools', async () => {
    await rest('alice', 'GET', '/api/stock-evaluation?symbol=PG&fresh=1');
    const client = await connect('alice');
    const page = EvaluationHistoryPage.parse(
      structured(
        (await client.callTool({
          name: 'getEvaluationHistory',
          arguments: { symbol: 'pg', limit: 5 },
        })) as CallToolResult,
      ),
    );
    expect(page).toMatchObject({ symbol: 'PG', total: 2 });
    expect(page.items.every((i) => i.trigger === 'request' && i.provider === 'snapshot')).toBe(
      true,
    );
    const diff = EvaluationDiff.parse(
      structured(
        (await client.callTool({
          name: 'compareEvaluations',
          arguments: { symbol: 'PG' },
        })) as CallToolResult,
      ),
    );
    // The same filings twice: nothing moved.
    expect(diff).toMatchObject({ moved: [], newFilings: [], totalScore: { change: 0 } });
    expect(diff.to.id).toBe(page.items[0]?.id);
    const missing = (await client.callTool({
      name: 'compareEvaluations',
      arguments: { symbol: 'COST' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    const [text] = missing.content;
    expect(JSON.parse(text?.type === 'text' ? text.text : '{}')).toMatchObject({
      code: 'not_found',
      status: 404,
    });

    // The change feed: PG's second evaluation moved nothing, so it made no event.
    const changes = structured(
      (await client.callTool({
        name: 'getEvaluationChanges',
        arguments: { since: '2000-01-01T00:00:00Z', symbol: 'PG' },
      })) as CallToolResult,
    );
    expect(changes).toEqual({ items: [], nextCursor: null });
    const unbounded = (await client.callTool({
      name: 'getEvaluationChanges',
      arguments: {},
    })) as CallToolResult;
    expect(unbounded.isError).toBe(true);
    const [why] = unbounded.content;
    expect(JSON.parse(why?.type === 'text' ? why.text : '{}')).toMatchObject({
      code: 'validation_failed',
      status: 400,
    });
  });
});
