/**
 * Issue 10: a broker import killed with SIGKILL midway leaves the portfolio fully imported or not
 * at all (its transactions, holdings and cash are written in one database transaction), and the
 * import can simply be run again. PostgreSQL only: the embedded database belongs to one process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, type TestDatabase, uniqueEmail } from '@svc/portfolio-store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortfolioService } from '../src/portfolio/portfolio-service.js';

const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });
const postgres = backends.find((backend) => backend.name === 'postgres');
const databaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = 10_000;

/** A Ghostfolio CSV of `rows` trades over 20 symbols, every fourth row selling one share. */
function ghostfolioCsv(rows: number): string {
  const lines = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const sell = i % 4 === 3;
    const symbol = `SYM${(sell ? i - 1 : i) % 20}`;
    lines.push(`${day},${symbol},YAHOO,USD,${100 + (i % 7)},${sell ? '1,sell' : '2,buy'},1,`);
  }
  return lines.join('\n');
}

describe.runIf(postgres)('a broker import killed with SIGKILL midway', () => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).open();
    dir = await mkdtemp(join(tmpdir(), 'svc-import-kill-'));
  });
  afterAll(async () => {
    await database.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves nothing of it, and the import runs again in full', async () => {
    const repos = createRepositories(database.db);
    const service = createPortfolioService({
      db: database.db,
      quotes: null,
      fx: null,
      now: () => new Date('2024-03-01T22:00:00Z'),
    });
    const user = await repos.users.create({ email: uniqueEmail('kill') });
    const portfolio = await service.createPortfolio(user.id, { name: 'Killed' });
    const file = join(dir, 'trades.csv');
    const text = ghostfolioCsv(ROWS);
    await writeFile(file, text);

    const url = new URL(databaseUrl);
    url.searchParams.set('application_name', `svc_import_kill_${portfolio.id.slice(0, 8)}`);
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(import.meta.dirname, 'support/import-child.ts')],
      {
        env: {
          ...process.env,
          DATABASE_URL: url.toString(),
          SCHEMA: database.schema ?? '',
          USER_ID: user.id,
          PORTFOLIO_ID: portfolio.id,
          CSV_FILE: file,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.once('exit', (_code, signal) => done(signal)),
    );

    // Kill it once its import transaction has begun writing (it holds a transaction id).
    const inTransaction = async () => {
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where application_name = $1 and xact_start is not null and backend_xid is not null`,
        [url.searchParams.get('application_name')],
      );
      return (rows[0]?.n ?? 0) > 0;
    };
    await expect.poll(inTransaction, { timeout: 60_000, interval: 2 }).toBe(true);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(output).not.toContain('imported');

    // Nothing of it is left: no transaction, no holding, no cash.
    const count = async (table: 'transactions' | 'holdings' | 'cash_positions') => {
      const row = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('portfolio_id', '=', portfolio.id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    await expect.poll(() => count('transactions'), { timeout: 10_000 }).toBe(0);
    expect(await count('holdings')).toBe(0);
    expect(await count('cash_positions')).toBe(0);

    // The same import again: all of it, once; a third time adds nothing.
    const again = await service.importBrokerCsv(user.id, portfolio.id, text);
    expect(again.imported).toBe(ROWS);
    expect(await count('transactions')).toBe(ROWS);
    expect(await count('holdings')).toBeGreaterThan(0);
    const third = await service.importBrokerCsv(user.id, portfolio.id, text);
    expect(third.imported).toBe(0);
    expect(await count('transactions')).toBe(ROWS);
  }, 180_000);
});
