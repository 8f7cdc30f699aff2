// Quota consumption throughput and latency on PGlite and (when reachable) PostgreSQL.
// Usage: pnpm --filter @svc/quota bench   (BENCH_DATABASE_URL or TEST_DATABASE_URL for PostgreSQL)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createDatabase, createRepositories, migrateToLatest } from '@svc/portfolio-store';
import { sql } from 'kysely';
import { createQuotaService } from '../dist/index.js';

const url =
  process.env.BENCH_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  'postgres://postgres@127.0.0.1:5432/test';

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(label, database, { total, concurrency }) {
  await migrateToLatest(database.db);
  const user = await createRepositories(database.db).users.create({
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
  });
  const quotas = createQuotaService({
    db: database.db,
    limits: { pro: { ai_consult: { limit: 1_000_000 } } },
  });
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const t = performance.now();
        await quotas.consume(user.id, 'pro', 'ai_consult');
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} ${String(total).padStart(5)} consumes  ${(total / seconds).toFixed(0).padStart(6)} /s  p50 ${percentile(latencies, 50).toFixed(2)} ms  p95 ${percentile(latencies, 95).toFixed(2)} ms`,
  );
}

const pglite = await createDatabase({});
await run('pglite (1 connection), sequential', pglite, { total: 2000, concurrency: 1 });
await run('pglite (1 connection), 20 in flight', pglite, { total: 2000, concurrency: 20 });
await pglite.close();

const schema = `bench_${randomBytes(4).toString('hex')}`;
try {
  const pg = await createDatabase({
    databaseUrl: url,
    schema,
    pool: { max: 20, connectionTimeoutMillis: 2000 },
  });
  try {
    await run('postgres (pool 20), sequential', pg, { total: 2000, concurrency: 1 });
    await run('postgres (pool 20), 20 in flight', pg, { total: 5000, concurrency: 20 });
  } finally {
    await sql`drop schema ${sql.id(schema)} cascade`.execute(pg.db);
    await pg.close();
  }
} catch (error) {
  console.log(`postgres: skipped (${error.message})`);
}
