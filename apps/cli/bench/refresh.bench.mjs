// Issue 33's throughput bench: re-evaluating every company of the SimFin set (~2,100) through the
// job queue, by one process and then shared by two (`fill-cache --all` + `fill-cache --join`),
// against issue 33's budget: no slower than the fill-cache of before the jobs (27 s on the
// project's 2-core machine). Needs PostgreSQL (two processes cannot share the embedded database):
// BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); a
// throw-away database is created and dropped. Run after `pnpm turbo build --filter @svc/cli...`:
//   node apps/cli/bench/refresh.bench.mjs
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const cli = resolve(here, '../dist/cli.js');
const BUDGET_S = 27;
const base = new URL(
  process.env.BENCH_DATABASE_URL ||
    process.env.TEST_DATABASE_URL ||
    'postgres://postgres@127.0.0.1:5432/test',
);
const name = `bench_refresh_${process.pid}`;
const admin = new pg.Client({ connectionString: base.toString() });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const env = { ...process.env, DATABASE_URL: url.toString(), FUNDAMENTALS_PROVIDER: 'simfin' };
delete env.SEC_USER_AGENT;

/** Runs the CLI; resolves with its wall time, stdout (JSON summary) and stderr. */
function run(args, onStderr) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'fill-cache', ...args, '--json'], { env });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err += chunk;
    onStderr?.(err);
  });
  return new Promise((done, fail) =>
    child.on('exit', (code) =>
      code === 0
        ? done({ seconds: (performance.now() - started) / 1000, summary: JSON.parse(out) })
        : fail(new Error(`fill-cache ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`)),
    ),
  );
}

try {
  // Migrate and warm the OS file cache of the SimFin CSVs once (not timed).
  await run(['KO']);
  const one = await run(['--all']);
  let joined;
  const started = performance.now();
  const first = run(['--all'], (text) => {
    // the tickers are queued once the first progress line is out: join then
    if (!joined && /\[\s*1\//.test(text)) joined = run(['--join']);
  });
  const a = await first;
  const b = await (joined ??
    Promise.resolve({ seconds: 0, summary: { evaluated: 0, failed: [] } }));
  const two = (performance.now() - started) / 1000;
  const total = one.summary.evaluated + one.summary.failed.length;
  const shared = [a, b].map((r) => r.summary.evaluated + r.summary.failed.length);
  console.log(
    JSON.stringify(
      {
        companies: total,
        oneProcess: { seconds: +one.seconds.toFixed(1), evaluated: one.summary.evaluated },
        twoProcesses: {
          seconds: +two.toFixed(1),
          share: shared,
          evaluated: a.summary.evaluated + b.summary.evaluated,
        },
        budgetSeconds: BUDGET_S,
        withinBudget: one.seconds <= BUDGET_S && two <= BUDGET_S,
      },
      null,
      2,
    ),
  );
  if (shared[0] + shared[1] !== total)
    throw new Error(`the two processes did ${shared} of ${total}`);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
