// Store benchmarks on PGlite and (when reachable) PostgreSQL: a 5 000-row broker import in one
// transaction, and screener pages / meta over 5 000 cached evaluations.
// Usage: pnpm --filter @svc/portfolio-store bench   (BENCH_DATABASE_URL or TEST_DATABASE_URL)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import {
  createDatabase,
  createLedgerWrites,
  createRepositories,
  migrateToLatest,
} from '../dist/index.js';

const url =
  process.env.BENCH_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/test';
const ROWS = 5000;
const VERDICTS = [
  'Strong Durable Competitive Advantage',
  'Moderate Competitive Advantage',
  'Narrow Moat — Proceed with Caution',
  'No Clear Moat Detected',
];
const SECTORS = ['Tech', 'Staples', 'Energy', 'Health', 'Industrials', 'Financials'];

async function time(fn, repeat = 1) {
  const t = performance.now();
  for (let i = 0; i < repeat; i++) await fn(i);
  return (performance.now() - t) / repeat;
}

async function run(label, database) {
  await migrateToLatest(database.db);
  const repos = createRepositories(database.db);
  const user = await repos.users.create({
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
  });
  const portfolio = await repos.portfolios.create(user.id, { name: 'Bench' });
  const txs = Array.from({ length: ROWS }, (_, i) => ({
    type: i % 2 ? 'buy' : 'sell',
    symbol: `SYM${i % 200}`,
    quantity: String(1 + (i % 17)),
    price: `${100 + (i % 50)}.1234`,
    fee: '0.99',
    currency: 'USD',
    executedAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000),
  }));
  // one unit of work, as the import flow runs it: lock the portfolio, write rows and journal
  const importMs = await time(() =>
    database.db.transaction().execute(async (trx) => {
      await createRepositories(trx).portfolios.lockForUpdate(user.id, portfolio.id);
      await createLedgerWrites(trx).insert(user.id, portfolio.id, txs, { kind: 'import' });
    }),
  );
  const pageMs = await time(() => repos.transactions.list(user.id, { limit: 100 }), 20);

  for (let i = 0; i < ROWS; i += 500) {
    await database.db
      .insertInto('evaluation_cache')
      .values(
        Array.from({ length: 500 }, (_, j) => {
          const n = i + j;
          const score = (n * 7.3) % 100;
          return {
            symbol: `S${n}`,
            evaluation: JSON.stringify({ symbol: `S${n}`, totalScore: score }),
            total_score: score,
            max_score: 100,
            verdict: VERDICTS[n % 4],
            sector: SECTORS[n % 6],
            industry: `Industry ${n % 40}`,
            company_name: `Company ${n}`,
            pe_ratio: n % 11 ? 5 + (n % 60) : null,
            market_cap: String(1e9 * (1 + (n % 500))),
            cached_at: new Date(Date.UTC(2026, 0, 1) + n * 1000),
          };
        }),
      )
      .execute();
  }
  const screenMs = await time(
    (i) =>
      repos.screener.screen({
        scoreMin: 40,
        sector: SECTORS[i % 6],
        sortBy: 'pe',
        page: 1 + (i % 3),
        limit: 20,
      }),
    50,
  );
  const metaMs = await time(() => repos.screener.meta(), 20);
  console.log(
    `${label.padEnd(9)} import ${ROWS} tx: ${importMs.toFixed(0)} ms | tx page of 100: ${pageMs.toFixed(2)} ms | screener page: ${screenMs.toFixed(2)} ms | meta: ${metaMs.toFixed(2)} ms (over ${ROWS} evaluations)`,
  );
}

const pglite = await createDatabase({});
await run('pglite', pglite);
await pglite.close();

const schema = `bench_${randomBytes(4).toString('hex')}`;
try {
  const pg = await createDatabase({
    databaseUrl: url,
    schema,
    pool: { connectionTimeoutMillis: 2000 },
  });
  try {
    await run('postgres', pg);
  } finally {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(pg.db);
    await pg.close();
  }
} catch (error) {
  console.log(`postgres: skipped (${error.message})`);
}
