import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from './database.js';
import { isDatabaseUnavailable } from './errors.js';
import {
  findPostgresBinDir,
  startThrowawayCluster,
  type ThrowawayCluster,
} from './throwaway-cluster.js';

const binDir = await findPostgresBinDir();

/** Runs `count` queries at once, so the pool opens (and keeps) that many connections. */
async function warm(database: Database, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, () => sql`select pg_sleep(0.05)`.execute(database.db)),
  );
}

const now = async (database: Database) =>
  (await sql<{ one: number }>`select 1 as one`.execute(database.db)).rows[0]?.one;

describe.skipIf(binDir === undefined)('a PostgreSQL pool over a server that restarts', () => {
  let cluster: ThrowawayCluster;
  let database: Database;
  const reported: Error[] = [];

  beforeAll(async () => {
    cluster = await startThrowawayCluster({ binDir });
    database = await createDatabase({
      databaseUrl: cluster.url,
      pool: { max: 4, connectionTimeoutMillis: 1_000, statementTimeoutMillis: 2_000 },
      onConnectionError: (error) => reported.push(error),
    });
  });
  afterAll(async () => {
    await database?.close();
    await cluster?.destroy();
  });

  it('reports idle connections terminated by a stop, fails fast while down, then reconnects', async () => {
    await warm(database, 4);
    await cluster.stop();
    // the terminated idle connections are reported (57P01), never thrown at the process
    await expect.poll(() => reported.length).toBeGreaterThan(0);
    expect(reported.some((error) => isDatabaseUnavailable(error))).toBe(true);

    const started = Date.now();
    const failure = await now(database).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);

    await cluster.start();
    expect(await now(database)).toBe(1);
    await warm(database, 4);
  });

  it('applies the statement timeout to every connection (57014, classed as unavailable)', async () => {
    const failure = await sql`select pg_sleep(5)`.execute(database.db).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnavailable(failure)).toBe(true);
    const { rows } = await sql<{
      value: string;
    }>`select current_setting('statement_timeout') as value`.execute(database.db);
    expect(rows[0]?.value).toBe('2s');
  });

  it('survives a connection terminated while checked out between two queries', async () => {
    const failure = await database.db
      .transaction()
      .execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // another connection terminates this one while it is idle inside the transaction
        await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(database.db);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await sql`select 1`.execute(trx);
      })
      .catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(await now(database)).toBe(1);
  });
});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['admin shutdown', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'starting up',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['connection exception', Object.assign(new Error('x'), { code: '08006' })],
    ['refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['lost', new Error('Connection terminated unexpectedly')],
    ['wrapped', new Error('outer', { cause: Object.assign(new Error('x'), { code: 'EPIPE' }) })],
    ['aggregate', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', Object.assign(new Error('dup'), { code: '23505' })],
    ['NUL byte', Object.assign(new Error('invalid byte sequence'), { code: '22021' })],
    ['syntax', Object.assign(new Error('syntax'), { code: '42601' })],
    ['plain', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
