import { MoatEvaluation } from '@svc/schemas';
import { textSteps } from '@svc/service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModel, narrativeStream, parseSse, startFakeModel } from './ai-support.js';
import { createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

async function evaluationOf(ctx: TestContext, cookie: string, symbol: string) {
  const res = await ctx.app.inject({
    url: `/api/stock-evaluation?symbol=${symbol}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(200);
  return MoatEvaluation.parse(res.json());
}

describe('POST /api/stock-evaluation/ai without a model (the offline template)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      env: { QUOTA_LIMITS: '{"free":{"ai_consult":{"limit":2}}}' },
    });
  });
  afterAll(() => ctx.close());

  it('streams the template as JSON string chunks, then done; 429 with the quota once used up', async () => {
    const { cookie, userId } = await registerUser(ctx.app, 'narrative-offline@example.com');
    const evaluation = await evaluationOf(ctx, cookie, 'AAPL');
    const ask = (language?: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/stock-evaluation/ai',
        headers: { cookie, ...ORIGIN },
        payload: { evaluation, ...(language ? { language } : {}) },
      });
    const res = await ask();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    const { markdown, done } = narrativeStream(res.body);
    for (const part of ['## Summary', '## Strengths', '## Risks', '## Valuation']) {
      expect(markdown).toContain(part);
    }
    expect(markdown).toContain(evaluation.verdict);
    expect(done?.model).toBe('offline');

    const german = narrativeStream((await ask('de')).body);
    expect(german.markdown).toContain('## Zusammenfassung');

    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({
      code: 'quota_exceeded',
      quota: { name: 'ai_consult', limit: 2, used: 2 },
    });
    const usage = await ctx.quotas.usage(userId, 'free');
    expect(usage.find((q) => q.name === 'ai_consult')?.used).toBe(2);
  });

  it('answers 400 for a body that is not an evaluation, 401 without a session', async () => {
    const { cookie } = await registerUser(ctx.app, 'narrative-bad@example.com');
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: { cookie, ...ORIGIN },
      payload: { evaluation: { symbol: 'AAPL' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: ORIGIN,
      payload: { evaluation: {} },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('POST /api/stock-evaluation/ai with a model (fake OpenAI-compatible server on loopback)', () => {
  let ctx: TestContext;
  let model: FakeModel;
  let cookie: string;
  let userId: string;
  let evaluation: MoatEvaluation;

  const used = async () =>
    (await ctx.quotas.usage(userId, 'free')).find((q) => q.name === 'ai_consult')?.used;
  const ask = () =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/stock-evaluation/ai',
      headers: { cookie, ...ORIGIN },
      payload: { evaluation, language: 'en' },
    });

  beforeAll(async () => {
    model = await startFakeModel();
    ctx = await createTestContext({ env: { ...model.env, SSE_HEARTBEAT_SECONDS: '0.2' } });
    ({ cookie, userId } = await registerUser(ctx.app, 'narrative-model@example.com'));
    evaluation = await evaluationOf(ctx, cookie, 'AAPL');
  });
  afterAll(async () => {
    await ctx.close();
    await model.server.close();
  });

  it("sends the evaluation's numbers to the model and reports an invented figure", async () => {
    const score = String(evaluation.totalScore);
    model.next({
      steps: textSteps(
        `## Summary\n${evaluation.companyName} scores ${score} of ${evaluation.maxScore}. ROIC 812% is exceptional.\n`,
      ),
    });
    const res = await ask();
    expect(res.statusCode).toBe(200);
    const { markdown, done } = narrativeStream(res.body);
    expect(markdown).toContain(`scores ${score} of`);
    expect(done?.model).toBe('fake-narrator');
    expect(done?._grounding.ungrounded.map((u) => u.value)).toContain(812);
    expect(done?._grounding.ungrounded.map((u) => u.value)).not.toContain(evaluation.totalScore);

    const request = model.server.requests.at(-1);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body.model).toBe('fake-narrator');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    const prompt = JSON.stringify(request?.body.messages);
    expect(prompt).toContain(evaluation.symbol);
    expect(prompt).toContain(score);
    for (const criterion of evaluation.criteria.slice(0, 3))
      expect(prompt).toContain(criterion.name);
    expect(await used()).toBe(1);
  });

  it('gives the unit back when the model fails before any output (event: error, 503 problem)', async () => {
    const before = await used();
    model.next({ status: 500 });
    const { markdown, error } = narrativeStream((await ask()).body);
    expect(markdown).toBe('');
    expect(error).toMatchObject({ code: 'upstream_unavailable', status: 503 });
    expect(await used()).toBe(before);
  });

  it('keeps the unit and ends with event: error when the model breaks mid-stream', async () => {
    const before = await used();
    const pieces = ['## Summary\n', 'The company ', 'has ', 'a moat.'];
    model.next({ steps: [...textSteps(pieces).slice(0, 4), { delayMs: 100 }, { drop: true }] });
    const { markdown, error } = narrativeStream((await ask()).body);
    expect(markdown).toContain('## Summary');
    expect(error?.code).toBe('upstream_unavailable');
    expect(await used()).toBe((before ?? 0) + 1);
  });

  it('writes a heartbeat comment while the model is silent', async () => {
    model.next({ steps: [{ delayMs: 700 }, ...textSteps('## Summary\nLate.\n')] });
    const res = await ask();
    const { comments } = parseSse(res.body);
    expect(comments.map((c) => c.trim())).toContain('heartbeat');
    expect(narrativeStream(res.body).done).toBeDefined();
  });

  it('aborts the model request when the client disconnects (real socket)', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address() as { port: number };
    const closedBefore = model.server.closedConnections;
    model.next({ steps: [...textSteps(['## Summary\n']).slice(0, 2), { hang: true }] });
    const client = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}/api/stock-evaluation/ai`, {
      method: 'POST',
      headers: { cookie, ...ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ evaluation }),
      signal: client.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('data: "## Summary');
    client.abort();
    await model.server.waitForClosedConnections(closedBefore + 1);
    expect(model.server.closedConnections).toBe(closedBefore + 1);
  });
});
