import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, openRuntime, type Runtime } from '@svc/service';
import {
  createDatabase,
  findPostgresBinDir,
  startThrowawayCluster,
  type ThrowawayCluster,
} from '@svc/service/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { BASE_URL } from './helpers.js';
import { COMPANYFACTS_DIR } from './shared-data.js';

/** Hooks open databases and build apps: slow on a busy machine. */
const SLOW_HOOK_MS = 180_000;

/**
 * PostgreSQL stopped and started again under a bounded load, on a cluster of the test's own (never
 * the shared server): the service built as `server.ts` builds it (`openRuntime`, `buildApp`, a
 * real socket) keeps running, answers 503 problem+json with `Retry-After` while the database is
 * down, recovers without a restart, and loses or doubles no acknowledged write.
 */
const binDir = await findPostgresBinDir();

interface Answer {
  readonly op: 'write' | 'read' | 'evaluate' | 'screen';
  readonly started: number;
  readonly ended: number;
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly body: string;
  readonly note?: string;
}

const WORKERS = 6;
const WARM_MS = 1_500;
const OUTAGE_MS = 2_500;
const RECOVERY_MS = 3_000;
const CONNECT_TIMEOUT_MS = 1_000;

describe.skipIf(binDir === undefined)('a PostgreSQL restart under load', () => {
  let cluster: ThrowawayCluster;
  let runtime: Runtime;
  let app: FastifyInstance;
  let dataDir: string;
  let base: string;
  let cookie: string;
  let portfolioId: string;
  const warnings: string[] = [];
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => crashes.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    cluster = await startThrowawayCluster({ binDir });
    dataDir = await mkdtemp(join(tmpdir(), 'svc-outage-'));
    const config = await loadConfig(
      {
        DATABASE_URL: cluster.url,
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        DATABASE_POOL_MAX: '4',
        SESSION_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: dataDir,
        BASE_URL,
        FUNDAMENTALS_PROVIDER: 'snapshot',
        FUNDAMENTALS_SNAPSHOT_DIR: COMPANYFACTS_DIR,
        FX_PROVIDER: 'none',
        RATE_LIMIT_PER_MINUTE: '100000',
        QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":100000}}}',
        // every screener page runs its SQL: a named prepared statement, prepared again on each
        // connection the pool opens after the restart
        EVALUATION_CACHE_MEMO_SECONDS: '0',
      },
      { info: () => {}, warn: () => {} },
    );
    runtime = await openRuntime(config, { warn: (message) => warnings.push(message) });
    app = await buildApp(runtime.deps, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE_URL },
      body: JSON.stringify({ email: 'outage@example.com', password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const created = await send('POST', '/api/portfolios', { name: 'Outage' });
    expect(created.status).toBe(201);
    portfolioId = ((await created.json()) as { id: string }).id;
  }, SLOW_HOOK_MS);

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    process.off('uncaughtException', onCrash);
  });

  function send(method: 'GET' | 'POST', path: string, body?: object): Promise<Response> {
    return fetch(`${base}${path}`, {
      method,
      headers: {
        cookie,
        origin: BASE_URL,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(20_000),
    });
  }

  let sequence = 0;
  async function one(op: Answer['op']): Promise<Answer> {
    const started = Date.now();
    let note: string | undefined;
    let res: Response;
    if (op === 'write') {
      note = `outage-${sequence++}`;
      res = await send('POST', `/api/portfolios/${portfolioId}/transactions`, {
        type: 'deposit',
        amount: '10',
        currency: 'EUR',
        executedAt: '2024-01-02T00:00:00Z',
        note,
      });
    } else if (op === 'evaluate') {
      res = await send('GET', '/api/stock-evaluation?symbol=MCD&fresh=1');
    } else if (op === 'screen') {
      res = await send('GET', '/api/moat-screener?sortBy=marketCap&scoreMin=0&limit=5');
    } else {
      res = await send('GET', `/api/transactions?portfolioId=${portfolioId}&limit=5`);
    }
    return {
      op,
      started,
      ended: Date.now(),
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      retryAfter: res.headers.get('retry-after'),
      body: await res.text(),
      ...(note === undefined ? {} : { note }),
    };
  }

  /** `WORKERS` loops of write, read, write, evaluate, … until `until()` is false. */
  async function load(until: () => boolean): Promise<Answer[]> {
    const answers: Answer[] = [];
    const ops: Answer['op'][] = ['write', 'read', 'write', 'evaluate', 'screen'];
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        for (let i = worker; until(); i++) {
          answers.push(await one(ops[i % ops.length] ?? 'read'));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    return answers;
  }

  it('answers 503 with Retry-After while down, recovers by itself, keeps every acknowledged write once', async () => {
    let running = true;
    const loaded = load(() => running);
    await new Promise((resolve) => setTimeout(resolve, WARM_MS));
    await cluster.stop();
    const downAt = Date.now();
    const liveWhileDown = await fetch(`${base}/healthz`);
    const readyWhileDown = await fetch(`${base}/readyz`);
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const restartAt = Date.now();
    await cluster.start();
    await new Promise((resolve) => setTimeout(resolve, RECOVERY_MS));
    running = false;
    const answers = await loaded;
    const readyAgain = await fetch(`${base}/readyz`);

    // the probes: alive throughout, not ready while the database is down, ready again after
    expect(liveWhileDown.status).toBe(200);
    expect(readyWhileDown.status).toBe(503);
    expect(readyWhileDown.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(readyWhileDown.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(readyAgain.status).toBe(200);

    // the process lived through it, and said so in its log
    expect(crashes).toEqual([]);
    expect(warnings.some((w) => w.startsWith('database connection lost'))).toBe(true);

    // nothing reached a 500; every error is problem+json without a stack or SQL
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    for (const answer of answers.filter((a) => a.status >= 400)) {
      expect(answer.contentType).toContain('application/problem+json');
      expect(answer.body).not.toMatch(/\bat .+:\d+:\d+|select |insert into/i);
    }

    // while the server was down (from the stop until the restart began): 503s, fast
    const duringOutage = answers.filter((a) => a.started >= downAt && a.ended <= restartAt);
    expect(duringOutage.length).toBeGreaterThan(WORKERS);
    for (const answer of duringOutage) {
      expect(answer.status, answer.body).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 503, code: 'upstream_unavailable' });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(answer.ended - answer.started).toBeLessThan(CONNECT_TIMEOUT_MS + 4_000);
    }

    // recovered without a restart: the last second of the run succeeded throughout
    const tail = answers.filter(
      (a) => a.started >= Date.now() - 1_000 - 500 && a.started > restartAt,
    );
    expect(tail.length).toBeGreaterThan(0);
    for (const answer of tail) expect(answer.status, answer.body).toBeLessThan(300);
    // the screener's prepared statement works on the new connections (MCD was evaluated)
    const screened = tail.filter((a) => a.op === 'screen');
    expect(screened.length).toBeGreaterThan(0);
    for (const answer of screened) expect(JSON.parse(answer.body).total).toBeGreaterThan(0);

    // every acknowledged write is stored exactly once; nothing is stored twice
    const acknowledged = answers.filter((a) => a.op === 'write' && a.status === 201);
    expect(acknowledged.length).toBeGreaterThan(0);
    const check = await createDatabase({ databaseUrl: cluster.url });
    try {
      const { rows } = await sql<{ note: string; n: number }>`
        select note, count(*)::int as n from transactions group by note`.execute(check.db);
      const stored = new Map(rows.map((r) => [r.note, r.n]));
      for (const answer of acknowledged) expect(stored.get(answer.note ?? '')).toBe(1);
      expect([...stored.values()].filter((n) => n !== 1)).toEqual([]);

      // every quota unit paid is a fresh evaluation answered 200, and each of those paid one
      const evaluated = answers.filter((a) => a.op === 'evaluate' && a.status === 200).length;
      const usage = await sql<{ used: number }>`
        select coalesce(sum(used), 0)::int as used from quota_usage
        where quota = 'stock_evaluation'`.execute(check.db);
      expect(evaluated).toBeGreaterThan(0);
      expect(usage.rows[0]?.used).toBe(evaluated);
    } finally {
      await check.close();
    }
  }, 60_000);
});
