import type { Criterion, MoatEvaluation } from '@svc/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestDatabase, uniqueEmail } from '../test-support/backends.js';
import type { HistoryEvaluation } from './evaluation-history.js';
import { createRepositories, type Repositories } from './index.js';

const MODERATE = 'Moderate Competitive Advantage' as MoatEvaluation['verdict'];

function criterion(key: string, score: number, status: string): Criterion {
  return {
    key,
    name: key,
    score,
    maxScore: 12.5,
    status,
    value: `${score}`,
  } as unknown as Criterion;
}

function made(symbol: string, totalScore: number, margin: string): HistoryEvaluation {
  return {
    symbol,
    companyName: `${symbol} Inc.`,
    totalScore,
    maxScore: 100,
    verdict: MODERATE,
    criteria: [criterion('net_margin', 10, margin), criterion('roic', totalScore - 10, 'pass')],
    _fiscalYears: [2022, 2023, 2024],
  };
}

describe.each(backends)('change events and webhook messages on $name', (backend) => {
  let database: TestDatabase;
  let repos: Repositories;
  beforeAll(async () => {
    database = await backend.open();
    repos = createRepositories(database.db);
  });
  afterAll(() => database.cleanup());

  it('makes an event only when the verdict, the total by a point, or a status moved', async () => {
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
    const first = await repos.evaluationHistory.append(made('evnt', 60, 'pass'), {
      trigger: 'request',
      evaluatedAt: at(0),
    });
    expect(first.event).toBeUndefined();
    const small = await repos.evaluationHistory.append(made('EVNT', 60.5, 'pass'), {
      trigger: 'request',
      evaluatedAt: at(1),
    });
    expect(small.event).toBeUndefined();
    const status = await repos.evaluationHistory.append(made('EVNT', 60.5, 'warning'), {
      trigger: 'fill-cache',
      evaluatedAt: at(2),
    });
    expect(status.event?.data).toMatchObject({
      symbol: 'EVNT',
      previous: { totalScore: 60.5 },
      current: { totalScore: 60.5 },
      changes: [{ key: 'net_margin', status: { from: 'pass', to: 'warning' } }],
    });
    const filing = { accession: '0000320193-25-000079', form: '10-K', filed: '2025-10-31' };
    const point = await repos.evaluationHistory.append(made('EVNT', 61.5, 'warning'), {
      trigger: 'filing',
      evaluatedAt: at(3),
      cause: filing,
    });
    expect(point.event?.data).toMatchObject({
      filing,
      changes: [{ key: 'roic', score: { from: 50.5, to: 51.5 } }],
    });
    expect(point.trigger).toBe('filing');

    const page1 = await repos.evaluationEvents.feed({ since: at(0), limit: 1 });
    expect(page1.items.map((e) => e.id)).toEqual([status.event?.id]);
    const page2 = await repos.evaluationEvents.feed({
      since: at(0),
      limit: 1,
      ...(page1.lastSeq ? { afterSeq: page1.lastSeq } : {}),
    });
    expect(page2.items.map((e) => e.id)).toEqual([point.event?.id]);
    expect(page2.lastSeq).toBeUndefined();
    expect((await repos.evaluationEvents.feed({ since: at(3), limit: 10 })).items).toHaveLength(1);
    expect(
      (await repos.evaluationEvents.feed({ since: at(0), symbol: 'othr', limit: 10 })).items,
    ).toEqual([]);

    // One message per event for the endpoint of every symbol, none for OTHR's.
    const claimed = await repos.webhooks.claimDue(at(10), 10, 30_000);
    expect(claimed.map((m) => [m.endpointId, m.eventId, m.attempt])).toEqual([
      [all.id, status.event?.id, 1],
      [all.id, point.event?.id, 1],
    ]);
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
    await repos.evaluationHistory.append(made('EVNT', 80, 'pass'), {
      trigger: 'request',
      evaluatedAt: at(20),
    });
    expect(await repos.webhooks.claimDue(at(30), 10, 30_000)).toEqual([]);
    // Another user's id is not theirs; deleting removes the endpoint.
    const stranger = await repos.users.create({ email: uniqueEmail() });
    expect(await repos.webhooks.remove(stranger.id, all.id)).toBe(false);
    expect(await repos.webhooks.remove(user.id, all.id)).toBe(true);
    expect((await repos.webhooks.list(user.id)).map((e) => e.id)).toEqual([other.id]);
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
