import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_BODY_LIMIT_BYTES } from '../src/routes/moat-reports/index.js';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';

describe.each(ENGINES)('/api/moat-reports (%s)', (engine) => {
  let ctx: TestContext;
  let alice: string;
  let bob: string;
  let evaluation: Record<string, unknown> & { symbol: string; totalScore: number };
  let evaluationJson: string;

  const save = (cookie: string, payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/moat-reports',
      headers: { cookie, ...ORIGIN },
      payload,
    });
  const list = (cookie: string, query = '') =>
    ctx.app.inject({ url: `/api/moat-reports${query}`, headers: { cookie } });

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    ({ cookie: alice } = await registerUser(ctx.app, 'alice@example.com'));
    ({ cookie: bob } = await registerUser(ctx.app, 'bob@example.com'));
    const res = await ctx.app.inject({
      url: '/api/stock-evaluation?symbol=MCD',
      headers: { cookie: alice },
    });
    expect(res.statusCode).toBe(200);
    evaluation = res.json();
    evaluationJson = res.body;
  });
  afterAll(() => ctx.close());

  it('answers 401 on every route without a session', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const answers = await Promise.all([
      ctx.app.inject({ url: '/api/moat-reports' }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/moat-reports',
        headers: ORIGIN,
        payload: { symbol: 'MCD', evaluationJson },
      }),
      ctx.app.inject({ url: `/api/moat-reports/${id}` }),
      ctx.app.inject({ method: 'DELETE', url: `/api/moat-reports/${id}`, headers: ORIGIN }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });

  it('saves a real evaluation (201 { id }), lists it, reads it back and deletes it', async () => {
    const created = await save(alice, { symbol: 'mcd', evaluationJson, tags: [' Core ', 'core'] });
    expect(created.statusCode).toBe(201);
    expect(Object.keys(created.json())).toEqual(['id']);
    const { id } = created.json();

    const listed = await list(alice);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      {
        id,
        symbol: 'MCD',
        companyName: evaluation.companyName,
        totalScore: evaluation.totalScore,
        maxScore: evaluation.maxScore,
        verdict: evaluation.verdict,
        tags: ['core'],
        createdAt: expect.any(String),
      },
    ]);

    const detail = await ctx.app.inject({
      url: `/api/moat-reports/${id}`,
      headers: { cookie: alice },
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().evaluation).toEqual(JSON.parse(evaluationJson));

    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/moat-reports/${id}`,
      headers: { cookie: alice, ...ORIGIN },
    });
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    const gone = await ctx.app.inject({
      url: `/api/moat-reports/${id}`,
      headers: { cookie: alice },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('not_found');
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/moat-reports/${id}`,
      headers: { cookie: alice, ...ORIGIN },
    });
    expect(again.statusCode).toBe(404);
  });

  it('keeps the summary fields the client sends over the evaluation’s', async () => {
    const res = await save(alice, {
      symbol: 'MCD',
      companyName: 'My label',
      evaluationJson,
      totalScore: 1,
      maxScore: 100,
      verdict: 'No Clear Moat Detected',
    });
    const { id } = res.json();
    const detail = (
      await ctx.app.inject({ url: `/api/moat-reports/${id}`, headers: { cookie: alice } })
    ).json();
    expect(detail).toMatchObject({ companyName: 'My label', totalScore: 1 });
    expect(detail.evaluation.totalScore).toBe(evaluation.totalScore);
  });

  it('filters by tags: every listed tag must be present, case-insensitively', async () => {
    const a = (
      await save(bob, { symbol: 'MCD', evaluationJson, tags: ['Core', 'dividend'] })
    ).json().id;
    const b = (await save(bob, { symbol: 'MCD', evaluationJson, tags: ['core'] })).json().id;
    const c = (await save(bob, { symbol: 'MCD', evaluationJson })).json().id;
    const ids = async (query: string) =>
      (await list(bob, query)).json().map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([c, b, a]);
    expect(await ids('?tags=core')).toEqual([b, a]);
    expect(await ids('?tags=CORE,%20dividend')).toEqual([a]);
    expect(await ids('?tags=dividend,growth')).toEqual([]);
    expect(await ids('?tags=,')).toEqual([c, b, a]);
  });

  it("never shows or deletes another user's report", async () => {
    const { id } = (await save(alice, { symbol: 'MCD', evaluationJson, tags: ['private'] })).json();
    const { cookie: carol } = await registerUser(ctx.app, 'carol@example.com');
    expect((await list(carol)).json()).toEqual([]);
    expect((await list(carol, '?tags=private')).json()).toEqual([]);
    const peek = await ctx.app.inject({
      url: `/api/moat-reports/${id}`,
      headers: { cookie: carol },
    });
    expect(peek.statusCode).toBe(404);
    const steal = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/moat-reports/${id}`,
      headers: { cookie: carol, ...ORIGIN },
    });
    expect(steal.statusCode).toBe(404);
    const still = await ctx.app.inject({
      url: `/api/moat-reports/${id}`,
      headers: { cookie: alice },
    });
    expect(still.statusCode).toBe(200);
  });

  it('takes the evaluation as an object too, as the MCP tool does', async () => {
    const created = await save(alice, {
      symbol: 'MCD',
      evaluation: JSON.parse(evaluationJson),
      tags: ['object'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const detail = await ctx.app.inject({
      url: `/api/moat-reports/${created.json().id}`,
      headers: { cookie: alice },
    });
    expect(detail.json()).toMatchObject({
      symbol: 'MCD',
      tags: ['object'],
      evaluation: { symbol: 'MCD' },
    });
  });

  it('answers 400 with field errors when evaluationJson is not a MoatEvaluation', async () => {
    const cases: [object, RegExp][] = [
      [{ symbol: 'MCD', evaluationJson: 'not json' }, /^evaluationJson$/],
      [{ symbol: 'MCD', evaluationJson: '{"symbol":"MCD"}' }, /^evaluationJson\./],
      [
        { symbol: 'MCD', evaluationJson: JSON.stringify({ ...evaluation, verdict: 'Great' }) },
        /^evaluationJson\.verdict$/,
      ],
      [
        { symbol: 'MCD', evaluationJson: JSON.stringify({ ...evaluation, totalScore: 120 }) },
        /^evaluationJson\.totalScore$/,
      ],
      [{ symbol: 'AAPL', evaluationJson }, /^symbol$/],
      [{ symbol: 'MCD' }, /^evaluationJson$/],
      [{ symbol: 'MCD', evaluation: { symbol: 'MCD' } }, /^body\.evaluation\./],
      [{ symbol: 'MCD', evaluationJson, tags: ['x'.repeat(51)] }, /^body\.tags\.0$/],
    ];
    for (const [payload, path] of cases) {
      const res = await save(alice, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().errors.length).toBeGreaterThan(0);
      for (const error of res.json().errors) expect(error.path).toMatch(path);
    }
  });

  it('answers 413 beyond the body limit, 400 for a malformed id', async () => {
    const big = await save(alice, {
      symbol: 'MCD',
      evaluationJson: 'x'.repeat(REPORT_BODY_LIMIT_BYTES),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
    const tooLong = await save(alice, { symbol: 'MCD', evaluationJson: 'x'.repeat(200_001) });
    expect(tooLong.statusCode).toBe(400);
    const bad = await ctx.app.inject({ url: '/api/moat-reports/42', headers: { cookie: alice } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('params.id');
  });
});
