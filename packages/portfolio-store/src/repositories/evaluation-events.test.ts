import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import { insertEvaluationEvent } from './evaluation-events.js';
import { insertKeptEvaluation } from './evaluation-history.js';
import { insertOutboxEvent } from './event-outbox.js';
import { createRepositories, type Repositories } from './index.js';
import type { Executor } from './shared.js';

/** A kept evaluation and its change event (feed row and outbox row), as keepEvaluation writes them. */
async function changed(db: Executor, symbol: string, at: Date, data: Record<string, unknown> = {}) {
  return db.transaction().execute(async (trx) => {
    const kept = await insertKeptEvaluation(trx, {
      evaluation: {
        symbol,
        companyName: symbol,
        totalScore: 50,
        maxScore: 100,
        verdict: 'Moderate Competitive Advantage',
        criteria: [],
      },
      scoreChange: null,
      trigger: 'request',
      evaluatedAt: at,
    });
    const event = await insertEvaluationEvent(trx, {
      type: 'evaluation.changed',
      symbol,
      historyId: kept.id,
      data: { symbol, ...data },
      at,
    });
    await insertOutboxEvent(trx, { id: event.id, type: event.type, at, data: event.data, symbol });
    return event;
  });
}

describe.each(backends)('change events, the outbox and webhook messages on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  it('feeds events in order, relays each once to the endpoints that want it, and delivers', async () => {
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m));
    const user = await repos.users.create({ email: uniqueEmail() });
    const all = await repos.webhooks.create(user.id, {
      url: 'https://hooks.example/all',
      events: ['evaluation.changed'],
      symbols: null,
      secret: 'whsec_x',
    });
    const other = await repos.webhooks.create(user.id, {
      url: 'https://hooks.example/other',
      events: ['evaluation.changed'],
      symbols: ['OTHR'],
      secret: 'whsec_y',
    });
    const first = await changed(database.db, 'EVNT', at(2), { n: 1 });
    const second = await changed(database.db, 'EVNT', at(3), { n: 2 });
    expect(first).toMatchObject({
      type: 'evaluation.changed',
      timestamp: at(2).toISOString(),
      data: { symbol: 'EVNT', n: 1 },
    });

    const page1 = await repos.evaluationEvents.feed({ since: at(0), limit: 1 });
    expect(page1.items.map((e) => e.id)).toEqual([first.id]);
    const page2 = await repos.evaluationEvents.feed({
      since: at(0),
      limit: 1,
      ...(page1.lastSeq ? { afterSeq: page1.lastSeq } : {}),
    });
    expect(page2.items.map((e) => e.id)).toEqual([second.id]);
    expect(page2.lastSeq).toBeUndefined();
    expect((await repos.evaluationEvents.feed({ since: at(3), limit: 10 })).items).toHaveLength(1);
    expect(
      (await repos.evaluationEvents.feed({ since: at(0), symbol: 'othr', limit: 10 })).items,
    ).toEqual([]);

    // Nothing is due before the outbox is relayed; each event is relayed once.
    expect(await repos.webhooks.claimDue(at(10), 10, 30_000)).toEqual([]);
    expect(await repos.webhooks.relayOutbox(at(10), 1)).toBe(1);
    expect(await repos.webhooks.relayOutbox(at(10), 10)).toBe(1);
    expect(await repos.webhooks.relayOutbox(at(10), 10)).toBe(0);
    // One message per event for the endpoint of every symbol, none for OTHR's.
    const claimed = await repos.webhooks.claimDue(at(10), 10, 30_000);
    expect(claimed.map((m) => [m.endpointId, m.eventId, m.attempt])).toEqual([
      [all.id, first.id, 1],
      [all.id, second.id, 1],
    ]);
    expect(claimed[0]).toMatchObject({
      type: 'evaluation.changed',
      timestamp: first.timestamp,
      data: first.data,
    });
    expect(claimed.every((m) => m.endpointId !== other.id)).toBe(true);
    // Leased: not claimed again until the lease runs out.
    expect(await repos.webhooks.claimDue(at(10), 10, 30_000)).toEqual([]);
    const [m1, m2] = claimed;
    if (!m1 || !m2) throw new Error('two messages');
    await repos.webhooks.recordAttempt(m1, {
      status: 'failed',
      responseStatus: 500,
      error: null,
      at: at(10),
      nextAttemptAt: at(11),
    });
    await repos.webhooks.recordAttempt(m2, {
      status: 'succeeded',
      responseStatus: 204,
      error: null,
      at: at(10),
      nextAttemptAt: null,
    });
    const again = await repos.webhooks.claimDue(at(11), 10, 30_000);
    expect(again.map((m) => [m.messageId, m.attempt])).toEqual([[m1.messageId, 2]]);
    await repos.webhooks.recordAttempt(again[0] as (typeof again)[0], {
      status: 'disabled',
      responseStatus: 410,
      error: null,
      at: at(11),
      nextAttemptAt: null,
    });
    const log = await repos.webhooks.deliveries(all.id, { limit: 2 });
    expect(log.items.map((d) => [d.attempt, d.status, d.responseStatus])).toEqual([
      [2, 'disabled', 410],
      [1, 'succeeded', 204],
    ]);
    const rest = await repos.webhooks.deliveries(all.id, {
      limit: 2,
      ...(log.lastSeq ? { beforeSeq: log.lastSeq } : {}),
    });
    expect(rest.items.map((d) => d.status)).toEqual(['failed']);
    const listed = await repos.webhooks.list(user.id);
    expect(listed.find((e) => e.id === all.id)).toMatchObject({
      disabledAt: at(11).toISOString(),
      lastDelivery: { status: 'disabled', responseStatus: 410 },
    });
    // A disabled endpoint gets no new messages.
    await changed(database.db, 'EVNT', at(20));
    expect(await repos.webhooks.relayOutbox(at(30), 10)).toBe(1);
    expect(await repos.webhooks.claimDue(at(30), 10, 30_000)).toEqual([]);
    // Another user's id is not theirs; deleting removes the endpoint.
    const stranger = await repos.users.create({ email: uniqueEmail() });
    expect(await repos.webhooks.remove(stranger.id, all.id)).toBe(false);
    expect(await repos.webhooks.remove(user.id, all.id)).toBe(true);
    expect((await repos.webhooks.list(user.id)).map((e) => e.id)).toEqual([other.id]);
    await repos.webhooks.remove(user.id, other.id);
  });

  it("relays by a portfolio's holdings when relayed, and a user's event to that user only", async () => {
    const at = (m: number) => new Date(Date.UTC(2026, 1, 1, 0, m));
    const ann = await repos.users.create({ email: uniqueEmail() });
    const ben = await repos.users.create({ email: uniqueEmail() });
    const portfolio = await repos.portfolios.create(ann.id, { name: 'Core' });
    const hold = (symbol: string) =>
      database.db
        .insertInto('holdings')
        .values({
          user_id: ann.id,
          portfolio_id: portfolio.id,
          symbol,
          quantity: '1',
          currency: 'USD',
        })
        .execute();
    await hold('brk.b');
    const held = await repos.webhooks.create(ann.id, {
      url: 'https://hooks.example/held',
      events: ['evaluation.changed', 'portfolio.changed'],
      symbols: null,
      portfolioId: portfolio.id,
      secret: 'whsec_h',
    });
    expect(held.portfolioId).toBe(portfolio.id);
    const bens = await repos.webhooks.create(ben.id, {
      url: 'https://hooks.example/ben',
      events: ['evaluation.changed', 'portfolio.changed'],
      symbols: null,
      secret: 'whsec_b',
    });
    const brk = await changed(database.db, 'BRK-B', at(1));
    // MNST is bought after its event was made but before it is relayed: relayed by what is held then.
    const mnst = await changed(database.db, 'MNST', at(2));
    await hold('MNST');
    const ko = await changed(database.db, 'KO', at(3));
    // A private event of Ann's (the next kinds of event): never to another user's endpoint.
    const mine = crypto.randomUUID();
    await database.db.transaction().execute((trx) =>
      insertOutboxEvent(trx, {
        id: mine,
        type: 'portfolio.changed',
        at: at(4),
        data: { portfolioId: portfolio.id },
        userId: ann.id,
        symbol: 'MNST',
      }),
    );
    await repos.webhooks.relayOutbox(at(10), 100);
    const claimed = await repos.webhooks.claimDue(at(10), 100, 30_000);
    const to = (endpointId: string) =>
      claimed.filter((m) => m.endpointId === endpointId).map((m) => m.eventId);
    expect(new Set(to(held.id))).toEqual(new Set([brk.id, mnst.id, mine]));
    expect(new Set(to(bens.id))).toEqual(new Set([brk.id, mnst.id, ko.id]));
    expect(claimed.find((m) => m.eventId === mine)).toMatchObject({
      type: 'portfolio.changed',
      timestamp: at(4).toISOString(),
      data: { portfolioId: portfolio.id },
    });
    // The endpoint goes with its portfolio.
    expect(await repos.portfolios.delete(ann.id, portfolio.id)).toBe(true);
    expect(await repos.webhooks.list(ann.id)).toEqual([]);
  });

  it('keeps a per-day cursor and leases each found filing to one process', async () => {
    const sec = repos.secRefresh;
    const now = new Date('2026-03-01T00:00:00Z');
    await sec.addDays(['2025-10-30', '2025-10-31']);
    await sec.addDays(['2025-10-31']);
    expect(await sec.latestDay()).toBe('2025-10-31');
    await sec.dayMissing('2025-10-30', 404, now);
    const filing = {
      accession: '0000320193-25-000079',
      cik: '320193',
      symbol: 'AAPL',
      form: '10-K',
      filed: '2025-10-31',
    };
    await sec.dayRead('2025-10-31', [filing], now);
    await sec.dayRead('2025-10-31', [filing], now); // read twice: one filing
    expect(await sec.settleDay('2025-10-31', now)).toBe(false);
    const leased = await sec.leaseFiling(now, 60_000);
    expect(leased).toMatchObject({ ...filing, day: '2025-10-31', attempts: 1 });
    expect(await sec.leaseFiling(now, 60_000)).toBeUndefined();
    // The holder died: taken again once the lease ran out.
    const later = new Date(now.getTime() + 61_000);
    expect(await sec.leaseFiling(later, 60_000)).toMatchObject({ attempts: 2 });
    await sec.settleFiling(filing.accession, 'AAPL', { state: 'done' }, later);
    expect(await sec.settleDay('2025-10-31', later)).toBe(true);
    expect((await sec.pendingDays()).map((d) => [d.day, d.attempts, d.lastStatus])).toEqual([
      ['2025-10-30', 1, 404],
    ]);
    // The shared budget spaces slots by the interval.
    const waits = [];
    for (let i = 0; i < 3; i++) waits.push(await sec.takeSecSlot(1000));
    expect(waits[0]).toBe(0);
    expect(waits[2]).toBeGreaterThan(1000);
  });
});
