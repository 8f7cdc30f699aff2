// The service's own cost per request, route by route, beside a bare Fastify route in one run.
// Run after `pnpm --filter @svc/api build`: `pnpm --filter @svc/api bench`; on PostgreSQL
// (a throw-away database: the run stores 2,000+ evaluations, users, portfolios and counters):
//   createdb bench_api && BENCH_DATABASE_URL=postgres://…/bench_api pnpm --filter @svc/api bench
//
// Each server runs in its own child process (bench-server.mjs): `bare` (one Fastify route with a
// small JSON answer and one with prepared 8 kB bytes), `app` (the real service: openRuntime +
// buildApp from dist/, 2,000+ cached evaluations, one signed-in user with a portfolio of 33
// holdings imported from the shared Schwab, Revolut, DEGIRO and Trading 212 exports, portfolios
// of 340 and 3,400 synthetic holdings, and a personal access token) and `app-sql` (the same
// service without the screener memo, so every screener page runs its SQL).
//
// The load generator is `wrk` (a C program, installed with apt-get when missing and possible;
// otherwise autocannon runs in a process of its own), never the servers' event loop. Per case:
// BENCH_WARMUP seconds (default 3) unmeasured, then BENCH_SECONDS (default 6) with
// BENCH_CONNECTIONS (default 8) connections on one thread. Measured per case:
//   - req/s, p50 and p99 latency (from the generator);
//   - server CPU µs per request: utime + stime of the server process (/proc/<pid>/stat) across
//     the measured seconds ÷ requests served. On a shared machine this moves far less than
//     throughput, but it still grows with the machine's load (caches, wake-ups), so every case
//     runs right after a run of the bare route and its ratio is to that neighbour ("vs bare");
//     ratios between cases ("vs ref") are of those multiples. The ratios are the aims;
//   - user-mode CPU µs per request (utime alone) and its ratio to the bare run ("user vs"): the
//     kernel's share (writing the answer, and waking the load generator, which a slower route
//     finds asleep more often) left out;
//   - PostgreSQL CPU µs per request (BENCH_DATABASE_URL on this machine): the CPU of the
//     database's backend processes (found by their command line, `postgres: user db …`).
// The servers' CPU when idle (measured for BENCH_IDLE_SECONDS, default 3, before the cases) is
// left out of the CPU per request.
// Then every route once more, isolated: BENCH_ISOLATED (default 15) requests one at a time,
// BENCH_ISOLATED_GAP_MS (default 200) apart, each on a new connection; the median time to the
// last byte, beside /healthz's.
// BENCH_ROUNDS (default 1) interleaved rounds; each figure is the median over the rounds.
// BENCH_CPU_PROF=<dir> takes a V8 CPU profile of the `app` servers (the inspector's profiler, as
// `node --cpu-prof` writes it) over each case's measured seconds, writes it there as
// <case>.cpuprofile and prints its top self-time frames (profiling adds its own cost: take the
// figures from a run without it); BENCH_ONLY=<regex> keeps the cases whose KEY matches (the keys
// of BENCH_CASES in harness.mjs, the one table compare.bench.mjs reads too, and
// performanceAfterEdit), besides the bare route, and only the servers they need
// start (no `app-sql` without its cases, no portfolios without theirs). Last, `performanceAfterEdit`
// (issue 30, performance-after-edit.mjs):
// a portfolio of 50 holdings × 10 years on a server of its own, the server CPU of its
// performance read right after an edit deep in the past (aim ≤ 100 ms).
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  ask,
  BENCH_CASES,
  caseFor,
  cpuMicros,
  cpuTimes,
  generate,
  median,
  once,
  scratch,
  start,
  stop,
  WRK,
} from './harness.mjs';
import { performanceAfterEdit } from './performance-after-edit.mjs';
import { formatSummary, summarise } from './profile-summary.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const ISOLATED = Number(process.env.BENCH_ISOLATED ?? 15);
const ISOLATED_GAP_MS = Number(process.env.BENCH_ISOLATED_GAP_MS ?? 200);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const CPU_PROF = process.env.BENCH_CPU_PROF;
if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
const DATABASE = process.env.BENCH_DATABASE_URL
  ? decodeURIComponent(new URL(process.env.BENCH_DATABASE_URL).pathname.slice(1))
  : null;

