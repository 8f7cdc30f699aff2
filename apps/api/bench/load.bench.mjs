// Load test: a mixed workload at rising rates until p99 passes 100 ms, beside a bare Fastify
// route in the same run. Run after `pnpm --filter @svc/api build`:
//   pnpm --filter @svc/api bench:load                                   # embedded PGlite
//   BENCH_DATABASE_URL=postgres://…/throwaway pnpm --filter @svc/api bench:load   # PostgreSQL
// (PostgreSQL: use a throw-away database, e.g. `createdb bench_load` before and `dropdb
// bench_load` after; the run stores 2,000+ evaluations, users, a portfolio and counters.)
//
// Both servers run in child processes (bench-server.mjs, modes `bare` and `load`); autocannon
// sends from this process at a fixed overall rate (`overallRate`) over BENCH_CONNECTIONS
// (default 64) connections for BENCH_STEP_SECONDS (default 5) per step, the rate starting at
// BENCH_START_RATE (default 10 req/s) and multiplied by BENCH_RATE_FACTOR (default 1.5) after
// each step, until p99 > 100 ms, an error, or the rate achieved falls below 90% of the target.
// The mixed workload, cycled by every connection (10 requests):
//   4 × cached evaluation   GET /api/stock-evaluation?symbol=… (4 symbols, session cookie)
//   2 × screener page       GET /api/moat-screener?…&page=1|2 (filters + sort)
//   2 × portfolio read      GET /api/holdings?portfolioId=…, GET /api/transactions?portfolioId=…
//   2 × MCP tool call       POST /api/mcp/user/mcp tools/call getMoatEvaluation, listHoldings
//                           (streamable HTTP, stateless, personal access token)
// Narrative streams: beside the ramp, BENCH_STREAMS (default 2) clients each open
// POST /api/stock-evaluation/ai (server-sent events) one after another for the whole mixed run;
// the model is @svc/advisor's fake OpenAI-compatible server, streaming 40 chunks
// BENCH_CHUNK_DELAY_MS (default 5) apart. Model and clients run in a child process of their own
// (stream-clients.mjs): in this process they delayed autocannon's own event loop and doubled the
// p99 it measured. Their time to first byte and to `event: done` are reported apart from the
// ramp's latency (a stream lasts as long as the model talks).
// Server CPU per request: utime + stime of the server process (/proc/<pid>/stat) across a step
// ÷ the requests answered in it, beside the bare route's (stable on a shared machine, where the
// held rate and the tail are not).
// Peak memory: the highest resident set size (VmRSS, /proc) of the server process sampled every
// 100 ms during the steps. At the end, the server's own latency by route from GET /metrics.
// Latency is measured from the send (autocannon), so queueing inside the client is not seen;
// the machine is shared, so figures are noisy: compare the two rows of one run.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';

const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const START_RATE = Number(process.env.BENCH_START_RATE ?? 10);
const FACTOR = Number(process.env.BENCH_RATE_FACTOR ?? 1.5);
const MAX_RATE = Number(process.env.BENCH_MAX_RATE ?? 100_000);
/** The latency bound of a held rate (the 100 ms); BENCH_P99_MS raises it on a busy machine. */
const P99_LIMIT_MS = Number(process.env.BENCH_P99_MS ?? 100);

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2);
/** As read by stream-clients.mjs, for the summary line. */
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 5);

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

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** utime + stime of a process in µs, from /proc/<pid>/stat. */
function cpuMicros(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
}

/** Samples the resident set size (MiB) of a process every 100 ms; `stop()` answers the peak. */
function sampleRss(pid) {
  let peak = 0;
  const read = () => {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) peak = Math.max(peak, Number(match[1]) / 1024);
  };
  read();
  const timer = setInterval(read, 100);
  return {
    stop() {
      clearInterval(timer);
      read();
      return peak;
    },
  };
}

/** The mixed workload of the `load` server, as autocannon requests. */
function mixedRequests(server) {
  const session = { cookie: server.cookie };
  const screener = (page) =>
    `/api/moat-screener?scoreMin=40&marketCapMin=1000000000&sortBy=marketCap&sortDir=desc&limit=20&page=${page}`;
  let id = 0;
  const tool = (name, args) => ({
    method: 'POST',
    path: '/api/mcp/user/mcp',
    headers: {
      authorization: `Bearer ${server.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  return [
    ...['AAPL', 'PG', 'COST', 'V'].map((symbol) => ({
      method: 'GET',
      path: `/api/stock-evaluation?symbol=${symbol}`,
      headers: session,
    })),
    { method: 'GET', path: screener(1), headers: session },
    { method: 'GET', path: screener(2), headers: session },
    { method: 'GET', path: `/api/holdings?portfolioId=${server.portfolioId}`, headers: session },
    {
      method: 'GET',
      path: `/api/transactions?portfolioId=${server.portfolioId}`,
      headers: session,
    },
    tool('getMoatEvaluation', { symbol: 'AAPL' }),
    tool('listHoldings', { portfolioId: server.portfolioId }),
  ];
}

/** Sends each request once and fails unless all answer 200 (and MCP calls are no tool errors). */
async function preflight(base, requests) {
  for (const r of requests) {
    const res = await fetch(`${base}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
    });
    const body = await res.text();
    if (res.status !== 200 || body.includes('"isError":true')) {
      throw new Error(`preflight ${r.method} ${r.path}: ${res.status} ${body.slice(0, 300)}`);
    }
  }
}

