import { createTestBackends, type TestDatabase } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_QUEUE, startJobs } from './jobs.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

describe.each(backends)('jobs on pg-boss over $name', (backend) => {
  let database: TestDatabase;
  const schema = `pgboss_${Math.random().toString(36).slice(2, 10)}`;
  beforeAll(async () => {
    database = await backend.open();
  }, 60_000);
  afterAll(async () => {
    await database.pool.query(`drop schema if exists ${schema} cascade`);
    await database.cleanup();
  });

  it('keeps the refresh schedule once however many processes start, and works a queued pass', async () => {
    const calls: (string | undefined)[] = [];
    const start = () =>
      startJobs({
        pool: database.pool,
        schema,
        refreshSchedule: '30 6 * * *',
        refresh: async (date) => {
          calls.push(date);
        },
        pollingIntervalSeconds: 0.5,
      });
    const first = await start();
    const second = await start(); // a second process on the same database
    try {
      const schedules = await first.boss.getSchedules();
      expect(schedules.map((s) => [s.name, s.cron, s.timezone])).toEqual([
        [REFRESH_QUEUE, '30 6 * * *', 'UTC'],
      ]);
      expect(await first.queueRefresh('2025-10-31')).toEqual(expect.any(String));
      await expect.poll(() => calls, { timeout: 15_000, interval: 100 }).toEqual(['2025-10-31']);
    } finally {
      await second.stop();
      await first.stop();
    }
    expect(calls).toEqual(['2025-10-31']); // worked by one of them, once

    // a process that cannot run a pass (no SEC_USER_AGENT) leaves the shared schedule alone
    const unable = await startJobs({ pool: database.pool, schema, refreshSchedule: undefined });
    try {
      expect((await unable.boss.getSchedules()).map((s) => s.name)).toEqual([REFRESH_QUEUE]);
    } finally {
      await unable.stop();
    }
    const off = await startJobs({ pool: database.pool, schema, refreshSchedule: null });
    try {
      expect(await off.boss.getSchedules()).toEqual([]);
    } finally {
      await off.stop();
    }
  }, 60_000);

  it('stops within the timeout it is given while a pass hangs (a close must fit the shutdown grace)', async () => {
    let started = false;
    let finished = false;
    const jobs = await startJobs({
      pool: database.pool,
      schema,
      refreshSchedule: undefined,
      refresh: async () => {
        started = true;
        await new Promise((resolve) => setTimeout(resolve, 40_000).unref());
        finished = true;
      },
      pollingIntervalSeconds: 0.5,
    });
    await jobs.queueRefresh('2025-11-01');
    await expect.poll(() => started, { timeout: 15_000, interval: 100 }).toBe(true);
    await jobs.stop(1_000); // pg-boss's default (and the old fixed wait) is 30 s: the test's limit is 25 s
    expect(finished).toBe(false);
  }, 25_000);
});
