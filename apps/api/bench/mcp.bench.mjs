// MCP tool calls beside the same data through REST, in one run on one machine.
// Run after `pnpm --filter @svc/api build`: `node bench/mcp.bench.mjs` (part of `pnpm bench`).
//
// The service runs in a child process (mcp-bench-server.mjs); autocannon loads it from this
// process for BENCH_SECONDS (default 5) per case with BENCH_CONNECTIONS (default 20) connections,
// in BENCH_ROUNDS (default 2) interleaved rounds, each figure the median over the rounds:
//   MCP   POST /api/mcp/user/mcp, a JSON-RPC `tools/call` with a personal access token, as an
//         agent's streamable-HTTP client sends it (stateless server: one POST per call, JSON
//         answer): getMoatEvaluation {symbol: AAPL} (cached) and listHoldings {portfolioId}
//   REST  GET /api/stock-evaluation?symbol=AAPL (cached) and GET /api/holdings?portfolioId=…
//         with the session cookie
// Before measuring, each case is called once and checked: MCP answers a result (not isError)
// whose structuredContent holds the same data as the REST answer.
import { fork } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const child = fork(new URL('./mcp-bench-server.mjs', import.meta.url), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const server = await new Promise((resolve, reject) => {
  child.once('error', reject);
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  child.once('message', resolve);
});
const base = `http://127.0.0.1:${server.port}`;

const mcpHeaders = {
  authorization: `Bearer ${server.token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const toolCall = (name, args) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
const holdingsQuery = `portfolioId=${server.portfolioId}`;

const CASES = [
  {
    name: 'MCP getMoatEvaluation (cached)',
    url: `${base}/api/mcp/user/mcp`,
    method: 'POST',
    headers: mcpHeaders,
    body: toolCall('getMoatEvaluation', { symbol: 'AAPL' }),
  },
  {
    name: 'REST GET /api/stock-evaluation',
    url: `${base}/api/stock-evaluation?symbol=AAPL`,
    method: 'GET',
    headers: { cookie: server.cookie },
  },
  {
    name: 'MCP listHoldings',
    url: `${base}/api/mcp/user/mcp`,
    method: 'POST',
    headers: mcpHeaders,
    body: toolCall('listHoldings', { portfolioId: server.portfolioId }),
  },
  {
    name: 'REST GET /api/holdings',
    url: `${base}/api/holdings?${holdingsQuery}`,
    method: 'GET',
    headers: { cookie: server.cookie },
  },
];

/** One call of a case: the parsed data (structuredContent for MCP), checked for success. */
async function once(c) {
  const res = await fetch(c.url, { method: c.method, headers: c.headers, body: c.body });
  if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${await res.text()}`);
  const json = await res.json();
  if (c.body === undefined) return json;
  if (json.error !== undefined || json.result.isError) {
    throw new Error(`${c.name}: ${JSON.stringify(json.error ?? json.result.content)}`);
  }
  return json.result.structuredContent;
}

const answers = [];
for (const c of CASES) answers.push(await once(c));
const same = isDeepStrictEqual;
/** Stops the server and fails the run: the cases must answer the same data before measuring. */
function disagree(what) {
  child.removeAllListeners('exit');
  child.kill();
  throw new Error(`MCP and REST disagree on ${what}`);
}
const { _cachedAt: _a, ...evaluationViaMcp } = answers[0];
const { _cachedAt: _b, ...evaluationViaRest } = answers[1];
if (answers[0]._cached !== true || !same(evaluationViaMcp, evaluationViaRest)) {
  disagree('the cached evaluation');
}
if (answers[2].holdings.length !== 3 || !same(answers[2].holdings, answers[3])) {
  disagree('the holdings');
}

/** Runs autocannon for one case and returns req/s, latency percentiles (ms) and body size. */
async function measure(c) {
  const result = await autocannon({
    url: c.url,
    method: c.method,
    headers: c.headers,
    body: c.body,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${c.name}: ${bad} failed requests (non-2xx, errors or timeouts)`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: Math.round(result.throughput.average / Math.max(1, result.requests.average)),
  };
}

const runs = CASES.map(() => []);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [i, c] of CASES.entries()) runs[i]?.push(await measure(c));
}
child.removeAllListeners('exit');
const exited = new Promise((resolve) => child.once('exit', resolve));
child.send('close');
await exited;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const results = CASES.map((c, i) => ({
  name: c.name,
  rps: median(runs[i].map((r) => r.rps)),
  p50: median(runs[i].map((r) => r.p50)),
  p99: median(runs[i].map((r) => r.p99)),
  bytes: runs[i][0].bytes,
}));

console.log(
  `\nMCP beside REST: Node ${process.version}, ${server.dialect}, ${CONNECTIONS} connections, ` +
    `${SECONDS} s per case, median of ${ROUNDS} interleaved rounds\n`,
);
console.log(
  [
    'case'.padEnd(32),
    'calls/s'.padStart(9),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'bytes'.padStart(6),
  ].join(' '),
);
for (const c of results) {
  console.log(
    [
      c.name.padEnd(32),
      c.rps.toFixed(0).padStart(9),
      String(c.p50).padStart(7),
      String(c.p99).padStart(7),
      String(c.bytes).padStart(6),
    ].join(' '),
  );
}
const [evaluationMcp, evaluationRest, holdingsMcp, holdingsRest] = results;
console.log(
  `\nMCP over REST: getMoatEvaluation ${((evaluationMcp.rps / evaluationRest.rps) * 100).toFixed(0)}% ` +
    `of the REST throughput, listHoldings ${((holdingsMcp.rps / holdingsRest.rps) * 100).toFixed(0)}%`,
);