/**
 * The mix as ONE autocannon request whose `setupRequest` takes the next entry of a counter shared
 * by every connection: the proportions hold at any rate, even when each connection sends only
 * a few requests per step (a plain `requests` array restarts at its first entry on every
 * connection, so slow steps would send mostly the first entries).
 */
function rotating(mix) {
  let next = 0;
  return [
    {
      setupRequest: (request) => {
        const entry = mix[next % mix.length];
        next += 1;
        return { ...request, body: undefined, ...entry };
      },
    },
  ];
}

/**
 * The narrative-stream clients and their model, in a child process (stream-clients.mjs): `ready`
 * answers the model's URL; `start(...)` opens STREAMS clients; `done()` answers how many streams
 * have ended so far; `stop()` answers their counts and times.
 */
async function startStreamClients() {
  const child = fork(new URL('./stream-clients.mjs', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (key) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message?.[key] === undefined) return;
        child.off('message', onMessage);
        resolve(message[key]);
      };
      child.on('message', onMessage);
    });
  child.once('exit', (code) => {
    if (code !== 0) throw new Error(`stream clients exited with ${code}`);
  });
  const modelUrl = await next('modelUrl');
  return {
    modelUrl,
    start(server, evaluation) {
      child.send({
        start: {
          url: `http://127.0.0.1:${server.port}/api/stock-evaluation/ai`,
          headers: {
            cookie: server.cookie,
            origin: server.origin,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ evaluation }),
          clients: STREAMS,
        },
      });
    },
    done() {
      const answer = next('count');
      child.send('count');
      return answer;
    },
    stop() {
      const answer = next('stopped');
      child.send('stop');
      return answer;
    },
  };
}

/** Raises the rate step by step; answers every step and the last one held. */
async function ramp(name, server, requests, streams) {
  const url = `http://127.0.0.1:${server.port}`;
  const steps = [];
  for (let rate = START_RATE; rate <= MAX_RATE; rate = Math.round(rate * FACTOR)) {
    const rss = sampleRss(server.child.pid);
    const streamsBefore = streams ? await streams.done() : 0;
    const cpuBefore = cpuMicros(server.child.pid);
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: STEP_SECONDS,
      overallRate: rate,
      requests: rotating(requests),
    });
    const step = {
      rate,
      achieved: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.non2xx + result.errors + result.timeouts,
      rssMiB: rss.stop(),
      // server CPU per request (the narrative streams' share included in the mixed run)
      cpuUs: (cpuMicros(server.child.pid) - cpuBefore) / Math.max(1, result.requests.total),
      requests: result.requests.total,
    };
    steps.push(step);
    console.log(
      `  ${name.padEnd(6)} target ${String(rate).padStart(6)}/s  got ${step.achieved.toFixed(0).padStart(6)}/s  ` +
        `p50 ${String(step.p50).padStart(4)} ms  p99 ${String(step.p99).padStart(4)} ms  ` +
        `errors ${step.errors}  CPU ${step.cpuUs.toFixed(0).padStart(5)} µs/req  RSS ${step.rssMiB.toFixed(0)} MiB` +
        (streams ? `  narrative streams done ${(await streams.done()) - streamsBefore}` : ''),
    );
    if (step.p99 > P99_LIMIT_MS || step.errors > 0 || step.achieved < rate * 0.9) break;
  }
  const held = steps.filter(
    (s) => s.p99 <= P99_LIMIT_MS && s.errors === 0 && s.achieved >= s.rate * 0.9,
  );
  const erroredBelow = held.length > 0 && steps.slice(0, held.length).some((s) => s.errors > 0);
  const answered = steps.reduce((sum, s) => sum + s.requests, 0);
  return {
    name,
    // server CPU per request over every step run, held or not
    cpuUs: steps.reduce((sum, s) => sum + s.cpuUs * s.requests, 0) / Math.max(1, answered),
    steps,
    held: held.at(-1),
    broke: steps.at(-1),
    peakRss: Math.max(...steps.map((s) => s.rssMiB)),
    erroredBelow,
  };
}

