import { createWebhookTransport } from '@svc/service';
import {
  type FundamentalsProvider,
  startWebhookReceiver,
  type WebhookReceiver,
} from '@svc/service/testing';
import {
  createWebhookDispatcher,
  EvaluationChangesPage,
  WebhookDeliveriesPage,
} from '@svc/use-cases';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  ENGINES,
  ORIGIN,
  registerUser,
  snapshotProvider,
  type TestContext,
} from './helpers.js';

/** The real companyfacts; while `truncated`, without each company's latest fiscal year. */
function switchableProvider() {
  const state = { truncated: true };
  const provider: FundamentalsProvider = {
    name: snapshotProvider.name,
    async getFundamentals(ticker, options) {
      const full = await snapshotProvider.getFundamentals(ticker, options);
      return state.truncated ? { ...full, years: full.years.slice(0, -1) } : full;
    },
  };
  return { provider, state };
}

describe.each(ENGINES)('change events, the feed and webhooks (%s)', (engine) => {
  let ctx: TestContext;
  let hooks: WebhookReceiver;
  const source = switchableProvider();
  const inject = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    cookie: string,
    payload?: object,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { cookie, ...ORIGIN },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    ctx = await createTestContext({
      engine,
      fundamentals: source.provider,
      env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    hooks = await startWebhookReceiver();
  });
  afterAll(async () => {
    await hooks.close();
    await ctx.close();
  });

  it('makes an event for a changed evaluation, feeds it, and delivers it signed, at least once', async () => {
    const alice = await registerUser(ctx.app, `hook-alice-${engine}@example.com`);
    const bob = await registerUser(ctx.app, `hook-bob-${engine}@example.com`);
    const created = await inject('POST', '/api/account/webhooks', alice.cookie, {
      url: hooks.url('/flaky'),
      events: ['evaluation.changed'],
    });
    expect(created.statusCode).toBe(201);
    const endpoint = created.json();
    expect(endpoint.secret).toMatch(/^whsec_/);
    const gone = (
      await inject('POST', '/api/account/webhooks', alice.cookie, {
        url: hooks.url('/gone'),
        events: ['evaluation.changed'],
        symbols: ['aapl'],
      })
    ).json();
    expect(gone.symbols).toEqual(['AAPL']);
    const moved = (
      await inject('POST', '/api/account/webhooks', bob.cookie, {
        url: hooks.url('/moved'),
        events: ['evaluation.changed'],
        symbols: ['AAPL'],
      })
    ).json();

    const since = new Date().toISOString();
    source.state.truncated = true;
    const before = (await inject('GET', '/api/stock-evaluation?symbol=AAPL', alice.cookie)).json();
    await inject('GET', '/api/stock-evaluation?symbol=MA', alice.cookie);
    source.state.truncated = false;
    const after = (
      await inject('GET', '/api/stock-evaluation?symbol=AAPL&fresh=1', alice.cookie)
    ).json();
    // MA's latest year moves no status and its total by less than a point: no event.
    await inject('GET', '/api/stock-evaluation?symbol=MA&fresh=1', alice.cookie);
    expect(Math.abs(after.totalScore - before.totalScore)).toBeGreaterThanOrEqual(1);

    const feed = await inject(
      'GET',
      `/api/stock-evaluation/changes?since=${encodeURIComponent(since)}`,
      bob.cookie,
    );
    expect(feed.statusCode).toBe(200);
    const page = EvaluationChangesPage.parse(feed.json());
    expect(page.nextCursor).toBeNull();
    expect(page.items).toHaveLength(1);
    const event = page.items[0];
    expect(event).toMatchObject({
      type: 'evaluation.changed',
      data: {
        symbol: 'AAPL',
        previous: { totalScore: before.totalScore, verdict: before.verdict },
        current: { totalScore: after.totalScore, fiscalYears: after._fiscalYears },
      },
    });
    expect(event?.data.filing).toBeUndefined();
    // a company change (new figures on a request), not a method change
    expect(event?.data.cause).toBe('data');
    expect(event?.data.current.methodologyVersion).toEqual(expect.any(String));

    const dispatcher = createWebhookDispatcher({
      webhooks: ctx.repos.webhooks,
      transport: createWebhookTransport({ allowPrivate: true }),
      retryDelaysMs: [0, 0],
    });
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 3, failed: 2, disabled: 1 });
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 2, succeeded: 1, failed: 1 });
    // The redirecting endpoint's last attempt (no delay left): failed for good.
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 1, failed: 1 });
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 0 });

    // The flaky endpoint got the same message twice (500, then 204), signed with its secret.
    const flaky = hooks.received.filter((r) => r.path === '/flaky');
    expect(flaky).toHaveLength(2);
    for (const delivery of flaky) {
      expect(delivery.headers['webhook-id']).toBe(event?.id);
      const verified = new Webhook(endpoint.secret).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      );
      expect(verified).toEqual({
        type: 'evaluation.changed',
        timestamp: event?.timestamp,
        data: event?.data,
      });
    }
    expect(() =>
      new Webhook(gone.secret).verify(
        flaky[0]?.body ?? '',
        flaky[0]?.headers as Record<string, string>,
      ),
    ).toThrow();
    // The redirect was not followed: /moved was asked 3 times, /flaky only by its own endpoint.
    expect(hooks.received.filter((r) => r.path === '/moved')).toHaveLength(3);

    const log = await inject(
      'GET',
      `/api/account/webhooks/${endpoint.id}/deliveries`,
      alice.cookie,
    );
    expect(log.statusCode).toBe(200);
    const attempts = WebhookDeliveriesPage.parse(log.json());
    expect(attempts.items.map((d) => [d.attempt, d.status, d.responseStatus, d.eventId])).toEqual([
      [2, 'succeeded', 204, event?.id],
      [1, 'failed', 500, event?.id],
    ]);
    const first = await inject(
      'GET',
      `/api/account/webhooks/${endpoint.id}/deliveries?limit=1`,
      alice.cookie,
    );
    const next = first.json().nextCursor;
    expect(next).toEqual(expect.any(String));
    const second = await inject(
      'GET',
      `/api/account/webhooks/${endpoint.id}/deliveries?limit=1&cursor=${next}`,
      alice.cookie,
    );
    expect(second.json().items.map((d: { attempt: number }) => d.attempt)).toEqual([1]);

    const listed = (await inject('GET', '/api/account/webhooks', alice.cookie)).json();
    expect(listed.map((e: { id: string }) => e.id)).toEqual([gone.id, endpoint.id]);
    expect(listed[0]).toMatchObject({
      disabledAt: expect.any(String),
      lastDelivery: { status: 'disabled', responseStatus: 410 },
    });
    expect(listed[1]).toMatchObject({
      disabledAt: null,
      lastDelivery: { status: 'succeeded', responseStatus: 204 },
    });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const movedLog = (
      await inject('GET', `/api/account/webhooks/${moved.id}/deliveries`, bob.cookie)
    ).json();
    expect(movedLog.items[0]).toMatchObject({
      attempt: 3,
      status: 'failed',
      responseStatus: 302,
      nextAttemptAt: null,
    });

    // Another user's endpoint is not found, to read or to delete.
    expect(
      (await inject('GET', `/api/account/webhooks/${endpoint.id}/deliveries`, bob.cookie))
        .statusCode,
    ).toBe(404);
    expect(
      (await inject('DELETE', `/api/account/webhooks/${endpoint.id}`, bob.cookie)).statusCode,
    ).toBe(404);
    expect(
      (await inject('DELETE', `/api/account/webhooks/${endpoint.id}`, alice.cookie)).statusCode,
    ).toBe(204);
    expect(
      (await inject('DELETE', `/api/account/webhooks/${endpoint.id}`, alice.cookie)).statusCode,
    ).toBe(404);
  });

  it('checks the address again at delivery', async () => {
    const carol = await registerUser(ctx.app, `hook-carol-${engine}@example.com`);
    const created = (
      await inject('POST', '/api/account/webhooks', carol.cookie, {
        url: hooks.url('/flaky'),
        events: ['evaluation.changed'],
        symbols: ['JNJ'],
      })
    ).json();
    source.state.truncated = true;
    await inject('GET', '/api/stock-evaluation?symbol=JNJ&fresh=1', carol.cookie);
    source.state.truncated = false;
    await inject('GET', '/api/stock-evaluation?symbol=JNJ&fresh=1', carol.cookie);
    const strict = createWebhookDispatcher({
      webhooks: ctx.repos.webhooks,
      transport: createWebhookTransport({ allowPrivate: false }),
      retryDelaysMs: [],
    });
    const calls = hooks.received.length;
    expect(await strict.runDue()).toMatchObject({ attempted: 1, failed: 1 });
    expect(hooks.received.length).toBe(calls);
    const log = (
      await inject('GET', `/api/account/webhooks/${created.id}/deliveries`, carol.cookie)
    ).json();
    expect(log.items[0]).toMatchObject({
      status: 'failed',
      responseStatus: null,
      nextAttemptAt: null,
      error: expect.stringContaining('loopback'),
    });
  });

  it('retries an attempt that got no answer within the timeout', async () => {
    const frank = await registerUser(ctx.app, `hook-frank-${engine}@example.com`);
    const created = (
      await inject('POST', '/api/account/webhooks', frank.cookie, {
        url: hooks.url('/slow'),
        events: ['evaluation.changed'],
        symbols: ['KR'],
      })
    ).json();
    source.state.truncated = true;
    await inject('GET', '/api/stock-evaluation?symbol=KR&fresh=1', frank.cookie);
    source.state.truncated = false;
    await inject('GET', '/api/stock-evaluation?symbol=KR&fresh=1', frank.cookie);
    const dispatcher = createWebhookDispatcher({
      webhooks: ctx.repos.webhooks,
      transport: createWebhookTransport({ allowPrivate: true }),
      timeoutMs: 300,
      retryDelaysMs: [60_000],
    });
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 1, failed: 1 });
    const log = (
      await inject('GET', `/api/account/webhooks/${created.id}/deliveries`, frank.cookie)
    ).json();
    expect(log.items).toEqual([
      expect.objectContaining({
        attempt: 1,
        status: 'failed',
        responseStatus: null,
        error: 'no answer within 300 ms',
        nextAttemptAt: expect.any(String),
      }),
    ]);
    // Not due yet: the retry waits for its backoff.
    expect(await dispatcher.runDue()).toMatchObject({ attempted: 0 });
  });

  it('limits a subscription to what a portfolio holds when each event is relayed', async () => {
    const gina = await registerUser(ctx.app, `hook-gina-${engine}@example.com`);
    const hank = await registerUser(ctx.app, `hook-hank-${engine}@example.com`);
    const portfolio = (
      await inject('POST', '/api/portfolios', gina.cookie, { name: 'Held' })
    ).json();
    const trade = (type: 'buy' | 'sell', symbol: string) =>
      inject('POST', `/api/portfolios/${portfolio.id}/transactions`, gina.cookie, {
        type,
        symbol,
        quantity: '3',
        price: '150',
        currency: 'USD',
        executedAt: type === 'buy' ? '2024-01-02T15:00:00Z' : '2024-03-01T15:00:00Z',
      });
    expect((await trade('buy', 'jnj')).statusCode).toBe(201);
    // Another user's portfolio is not found, and nothing is registered.
    const foreign = await inject('POST', '/api/account/webhooks', hank.cookie, {
      url: hooks.url('/held'),
      events: ['evaluation.changed'],
      portfolioId: portfolio.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('not_found');
    expect((await inject('GET', '/api/account/webhooks', hank.cookie)).json()).toEqual([]);
    const created = await inject('POST', '/api/account/webhooks', gina.cookie, {
      url: hooks.url('/held'),
      events: ['evaluation.changed'],
      portfolioId: portfolio.id,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ portfolioId: portfolio.id, symbols: null });
    expect((await inject('GET', '/api/account/webhooks', gina.cookie)).json()).toMatchObject([
      { id: created.json().id, portfolioId: portfolio.id },
    ]);

    for (const symbol of ['JNJ', 'KR']) {
      source.state.truncated = !source.state.truncated;
      await inject('GET', `/api/stock-evaluation?symbol=${symbol}&fresh=1`, gina.cookie);
      source.state.truncated = !source.state.truncated;
      await inject('GET', `/api/stock-evaluation?symbol=${symbol}&fresh=1`, gina.cookie);
    }
    // After the events were made, before they are relayed: KR bought, JNJ sold.
    expect((await trade('buy', 'KR')).statusCode).toBe(201);
    expect((await trade('sell', 'jnj')).statusCode).toBe(201);
    const dispatcher = createWebhookDispatcher({
      webhooks: ctx.repos.webhooks,
      transport: createWebhookTransport({ allowPrivate: true }),
      timeoutMs: 1_000,
      retryDelaysMs: [],
    });
    expect((await dispatcher.runDue()).relayed).toBeGreaterThanOrEqual(2);
    const held = hooks.received
      .filter((r) => r.path === '/held')
      .map((r) => JSON.parse(r.body).data);
    expect(held.length).toBeGreaterThanOrEqual(1);
    expect(new Set(held.map((d) => d.symbol))).toEqual(new Set(['KR']));
  });

  it('answers clear problems for bad input', async () => {
    const dave = await registerUser(ctx.app, `hook-dave-${engine}@example.com`);
    const cases: [string, number][] = [
      ['/api/stock-evaluation/changes', 400],
      ['/api/stock-evaluation/changes?since=yesterday', 400],
      ['/api/stock-evaluation/changes?cursor=nope', 400],
      ['/api/stock-evaluation/changes?since=2026-01-01T00:00:00Z&limit=101', 400],
      ['/api/account/webhooks/not-a-uuid/deliveries', 400],
      [`/api/account/webhooks/${crypto.randomUUID()}/deliveries`, 404],
    ];
    for (const [url, status] of cases) {
      const res = await inject('GET', url, dave.cookie);
      expect(res.statusCode, url).toBe(status);
      expect(res.json().code, url).toBe(status === 400 ? 'validation_failed' : 'not_found');
    }
    for (const payload of [
      { url: 'ftp://example.com/x', events: ['evaluation.changed'] },
      { url: hooks.url('/flaky'), events: [] },
      { url: hooks.url('/flaky'), events: ['evaluation.deleted'] },
      { url: hooks.url('/flaky'), events: ['evaluation.changed'], symbols: ['$$'] },
      { url: hooks.url('/flaky'), events: ['evaluation.changed'], portfolioId: 'not-a-uuid' },
      { url: 'http://does-not-resolve.invalid/', events: ['evaluation.changed'] },
    ]) {
      const res = await inject('POST', '/api/account/webhooks', dave.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const anonymous = await ctx.app.inject({
      url: '/api/stock-evaluation/changes?since=2026-01-01T00:00:00Z',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('webhook URLs without WEBHOOK_ALLOW_PRIVATE', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ engine: 'pglite' });
  });
  afterAll(() => ctx.close());

  it('refuses loopback, private and link-local addresses with 400', async () => {
    const { cookie } = await registerUser(ctx.app, 'hook-erin@example.com');
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/webhooks',
        headers: { cookie, ...ORIGIN },
        payload: { url, events: ['evaluation.changed'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'url' }],
      });
    }
  });
});