/** A backend's command line: `postgres: [cluster: ]user database host(port) state`. */
const backendOf = new RegExp(
  `^postgres: (?:\\S+: )?\\S+ ${(DATABASE ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
);

/** The backend processes of the bench database on this machine: pid → CPU µs. */
function databaseBackends() {
  const found = new Map();
  if (!DATABASE) return found;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // e.g. "postgres: 15/main: postgres bench_api 127.0.0.1(41234) idle"
    if (backendOf.test(cmdline)) {
      found.set(entry, cpuMicros(entry));
    }
  }
  return found;
}

/** CPU µs the database's backends used since `before` (backends that started since count whole). */
function databaseCpuSince(before) {
  let total = 0;
  for (const [pid, micros] of databaseBackends()) total += micros - (before.get(pid) ?? 0);
  return total;
}

/** Warm-up, then the measured run with the server's and the database's CPU across it. */
async function measure(c) {
  if (WARMUP > 0) await generate(c, WARMUP);
  const backends = databaseBackends();
  const profiled = CPU_PROF && c.server !== bareServer;
  if (profiled) await ask(c.server, { profile: 'start' });
  const before = cpuTimes(c.server.child.pid);
  const result = await generate(c, SECONDS);
  const after = cpuTimes(c.server.child.pid);
  const serverCpu = after.user + after.system - (before.user + before.system);
  const serverUser = after.user - before.user;
  if (profiled) {
    const file = join(CPU_PROF, `${c.key}.cpuprofile`);
    await ask(c.server, { profile: 'stop', file });
    console.log(formatSummary(c.name, summarise(JSON.parse(readFileSync(file, 'utf8')), 20)));
  }
  const dbCpu = databaseCpuSince(backends);
  // what the server spends anyway (timers, the garbage collector of a large heap) is not the
  // requests' cost: its idle rate over the same seconds is left out
  const idle = (idleRates.get(c.server) ?? 0) * (result.micros / 1e6);
  return {
    ...result,
    cpu: Math.max(0, serverCpu - idle) / result.requests,
    // user mode alone: without the kernel's share (the socket writes and the wake-ups of the
    // load generator they cause, which grow as a route gets slower)
    user: Math.max(0, serverUser - idle) / result.requests,
    db: DATABASE && c.server !== bareServer ? dbCpu / result.requests : null,
  };
}

/** Median time of ISOLATED requests one at a time, ISOLATED_GAP_MS apart (no load). */
async function isolated(c) {
  const times = [];
  for (let i = 0; i < ISOLATED; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, ISOLATED_GAP_MS));
    const res = await once(c);
    if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${res.body}`);
    times.push(res.ms);
  }
  return median(times);
}

/** Whether BENCH_ONLY keeps the case `key` (the bare route always runs). */
const kept = (key) => !ONLY || key === 'bare' || ONLY.test(key);
const KEPT = BENCH_CASES.filter((c) => kept(c.key));
// only the servers the kept cases need: `app-sql` for the SQL screener cases, and the `app`
// server's portfolios and token (most of its start-up) for the portfolio and MCP cases
const needsSql = KEPT.some((c) => c.server === 'app-sql');
const needsPortfolios = KEPT.some((c) => c.portfolios);
const filling = Date.now();
const [bareServer, app, appSql] = await Promise.all([
  start('bare'),
  start(needsPortfolios ? 'app' : 'app-light'),
  needsSql ? start('app-sql') : null,
]);
const servers = [bareServer, app, appSql].filter(Boolean);
const fillSeconds = ((Date.now() - filling) / 1000).toFixed(1);
const byName = { bare: bareServer, app, 'app-sql': appSql };

const CASES = KEPT.map((entry) => {
  const c = caseFor(entry, byName[entry.server]);
  if (c === null) throw new Error(`${entry.key}: the ${entry.server} server cannot answer it`);
  return c;
});

