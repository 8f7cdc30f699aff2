import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort, textSteps } from '@svc/service/testing';
import { TOKEN_SCOPES } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModel, narrativeStream, startFakeModel } from './ai-support.js';
import { BASE_URL, createTestContext, registerUser, type TestContext } from './helpers.js';

describe('generateMoatNarrative (MCP) and POST /api/stock-evaluation/ai run one flow', () => {
  let ctx: TestContext;
  let model: FakeModel;
  let base: string;

  beforeAll(async () => {
    model = await startFakeModel();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    ctx = await createTestContext({ env: { ...model.env, BASE_URL: base, ACCOUNT_URL: BASE_URL } });
    await ctx.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await ctx.close();
    await model.server.close();
  });

  it('gives the same markdown and grounding for the same evaluation and model', async () => {
    const alice = await registerUser(ctx.app, 'narrative-mcp@example.com');
    const evaluation = (
      await ctx.app.inject({
        url: '/api/stock-evaluation?symbol=AAPL',
        headers: { cookie: alice.cookie },
      })
    ).json();
    const answer = `## Summary\n${evaluation.companyName} scores ${evaluation.totalScore} of 100. Margins of 777% are invented.\n`;
    model.next({ steps: textSteps(answer) }, { steps: textSteps(answer) });

    const rest = await fetch(`${base}/api/stock-evaluation/ai`, {
      method: 'POST',
      headers: { cookie: alice.cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ evaluation, language: 'en' }),
    });
    const streamed = narrativeStream(await rest.text());

    const token = (
      await ctx.app.personalAccessTokens.mint(alice.userId, { name: 'agent', scopes: TOKEN_SCOPES })
    ).token;
    const client = new Client({ name: 'vitest', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/user/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = (await client.callTool({
      name: 'generateMoatNarrative',
      arguments: { evaluation, language: 'en' },
    })) as CallToolResult;
    await client.close();
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const mcp = result.structuredContent as Record<string, unknown>;

    expect(streamed.markdown).toBe(answer.replace('777%', '777% [⚠]'));
    expect(mcp.markdown).toBe(streamed.markdown);
    expect(mcp).toMatchObject({ generator: 'model', model: 'fake-narrator' });
    expect(mcp.grounding).toEqual(streamed.done?._grounding);
    expect(streamed.done?._grounding.ungrounded.map((u) => u.value)).toContain(777);
    const [first, second] = model.server.requests.slice(-2);
    // The same prompt, up to the random boundary that fences the data (spotlighting).
    const prompt = (body: unknown) =>
      JSON.stringify(body).replace(/DATA [0-9a-f]{12}/g, 'DATA <boundary>');
    expect(prompt(second?.body.messages)).toBe(prompt(first?.body.messages));
    const usage = await ctx.quotas.usage(alice.userId, 'free');
    expect(usage.find((q) => q.name === 'ai_consult')?.used).toBe(2);
  });
});