/** Mean server-side latency (ms) and count per route from the Prometheus exposition. */
async function latencyByRoute(server) {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`, {
    headers: { authorization: `Bearer ${server.metricsToken}` },
  });
  const text = await res.text();
  const routes = new Map();
  for (const line of text.split('\n')) {
    const m = /^http_request_duration_seconds_(sum|count)\{.*route="([^"]+)".*\} (\S+)$/.exec(line);
    if (!m) continue;
    const entry = routes.get(m[2]) ?? { sum: 0, count: 0 };
    entry[m[1]] += Number(m[3]);
    routes.set(m[2], entry);
  }
  return [...routes].map(([route, { sum, count }]) => ({
    route,
    count,
    meanMs: (sum / count) * 1000,
  }));
}

const filling = Date.now();
const streams = await startStreamClients();
process.env.OPENAI_BASE_URL = streams.modelUrl; // inherited by the forked servers (`load` uses it)
const [bare, app] = await Promise.all([start('bare'), start('load')]);
const evaluation = await (
  await fetch(`http://127.0.0.1:${app.port}/api/stock-evaluation?symbol=AAPL`, {
    headers: { cookie: app.cookie },
  })
).json();
const requests = mixedRequests(app);
await preflight(`http://127.0.0.1:${app.port}`, requests);
console.log(
  `\n@svc/api bench:load: Node ${process.version}, ${app.dialect}, ${app.rows} cached evaluations ` +
    `(servers ready in ${((Date.now() - filling) / 1000).toFixed(1)} s), ${CONNECTIONS} connections, ` +
    `${STEP_SECONDS} s per step, rate x${FACTOR} from ${START_RATE}/s until p99 > ${P99_LIMIT_MS} ms\n`,
);
const load = () => loadavg()[0].toFixed(1);
console.log(
  `load average before: ${load()} on ${availableParallelism()} CPUs (other processes of the machine)\n`,
);
const results = [];
results.push(await ramp('bare', bare, [{ method: 'GET', path: '/bare' }]));
streams.start(app, evaluation);
results.push(await ramp('mixed', app, requests, streams));
const streamed = await streams.stop();
const routes = await latencyByRoute(app);
console.log(`\nload average after: ${load()} on ${availableParallelism()} CPUs`);
await Promise.all([stop(bare), stop(app)]);

console.log(
  `\n${'workload'.padEnd(10)} ${'held req/s'.padStart(10)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ` +
    `${'errors'.padStart(6)} ${'CPU µs/req'.padStart(10)} ${'peak RSS MiB'.padStart(12)}   first step past the limit` +
    ' (CPU: over every step)',
);
for (const r of results) {
  const h = r.held;
  const broke =
    r.broke === h
      ? 'none (max rate reached)'
      : `${r.broke.rate}/s: got ${r.broke.achieved.toFixed(0)}/s, p99 ${r.broke.p99} ms, ${r.broke.errors} errors`;
  console.log(
    `${r.name.padEnd(10)} ${(h ? h.achieved.toFixed(0) : '-').padStart(10)} ${String(h?.p50 ?? '-').padStart(7)} ` +
      `${String(h?.p99 ?? '-').padStart(7)} ${String(h?.errors ?? '-').padStart(6)} ` +
      `${r.cpuUs.toFixed(0).padStart(10)} ${r.peakRss.toFixed(0).padStart(12)}   ${broke}`,
  );
}
const [bareResult, mixedResult] = results;
// CPU per request falls as the rate rises (fixed costs of waking up per request), so the two
// workloads are compared step by step at the same target rate
const sameRate = mixedResult.steps
  .map((m) => [m, bareResult.steps.find((b) => b.rate === m.rate)])
  .filter(([, b]) => b !== undefined)
  .map(([m, b]) => `${m.rate}/s ${(m.cpuUs / b.cpuUs).toFixed(1)}×`);
console.log(
  `\nmixed workload's server CPU per request against the bare route's at the same rate: ${sameRate.join(', ')}`,
);
if (bareResult.held && mixedResult.held) {
  console.log(
    `mixed workload held ${((mixedResult.held.achieved / bareResult.held.achieved) * 100).toFixed(0)}% ` +
      `of the bare route's rate; errors below the held rate: ${mixedResult.erroredBelow ? 'YES' : '0'}`,
  );
}
const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
};
console.log(
  `\nnarrative streams beside the mixed run (${STREAMS} clients, 40 chunks ${CHUNK_DELAY_MS} ms apart): ` +
    `${streamed.done} done, ${streamed.errors} errors; first byte p50 ${pct(streamed.first, 0.5).toFixed(1)} ms, ` +
    `p99 ${pct(streamed.first, 0.99).toFixed(1)} ms; whole stream p50 ${pct(streamed.total, 0.5).toFixed(0)} ms, ` +
    `p99 ${pct(streamed.total, 0.99).toFixed(0)} ms`,
);
console.log('\nserver-side mean latency by route over the whole mixed run (GET /metrics):');
for (const r of routes.sort((a, b) => b.count - a.count)) {
  console.log(
    `  ${r.route.padEnd(28)} ${String(r.count).padStart(8)} requests  ${r.meanMs.toFixed(2).padStart(7)} ms`,
  );
}
