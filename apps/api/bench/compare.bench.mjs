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
// BENCH_CONNECTIONS (default 8); BENCH_ONLY=<regex> keeps the cases whose key matches (the keys
// of BENCH_CASES in harness.mjs, the table api.bench.mjs runs: all but the bare routes; without portfolio or MCP cases the two services start without
// portfolios and token: `app-light`). Per case it prints each service's multiple of the bare run
// before it, round by round and the median, beside after ÷ before. Run it once with a checkout
// against itself (A/A) before reading a small difference: on the shared 2-core VM at load averages
// of 20–40 an A/A run of 10 rounds read 0.81 (rounds 0.55–2.45): differences of that size are
// noise there. Both
// services run on PGlite (embedded) with the bench servers' data: 2,000+ cached evaluations, the
// portfolio of the four shared broker exports, 340 and 3,400 synthetic holdings, a token.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BENCH_CASES,
  caseFor,
  cpuMicros,
  cpuTimes,
  generate,
  median,
  once,
  start,
  stop,
} from './harness.mjs';

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
// checked before any server starts: a failed start would leave the others running
if (!existsSync(otherScript)) {
  console.error(`${fileURLToPath(otherScript)} is missing: give a checkout's path (built)`);
  process.exit(2);
}

/**
 * The cases to compare: those of the shared table (BENCH_CASES of harness.mjs, as api.bench.mjs
 * runs them) that the services answer, not the bare routes (the baseline of both), kept by
 * BENCH_ONLY.
 */
const KEYS = BENCH_CASES.filter((c) => c.server !== 'bare' && (!ONLY || ONLY.test(c.key)));
const needsSql = KEYS.some((c) => c.server === 'app-sql');
// the portfolios and token only when a kept case reads them (most of a server's start-up)
const appMode = KEYS.some((c) => c.portfolios) ? 'app' : 'app-light';

/** The case `entry` against one side's servers (null: that side cannot answer it). */
const sideCase = (entry, app, appSql, side) => {
  const c = caseFor(entry, entry.server === 'app-sql' ? appSql : app);
  return c && { ...c, name: `${side}-${entry.key}` };
};

/** Server CPU µs per request over the measured seconds, the server's idle rate left out. */
async function cpuPerRequest(c, idle) {
  if (WARMUP > 0) await generate(c, WARMUP);
  const before = cpuTimes(c.server.child.pid);
  const run = await generate(c, SECONDS);
  const after = cpuTimes(c.server.child.pid);
  const used = after.user + after.system - (before.user + before.system);
  return Math.max(0, used - (idle.get(c.server) ?? 0) * (run.micros / 1e6)) / run.requests;
}

const [bare, after, before, afterSql, beforeSql] = await Promise.all([
  start('bare'),
  start(appMode),
  start(appMode, [], otherScript),
  needsSql ? start('app-sql') : null,
  needsSql ? start('app-sql', [], otherScript) : null,
]);
const servers = [bare, after, before, afterSql, beforeSql].filter(Boolean);
try {
  const mine = {};
  const theirs = {};
  const keys = [];
  for (const entry of KEYS) {
    const pair = [
      sideCase(entry, after, afterSql, 'after'),
      sideCase(entry, before, beforeSql, 'before'),
    ];
    if (pair.includes(null)) {
      console.log(
        `${entry.key.padEnd(14)} left out: ${pair[0] ? other : 'this checkout'} has no bench data for it`,
      );
      continue;
    }
    for (const c of pair) {
      const res = await once(c);
      if (res.status !== 200)
        throw new Error(`${entry.key}: HTTP ${res.status} ${res.body.slice(0, 300)}`);
    }
    [mine[entry.key], theirs[entry.key]] = pair;
    keys.push(entry.key);
  }
  const idle = new Map();
  const idleFrom = servers.map((s) => cpuMicros(s.child.pid));
  await new Promise((r) => setTimeout(r, 3000));
  for (const [i, s] of servers.entries()) idle.set(s, (cpuMicros(s.child.pid) - idleFrom[i]) / 3);

  const bareCase = caseFor(BENCH_CASES[0], bare);
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
        const c = side === 'after' ? mine[key] : theirs[key];
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