/** Each case once, checked: 200, and MCP answers the same data as its REST twin. */
async function check() {
  const answers = {};
  for (const c of CASES) {
    const res = await once(c);
    if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${res.body}`);
    answers[c.key] = JSON.parse(res.body);
  }
  const mcp = (key) => {
    const json = answers[key];
    if (json.error !== undefined || json.result.isError)
      throw new Error(`${key}: ${JSON.stringify(json.error ?? json.result.content)}`);
    return json.result.structuredContent;
  };
  if (answers.mcpEvaluation && answers.evaluation) {
    const { _cachedAt: _a, ...viaMcp } = mcp('mcpEvaluation');
    const { _cachedAt: _b, ...viaRest } = answers.evaluation;
    if (viaMcp._cached !== true || !isDeepStrictEqual(viaMcp, viaRest))
      throw new Error('MCP and REST disagree on the cached evaluation');
  }
  if (answers.mcpToolsList && !(answers.mcpToolsList.result?.tools?.length > 0))
    throw new Error(`MCP tools/list: ${JSON.stringify(answers.mcpToolsList)}`);
  if (answers.mcpHoldings && answers.holdings) {
    const { holdings } = mcp('mcpHoldings');
    if (holdings.length !== 33 || !isDeepStrictEqual(holdings, answers.holdings))
      throw new Error('MCP and REST disagree on the holdings');
  }
  // the X-ray case reads a warm cache: every one of its 50 holdings has its evaluation
  if (answers.xray50) {
    const rated = answers.xray50.holdings.filter((h) => h.evaluation).length;
    if (answers.xray50.holdings.length !== 50 || rated !== 50)
      throw new Error(`X-ray of 50: ${rated} rated of ${answers.xray50.holdings.length}`);
  }
}

/** Each server's CPU µs per second when nothing is sent (measured over IDLE_SECONDS). */
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 3);
const idleRates = new Map();
async function measureIdle() {
  const before = servers.map((s) => cpuMicros(s.child.pid));
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  for (const [i, s] of servers.entries()) {
    idleRates.set(s, (cpuMicros(s.child.pid) - before[i]) / IDLE_SECONDS);
  }
}

let results;
try {
  await check();
  await measureIdle();
  const runs = CASES.map(() => []);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, c] of CASES.entries()) {
      // each case right after a run of the bare route: its ratio is to that neighbour, so that
      // the machine's load, which moves from one minute to the next, falls on both alike
      const bare = c.key === 'bare' ? null : await measure(CASES[0]);
      const run = await measure(c);
      runs[i].push({
        ...run,
        bareCpu: bare ? bare.cpu : run.cpu,
        bareUser: bare ? bare.user : run.user,
      });
    }
  }
  const quiet = CASES.map(() => 0);
  for (const [i, c] of CASES.entries()) quiet[i] = await isolated(c);
  results = Object.fromEntries(
    CASES.map((c, i) => [
      c.key,
      {
        name: c.name,
        connections: c.connections ?? CONNECTIONS,
        rps: median(runs[i].map((r) => r.rps)),
        p50: median(runs[i].map((r) => r.p50)),
        p99: median(runs[i].map((r) => r.p99)),
        cpu: median(runs[i].map((r) => r.cpu)),
        bareCpu: median(runs[i].map((r) => r.bareCpu)),
        /** CPU per request ÷ the neighbouring bare run's. */
        norm: median(runs[i].map((r) => r.cpu / r.bareCpu)),
        /** User-mode CPU per request, and ÷ the neighbouring bare run's. */
        user: median(runs[i].map((r) => r.user)),
        userNorm: median(runs[i].map((r) => r.user / r.bareUser)),
        db: runs[i][0].db === null ? null : median(runs[i].map((r) => r.db)),
        bytes: runs[i][0].bytes,
        isolated: quiet[i],
      },
    ]),
  );
} finally {
  await Promise.all(servers.map(stop));
  rmSync(scratch, { recursive: true, force: true });
}

const { healthz, evaluation } = results;
/** The ratio column: to the bare route, and for portfolio reads and MCP to their reference. */
const REFERENCE = {
  holdings: 'evaluation',
  holdings340: 'holdings',
  holdings3400: 'holdings',
  xray50: 'holdings50',
  transactions: 'evaluation',
  mcpEvaluation: 'evaluation',
  mcpHoldings: 'holdings',
};
/** The ratio of two cases, each as a multiple of its own neighbouring bare run. */
const ratio = (a, b) => a.norm / b.norm;

console.log(
  `\n@svc/api bench: Node ${process.version}, ${app.dialect}, ${app.rows} cached evaluations, ` +
    `holdings ${Object.values(app.holdingCounts ?? {}).join('/') || '–'} (servers ready in ${fillSeconds} s); ` +
    `${WRK ? 'wrk -t1' : 'autocannon (own process)'}, ${WARMUP} s warm-up + ${SECONDS} s per case, ` +
    `median of ${ROUNDS} round(s); isolated: median of ${ISOLATED} requests ${ISOLATED_GAP_MS} ms apart`,
);
console.log(
  `server CPU when idle (left out of CPU µs): bare ${idleRates.get(bareServer).toFixed(0)} µs/s, ` +
    `app ${idleRates.get(app).toFixed(0)} µs/s, app-sql ${appSql ? idleRates.get(appSql).toFixed(0) : '–'} µs/s\n`,
);
const header = [
  'case'.padEnd(27),
  'conns'.padStart(5),
  'req/s'.padStart(7),
  'p50 ms'.padStart(7),
  'p99 ms'.padStart(7),
  'bytes'.padStart(7),
  'CPU µs'.padStart(7),
  'bare µs'.padStart(7),
  'vs bare'.padStart(8),
  'vs ref'.padStart(16),
  'user µs'.padStart(7),
  'user vs'.padStart(8),
  'PG µs'.padStart(6),
  'alone ms'.padStart(9),
];
console.log(header.join(' '));
for (const [key, c] of Object.entries(results)) {
  const ref = REFERENCE[key] && results[REFERENCE[key]];
  console.log(
    [
      c.name.padEnd(27),
      String(c.connections).padStart(5),
      c.rps.toFixed(0).padStart(7),
      c.p50.toFixed(2).padStart(7),
      c.p99.toFixed(2).padStart(7),
      String(c.bytes).padStart(7),
      c.cpu.toFixed(1).padStart(7),
      c.bareCpu.toFixed(1).padStart(7),
      `${c.norm.toFixed(2)}×`.padStart(8),
      (ref ? `${ratio(c, ref).toFixed(2)}× ${REFERENCE[key]}` : '').padStart(16),
      c.user.toFixed(1).padStart(7),
      `${c.userNorm.toFixed(2)}×`.padStart(8),
      (c.db === null ? '' : c.db.toFixed(0)).padStart(6),
      c.isolated.toFixed(2).padStart(9),
    ].join(' '),
  );
}

/** The aims of issue 22, each a ratio of this run (server CPU per request, or isolated time). */
const aims = [];
const aim = (what, value, limit) =>
  aims.push(`${value <= limit ? 'met ' : 'MISS'}  ${what}: ${value.toFixed(2)} (aim ≤ ${limit})`);
if (evaluation) aim('cached evaluation ÷ bare', evaluation.norm, 2);
if (healthz) aim('/healthz ÷ bare', healthz.norm, 1.5);
// the same two in user-mode CPU alone (not an aim of the issue: beside it, for the kernel's share)
const userAims = [];
if (evaluation)
  userAims.push(
    `      user mode alone: cached evaluation ÷ bare ${evaluation.userNorm.toFixed(2)}`,
  );
if (healthz) userAims.push(`      user mode alone: /healthz ÷ bare ${healthz.userNorm.toFixed(2)}`);
if (results.holdings && evaluation)
  aim('holdings (33) ÷ cached evaluation', ratio(results.holdings, evaluation), 3);
// issue 38: the X-ray of 50 holdings from a warm evaluation cache against their holdings read
if (results.xray50 && results.holdings50)
  aim('X-ray (50) ÷ holdings read (50)', ratio(results.xray50, results.holdings50), 3);
if (results.transactions && evaluation)
  aim('transactions (50) ÷ cached evaluation', ratio(results.transactions, evaluation), 3);
if (results.holdings3400 && results.holdings340)
  aim('holdings 3,400 ÷ 340 (linear: ≤ 10)', ratio(results.holdings3400, results.holdings340), 10);
if (results.mcpEvaluation && evaluation)
  aim('MCP getMoatEvaluation ÷ REST', ratio(results.mcpEvaluation, evaluation), 2);
if (results.mcpHoldings && results.holdings)
  aim('MCP listHoldings ÷ REST holdings', ratio(results.mcpHoldings, results.holdings), 2);
if (healthz) {
  const slowest = Object.entries(results)
    .filter(([key]) => !key.startsWith('bare') && !key.startsWith('holdings3') && key !== 'healthz')
    .sort((a, b) => b[1].isolated - a[1].isolated)[0];
  if (slowest)
    aim(
      `slowest isolated read (${slowest[1].name}) ÷ /healthz`,
      slowest[1].isolated / healthz.isolated,
      2,
    );
}
console.log(`\n${[...aims, ...userAims].join('\n')}`);

// issue 30: the performance of 50 holdings × 10 years right after an edit deep in the past, on a
// server of its own (see performance-after-edit.mjs), measured one request at a time
if (!ONLY || ONLY.test('performanceAfterEdit')) await performanceAfterEdit();
