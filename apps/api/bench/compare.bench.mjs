// Before and after in one run: this checkout's service beside another checkout's (an earlier
// commit, built), case by case, in the same minutes of the same machine. Issue 37 asks for the
// API bench after a change within 10 % of before "on the same machine"; two runs of
// api.bench.mjs minutes apart on a shared 2-core machine differ by more than that, so here the
// two services take turns: each round measures the bare route, then one service, then the other
// (the order flips every round), and each figure is that service's server CPU per request as a
// multiple of the bare run right before it. The result per case is the median over the rounds of
// after ÷ before.
//
//   git worktree add .worktrees/before <commit> && (cd .worktrees/before && pnpm install && pnpm build)
//   pnpm --filter @svc/api build
//   node apps/api/bench/compare.bench.mjs .worktrees/before
//
// BENCH_ROUNDS (default 3), BENCH_SECONDS (default 6), BENCH_WARMUP (default 3),
// BENCH_CONNECTIONS (default 8); BENCH_ONLY=<regex> keeps the cases whose key matches (without
// portfolio or MCP cases the two services start without portfolios and token: `app-light`).
// Per case it prints each service's multiple of the bare run before it, round by round and the
// median, beside after ÷ before. Run it once with a checkout against itself (A/A) before reading a
// small difference: on the shared 2-core VM at load averages of 20–40 an A/A run of 10 rounds read
// 0.81 (rounds 0.55–2.45): differences of that size are noise there. Both
// services run on PGlite (embedded) with the bench servers' data: 2,000+ cached evaluations, the
// portfolio of the four shared broker exports, 340 and 3,400 synthetic holdings, a token.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuMicros, cpuTimes, generate, median, once, start, stop } from './harness.mjs';

const other = process.argv[2];
if (!other) {
  console.error('usage: node bench/compare.bench.mjs <checkout to compare with (built)>');
  process.exit(2);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const otherScript = pathToFileURL(resolve(other, 'apps/api/bench/bench-server.mjs'));

/** The cases both services answer, by key (as api.bench.mjs names them). */
function casesOf(app, appSql) {
  const session = { cookie: app.cookie };
  const mcp = {
    authorization: `Bearer ${app.token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const call = (name, args) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
  const { p34, p340, p3400 } = app.portfolios ?? {};
  const screener =
    '/api/moat-screener?scoreMin=40&peMax=60&marketCapMin=1000000000&sortBy=marketCap&sortDir=desc&page=3&limit=20';
  const get = (server, path, headers = session) => ({ server, path, headers });
  const post = (body) => ({
    server: app,
    path: '/api/mcp/user/mcp',
    method: 'POST',
    headers: mcp,
    body,
  });
  return {
    healthz: get(app, '/healthz', {}),
    evaluation: get(app, '/api/stock-evaluation?symbol=AAPL'),
    screener: get(app, screener),
    screenerSql1: { ...get(appSql, screener, { cookie: appSql.cookie }), connections: 1 },
    quote: get(app, '/api/quote?symbol=AAPL'),
    portfolios: get(app, '/api/portfolios'),
    holdings: get(app, `/api/holdings?portfolioId=${p34}`),
    holdings340: get(app, `/api/holdings?portfolioId=${p340}`),
    holdings3400: get(app, `/api/holdings?portfolioId=${p3400}`),
    transactions: get(app, `/api/transactions?portfolioId=${p34}&limit=50`),
    mcpEvaluation: post(call('getMoatEvaluation', { symbol: 'AAPL' })),
    mcpHoldings: post(call('listHoldings', { portfolioId: p34 })),
  };
}

const withUrl = (c, name = c.path) => ({
  ...c,
  name,
  url: `http://127.0.0.1:${c.server.port}${c.path}`,
});

/** Server CPU µs per request over the measured seconds, the server's idle rate left out. */
async function cpuPerRequest(c, idle) {
  if (WARMUP > 0) await generate(c, WARMUP);
  const before = cpuTimes(c.server.child.pid);
  const run = await generate(c, SECONDS);
  const after = cpuTimes(c.server.child.pid);
  const used = after.user + after.system - (before.user + before.system);
  return Math.max(0, used - (idle.get(c.server) ?? 0) * (run.micros / 1e6)) / run.requests;
}

// the portfolios and the token (most of the `app` server's start-up) only for cases that use them
const portfolioKeys = ['portfolios', 'holdings', 'holdings340', 'holdings3400', 'transactions'];
const needsPortfolios =
  !ONLY || [...portfolioKeys, 'mcpEvaluation', 'mcpHoldings'].some((k) => ONLY.test(k));
const appMode = needsPortfolios ? 'app' : 'app-light';
const [bare, after, before, afterSql, beforeSql] = await Promise.all([
  start('bare'),
  start(appMode),
  start(appMode, [], otherScript),
  ONLY && !ONLY.test('screenerSql1') ? null : start('app-sql'),
  ONLY && !ONLY.test('screenerSql1') ? null : start('app-sql', [], otherScript),
]);
const servers = [bare, after, before, afterSql, beforeSql].filter(Boolean);
try {
  const mine = casesOf(after, afterSql ?? after);
  const theirs = casesOf(before, beforeSql ?? before);
  const keys = Object.keys(mine).filter(
    (k) => (!ONLY || ONLY.test(k)) && (k !== 'screenerSql1' || afterSql),
  );
  for (const key of keys) {
    for (const c of [mine[key], theirs[key]]) {
      const res = await once(withUrl(c, key));
      if (res.status !== 200)
        throw new Error(`${key}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
    }
  }
  const idle = new Map();
  const idleFrom = servers.map((s) => cpuMicros(s.child.pid));
  await new Promise((r) => setTimeout(r, 3000));
  for (const [i, s] of servers.entries()) idle.set(s, (cpuMicros(s.child.pid) - idleFrom[i]) / 3);

  const bareCase = withUrl({ server: bare, path: '/bare' }, 'bare');
  const rows = [];
  for (const key of keys) {
    const ratios = [];
    const figures = { after: [], before: [] };
    const multiples = { after: [], before: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? ['after', 'before'] : ['before', 'after'];
      const norm = {};
      for (const side of order) {
        const bareCpu = await cpuPerRequest(bareCase, idle);
        const c = withUrl(side === 'after' ? mine[key] : theirs[key], `${side}-${key}`);
        const cpu = await cpuPerRequest(c, idle);
        figures[side].push(cpu);
        norm[side] = cpu / bareCpu;
        multiples[side].push(norm[side]);
      }
      ratios.push(norm.after / norm.before);
    }
    rows.push({ key, after: median(figures.after), before: median(figures.before), ratios });
    const last = rows.at(-1);
    const times = (list) => list.map((r) => r.toFixed(2)).join(' ');
    console.log(
      `${key.padEnd(14)} before ${last.before.toFixed(0).padStart(6)} µs  after ${last.after.toFixed(0).padStart(6)} µs  after ÷ before (each ÷ its bare neighbour) ${median(ratios).toFixed(2)}  rounds ${times(ratios)}`,
    );
    console.log(
      `${''.padEnd(14)} × bare: before ${median(multiples.before).toFixed(2)} (${times(multiples.before)}), after ${median(multiples.after).toFixed(2)} (${times(multiples.after)})`,
    );
  }
  const within = rows.filter((r) => median(r.ratios) <= 1.1).length;
  console.log(
    `\n${within} of ${rows.length} cases within 10 % of before (median over ${ROUNDS} rounds; compared with ${other})`,
  );
} finally {
  await Promise.all(servers.map(stop));
}
