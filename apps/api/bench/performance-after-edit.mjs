// Issue 30: the performance of a portfolio of 50 holdings × 10 years (8,600+ transactions, ECB
// rates, daily closes) right after an edit deep in the past (its first purchase, 2014-03-03):
// the server CPU of `GET /api/portfolios/{id}/performance` once the edit made the cached timeline
// stale. Aim: ≤ 100 ms of server CPU. Run by api.bench.mjs at its end (BENCH_ONLY: the key
// `performanceAfterEdit`), or alone after `pnpm --filter @svc/api build`:
//   node bench/performance-after-edit.mjs     (BENCH_DATABASE_URL for PostgreSQL, else PGlite)
// BENCH_EDITS (default 15) edits, each followed by one measured read; the CPU is the server
// process's own (`process.cpuUsage()` asked over IPC right before and after the read), the read
// alone: the edit and its revaluation have finished before. Printed beside it: the same read
// again without an edit (the cached timeline) and the edit's own time. BENCH_CPU_PROF=<dir>
// takes a V8 CPU profile of the server over each measured read (after-edit-<i>.cpuprofile,
// cached-<i>.cpuprofile; profiling adds its own cost: take the figures from a run without it).
import { fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ask } from './harness.mjs';

const EDITS = Number(process.env.BENCH_EDITS ?? 15);
const CPU_PROF = process.env.BENCH_CPU_PROF;

function start() {
  const child = fork(new URL('./bench-server.mjs', import.meta.url), ['performance'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`performance server exited with ${code}`)));
    child.once('message', (info) => resolve({ ...info, child }));
  });
}

/** The server process's CPU µs so far. */
function cpuOf(server) {
  return new Promise((resolve) => {
    const answered = (reply) => {
      if (typeof reply !== 'object' || reply.cpu === undefined) return;
      server.child.off('message', answered);
      resolve(reply.cpu);
    };
    server.child.on('message', answered);
    server.child.send('cpu');
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * Starts the performance server, runs the edits and reads, stops it; answers the figures
 * (milliseconds) and prints them.
 */
export async function performanceAfterEdit() {
  const started = Date.now();
  const server = await start();
  const ready = ((Date.now() - started) / 1000).toFixed(1);
  const { portfolioId, transactionId, transactions } = server.performance;
  const base = `http://127.0.0.1:${server.port}`;
  const headers = { cookie: server.cookie, origin: server.origin };
  const read = async (profileAs) => {
    if (CPU_PROF && profileAs) await ask(server, { profile: 'start' });
    const before = await cpuOf(server);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/portfolios/${portfolioId}/performance`, { headers });
    const body = await res.json();
    const wall = performance.now() - t0;
    const cpu = ((await cpuOf(server)) - before) / 1000;
    if (CPU_PROF && profileAs) {
      mkdirSync(CPU_PROF, { recursive: true });
      await ask(server, { profile: 'stop', file: join(CPU_PROF, `${profileAs}.cpuprofile`) });
    }
    if (res.status !== 200) throw new Error(`performance: ${res.status} ${JSON.stringify(body)}`);
    if (body.holdings.length !== 50)
      throw new Error(`performance: ${body.holdings.length} holdings`);
    return { cpu, wall, twr: body.returns.twr };
  };
  try {
    const cold = await read();
    const afterEdit = [];
    const cached = [];
    const edits = [];
    for (let i = 0; i < EDITS; i += 1) {
      const t0 = performance.now();
      const edited = await fetch(
        `${base}/api/portfolios/${portfolioId}/transactions/${transactionId}`,
        {
          method: 'PATCH',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ quantity: i % 2 === 0 ? '11' : '10' }),
        },
      );
      if (edited.status !== 200) throw new Error(`edit: ${edited.status} ${await edited.text()}`);
      edits.push(performance.now() - t0);
      afterEdit.push(await read(`after-edit-${i}`));
      cached.push(await read(`cached-${i}`));
    }
    const figures = {
      transactions,
      cold: cold.cpu,
      afterEditCpu: median(afterEdit.map((r) => r.cpu)),
      afterEditWall: median(afterEdit.map((r) => r.wall)),
      afterEditMax: Math.max(...afterEdit.map((r) => r.cpu)),
      cachedCpu: median(cached.map((r) => r.cpu)),
      editWall: median(edits),
    };
    console.log(
      `\nperformance after an edit deep in the past (issue 30): 50 holdings × 10 years, ` +
        `${transactions} transactions (server ready in ${ready} s), median of ${EDITS} edits\n` +
        `  first read after start (cold)         ${figures.cold.toFixed(1)} ms CPU\n` +
        `  read after an edit of 2014-03-03      ${figures.afterEditCpu.toFixed(1)} ms CPU ` +
        `(max ${figures.afterEditMax.toFixed(1)}), ${figures.afterEditWall.toFixed(1)} ms wall\n` +
        `  the same read again (cached timeline) ${figures.cachedCpu.toFixed(1)} ms CPU\n` +
        `  the edit itself (PATCH, revaluation)  ${figures.editWall.toFixed(1)} ms wall\n` +
        `${figures.afterEditCpu <= 100 ? 'met ' : 'MISS'}  performance after an edit: ` +
        `${figures.afterEditCpu.toFixed(1)} ms server CPU (aim ≤ 100)`,
    );
    return figures;
  } finally {
    server.child.removeAllListeners('exit');
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.send('close');
    await exited;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await performanceAfterEdit();
