// What the API benches share: the table of cases (api.bench.mjs and compare.bench.mjs read the
// same one), the CPU times of a server process from /proc, the load generator (wrk, or
// autocannon in a process of its own), one request on a new connection, and the bench servers
// (bench-server.mjs, or another checkout's) in child processes.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

/** Clock ticks per second of /proc's CPU times. */
export const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** utime + stime of a process in µs (0 when it is gone). */
export function cpuMicros(pid) {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** utime and stime of a process in µs, apart (0 when it is gone). */
export function cpuTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: (Number(fields[11]) * 1e6) / TICKS, system: (Number(fields[12]) * 1e6) / TICKS };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** `wrk` when installed, else installed with apt-get when this user can, else null (autocannon). */
export function findWrk() {
  const has = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (process.env.BENCH_GENERATOR === 'autocannon') return null;
  if (has()) return 'wrk';
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0) {
    console.error('bench: installing wrk (apt-get install -y wrk)');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore' });
    if (has()) return 'wrk';
  }
  console.error('bench: wrk not available; autocannon runs in a process of its own instead');
  return null;
}
export const WRK = findWrk();
export const scratch = mkdtempSync(join(tmpdir(), 'svc-api-bench-'));

/** The Lua script of a case for wrk: method, headers, body; `done` prints the figures as JSON. */
export function wrkScript(c) {
  const lua = [
    `wrk.method = ${JSON.stringify(c.method ?? 'GET')}`,
    ...Object.entries(c.headers ?? {}).map(
      ([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
    ),
    c.body === undefined ? '' : `wrk.body = ${JSON.stringify(c.body)}`,
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nBENCH {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"bad":%d,"bytes":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
    '    e.connect + e.read + e.write + e.status + e.timeout, summary.bytes))',
    'end',
  ];
  const file = join(scratch, `${c.name.replace(/\W+/g, '-')}.lua`);
  writeFileSync(file, lua.join('\n'));
  return file;
}

/** Runs the generator against a case for `seconds`; answers requests, req/s, p50/p99 ms. */
export function generate(c, seconds) {
  return new Promise((resolve, reject) => {
    const args = WRK
      ? [
          '-t1',
          `-c${c.connections ?? CONNECTIONS}`,
          `-d${seconds}s`,
          '--timeout',
          '30s',
          '-s',
          wrkScript(c),
          c.url,
        ]
      : [
          join(import.meta.dirname, 'autocannon-run.mjs'),
          JSON.stringify({ ...c, connections: c.connections ?? CONNECTIONS, seconds }),
        ];
    const child = spawn(WRK ?? process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH '));
      if (!line) return reject(new Error(`${c.name}: no figures from the generator:\n${out}`));
      const r = JSON.parse(line.slice(6));
      if (r.bad > 0) return reject(new Error(`${c.name}: ${r.bad} failed requests`));
      resolve({
        requests: r.requests,
        micros: r.micros,
        rps: r.requests / (r.micros / 1e6),
        p50: r.p50 / 1000,
        p99: r.p99 / 1000,
        bytes: Math.round(r.bytes / Math.max(1, r.requests)),
      });
    });
  });
}

/** One request on a new connection: status, body and milliseconds to the last byte. */
export function once(c) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(
      c.url,
      { method: c.method ?? 'GET', headers: c.headers, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

/** Starts a bench server in a child process and waits for its { port, cookie, ... }. */
export function start(
  mode,
  execArgv = [],
  script = new URL('./bench-server.mjs', import.meta.url),
) {
  const child = fork(script, [mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.once('message', (info) => resolve({ ...info, child }));
  });
}

/** Sends a bench server a message and waits for its `{ profiled }` answer. */
export function ask(server, message) {
  return new Promise((resolve) => {
    const answered = (reply) => {
      if (typeof reply !== 'object' || reply.profiled === undefined) return;
      server.child.off('message', answered);
      resolve(reply);
    };
    server.child.on('message', answered);
    server.child.send(message);
  });
}

export async function stop(server) {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('close');
  await exited;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The screener page every screener case asks for. */
const SCREENER_QUERY =
  'scoreMin=40&peMax=60&marketCapMin=1000000000&sortBy=marketCap&sortDir=desc&page=3&limit=20';

/** A JSON-RPC `tools/call` of the MCP endpoint. */
const toolCall = (name, args) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });

/** A path (or body) naming the bench portfolio `id`; null when the server has none by that name. */
const withPortfolio = (id, f) => (portfolios) =>
  portfolios?.[id] === undefined ? null : f(portfolios[id]);

/**
 * Every case of the API benches, by key: the one list (BENCH_ONLY matches these keys). Each names
 * the server that answers it (`bare`: the bare Fastify routes; `app`: the service; `app-sql`: the
 * service without the screener memo), how it signs in (`session` cookie, `token` for MCP, none),
 * its path and body (functions of the server's bench portfolios `p34`, `p340`, `p3400`, `p50`),
 * and `portfolios: true` when it needs the `app` server's portfolios and token (else `app-light`
 * serves it). `connections` overrides BENCH_CONNECTIONS.
 */
export const BENCH_CASES = [
  { key: 'bare', name: 'bare Fastify route', server: 'bare', path: '/bare' },
  { key: 'bare8k', name: 'bare route, 8 kB body', server: 'bare', path: '/bare-8k' },
  { key: 'healthz', name: '/healthz (plugin stack)', server: 'app', path: '/healthz' },
  {
    key: 'evaluation',
    name: 'cached stock-evaluation',
    server: 'app',
    auth: 'session',
    path: '/api/stock-evaluation?symbol=AAPL',
  },
  {
    key: 'screener',
    name: 'moat-screener (memo)',
    server: 'app',
    auth: 'session',
    path: `/api/moat-screener?${SCREENER_QUERY}`,
  },
  {
    key: 'screenerSql',
    name: 'moat-screener SQL',
    server: 'app-sql',
    auth: 'session',
    path: `/api/moat-screener?${SCREENER_QUERY}`,
  },
  {
    key: 'screenerSql1',
    name: 'moat-screener SQL, 1 conn',
    server: 'app-sql',
    auth: 'session',
    path: `/api/moat-screener?${SCREENER_QUERY}`,
    connections: 1,
  },
  { key: 'quote', name: 'quote', server: 'app', auth: 'session', path: '/api/quote?symbol=AAPL' },
  {
    key: 'portfolios',
    name: 'portfolios',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: '/api/portfolios',
  },
  {
    key: 'holdings',
    name: 'holdings (33)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p34', (id) => `/api/holdings?portfolioId=${id}`),
  },
  {
    key: 'holdings340',
    name: 'holdings (340)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p340', (id) => `/api/holdings?portfolioId=${id}`),
  },
  {
    key: 'holdings3400',
    name: 'holdings (3,400)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p3400', (id) => `/api/holdings?portfolioId=${id}`),
  },
  {
    key: 'holdings50',
    name: 'holdings (50 cached cos.)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p50', (id) => `/api/holdings?portfolioId=${id}`),
  },
  {
    key: 'xray50',
    name: 'X-ray (50, warm cache)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p50', (id) => `/api/portfolios/${id}/xray`),
  },
  {
    key: 'transactions',
    name: 'transactions (page of 50)',
    server: 'app',
    auth: 'session',
    portfolios: true,
    path: withPortfolio('p34', (id) => `/api/transactions?portfolioId=${id}&limit=50`),
  },
  {
    key: 'mcpEvaluation',
    name: 'MCP getMoatEvaluation',
    server: 'app',
    auth: 'token',
    portfolios: true,
    path: '/api/mcp/user/mcp',
    method: 'POST',
    body: toolCall('getMoatEvaluation', { symbol: 'AAPL' }),
  },
  {
    key: 'mcpHoldings',
    name: 'MCP listHoldings (33)',
    server: 'app',
    auth: 'token',
    portfolios: true,
    path: '/api/mcp/user/mcp',
    method: 'POST',
    body: withPortfolio('p34', (portfolioId) => toolCall('listHoldings', { portfolioId })),
  },
  {
    key: 'mcpToolsList',
    name: 'MCP tools/list',
    server: 'app',
    auth: 'token',
    portfolios: true,
    path: '/api/mcp/user/mcp',
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  },
];

/**
 * A case of {@link BENCH_CASES} as the generator and `once` take it, against `server` (a started
 * bench server: `{ port, cookie, token, portfolios }`): `{ key, name, server, path, url, method,
 * headers, body, connections }`; null when that server cannot answer it (it has no bench
 * portfolio the case names, as an older checkout's may not).
 */
export function caseFor(entry, server) {
  const value = (v) => (typeof v === 'function' ? v(server.portfolios) : v);
  const path = value(entry.path);
  const body = value(entry.body);
  if (path === null || body === null) return null;
  const headers =
    entry.auth === 'session'
      ? { cookie: server.cookie }
      : entry.auth === 'token'
        ? {
            authorization: `Bearer ${server.token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          }
        : {};
  return {
    key: entry.key,
    name: entry.name,
    server,
    path,
    url: `http://127.0.0.1:${server.port}${path}`,
    method: entry.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
    ...(entry.connections === undefined ? {} : { connections: entry.connections }),
  };
}
