// Throughput and latency of the API beside a bare Fastify route, in one run on one machine.
// Run after `pnpm --filter @svc/api build`: `pnpm --filter @svc/api bench`.
//
// Each server runs in its own child process (bench-server.mjs); autocannon loads it from this
// process for BENCH_SECONDS (default 5) per case with BENCH_CONNECTIONS (default 20)
// connections, in BENCH_ROUNDS (default 2) interleaved rounds:
//   bare        GET /bare on a Fastify instance with one route answering a small JSON, and
//               GET /bare-8k answering prepared bytes of a cached evaluation's size
//   evaluation  GET /api/stock-evaluation?symbol=AAPL, cached, with a session cookie
//   screener    GET /api/moat-screener with filters and a sort over 2,000+ cached evaluations,
//               answered from the in-process memo (EVALUATION_CACHE_MEMO_SECONDS) after the first
//               request; and on a second server without the memo (EVALUATION_CACHE_MEMO_SECONDS=0),
//               where every request runs its SQL, also with 1 connection (no queueing)
//   meta        GET /api/moat-screener?action=meta over the same cache
// Embedded PGlite by default (the service's default); BENCH_DATABASE_URL selects PostgreSQL
// (use a throw-away database: the bench upserts 2,000+ rows and two users into it).
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** Starts a bench server in a child process and waits for its { port, cookie, ... }. */
function start(mode) {
  const child = fork(new URL('./bench-server.mjs', import.meta.url), [mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.once('message', (info) => resolve({ ...info, child }));
  });
}

async function stop(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('close');
  await exited;
}

/** Runs autocannon for one case and returns req/s and latency percentiles (ms). */
async function measure({ name, url, headers, connections = CONNECTIONS }) {
  const result = await autocannon({ url, headers, connections, duration: SECONDS });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${name}: ${bad} failed requests (non-2xx, errors or timeouts)`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
}

const filling = Date.now();
const [bareServer, app, appSql] = await Promise.all([
  start('bare'),
  start('app'),
  start('app-sql'),
]);
const sqlBase = `http://127.0.0.1:${appSql.port}`;
const fillSeconds = ((Date.now() - filling) / 1000).toFixed(1);
const base = `http://127.0.0.1:${app.port}`;
const headers = { cookie: app.cookie };
const SCREENER_QUERY =
  'scoreMin=40&peMax=60&marketCapMin=1000000000&sortBy=marketCap&sortDir=desc&page=3&limit=20';
const CASES = [
  { name: 'bare Fastify route', url: `http://127.0.0.1:${bareServer.port}/bare`, headers: {} },
  {
    name: 'bare route, 8 kB body',
    url: `http://127.0.0.1:${bareServer.port}/bare-8k`,
    headers: {},
  },
  { name: 'cached evaluation', url: `${base}/api/stock-evaluation?symbol=AAPL`, headers },
  {
    name: 'screener (filters + sort)',
    url: `${base}/api/moat-screener?${SCREENER_QUERY}`,
    headers,
  },
  { name: 'screener meta', url: `${base}/api/moat-screener?action=meta`, headers },
  {
    name: 'screener SQL (no memo)',
    url: `${sqlBase}/api/moat-screener?${SCREENER_QUERY}`,
    headers: { cookie: appSql.cookie },
  },
  {
    name: 'screener SQL, 1 connection',
    url: `${sqlBase}/api/moat-screener?${SCREENER_QUERY}`,
    headers: { cookie: appSql.cookie },
    connections: 1,
  },
];

// Rounds interleave the cases, so that a busy moment of the machine does not fall on one case
// only; each figure below is the median over the rounds.
const runs = CASES.map(() => []);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [i, c] of CASES.entries()) runs[i]?.push(await measure(c));
}
await Promise.all([stop(bareServer), stop(app), stop(appSql)]);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const results = CASES.map((c, i) => ({
  name: c.name,
  connections: c.connections ?? CONNECTIONS,
  rps: median(runs[i].map((r) => r.rps)),
  p50: median(runs[i].map((r) => r.p50)),
  p99: median(runs[i].map((r) => r.p99)),
  bytes: runs[i][0].bytes,
}));
const bare = results[0];

console.log(
  `\n@svc/api bench: Node ${process.version}, ${app.dialect}, ${app.rows} cached evaluations ` +
    `(servers ready in ${fillSeconds} s), ${SECONDS} s per case, median of ${ROUNDS} interleaved rounds\n`,
);
console.log(
  [
    'case'.padEnd(28),
    'conns'.padStart(5),
    'req/s'.padStart(9),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'bytes'.padStart(6),
    'vs bare'.padStart(8),
  ].join(' '),
);
for (const c of results) {
  console.log(
    [
      c.name.padEnd(28),
      String(c.connections).padStart(5),
      c.rps.toFixed(0).padStart(9),
      String(c.p50).padStart(7),
      String(c.p99).padStart(7),
      String(c.bytes).padStart(6),
      `${((c.rps / bare.rps) * 100).toFixed(0)}%`.padStart(8),
    ].join(' '),
  );
}
const [, bareLarge, evaluation, screener, , screenerSql, screenerSqlAlone] = results;
console.log(
  `\ncached evaluation: ${((evaluation.rps / bare.rps) * 100).toFixed(0)}% of the bare route's ` +
    `throughput, ${((evaluation.rps / bareLarge.rps) * 100).toFixed(0)}% of the bare route with ` +
    'a body of the same size (aim >= 50%); ' +
    `screener p99 ${screener.p99} ms at ${screener.connections} connections (memo), SQL only ` +
    `${screenerSql.p99} ms at ${screenerSql.connections} and ${screenerSqlAlone.p99} ms at 1 (aim < 20 ms)`,
);
