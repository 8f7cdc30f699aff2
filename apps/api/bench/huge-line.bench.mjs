// One huge line from the model endpoint (`pnpm --filter @svc/api bench:huge-line`, after
// `build`): the worst /healthz latency while an advisor turn reads a 5, 10 and 20 MiB SSE line,
// with the service's byte bounds (AI_MAX_LINE_BYTES, default 256 KiB) and, in the same run, with
// the bounds lifted to their maximum (64 MiB: what the SDK alone does). The model is
// @svc/advisor's fake server in this process; each service runs in a child process.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { startFakeOpenAI, textSteps } from '@svc/service/testing';

const SIZES_MIB = (process.env.BENCH_SIZES_MIB ?? '5,10,20').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

let lineMiB = 0;
const fake = await startFakeOpenAI({
  script: () => ({
    steps: [
      ...textSteps('Before the flood. ').slice(0, -1),
      {
        raw: `data: {"choices":[{"index":0,"delta":{"content":"${'A'.repeat(lineMiB << 20)}"}}]}\n\n`,
      },
      ...textSteps(' After.').slice(-1),
    ],
  }),
});

async function service(env) {
  const child = fork(new URL('./ai-bench-server.mjs', import.meta.url), [], {
    env: { ...process.env, OPENAI_BASE_URL: fake.url, ...env },
  });
  const [info] = await once(child, 'message');
  return { child, info, base: `http://127.0.0.1:${info.port}` };
}

/** Worst /healthz latency (ms) while one advisor turn runs, and the turn's own time. */
async function worstHealthz({ base, info }) {
  const headers = { cookie: info.cookie, origin: info.origin, 'content-type': 'application/json' };
  const started = performance.now();
  let finished = false;
  const turn = fetch(`${base}/api/advisor/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ messages: [{ role: 'user', content: 'What do I hold?' }] }),
  })
    .then((r) => r.text())
    .finally(() => {
      finished = true;
    });
  let worst = 0;
  while (!finished) {
    const t = performance.now();
    await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
    worst = Math.max(worst, performance.now() - t);
    await new Promise((r) => setTimeout(r, 5));
  }
  const body = await turn;
  const ending = /"finishReason":"(\w+)"/.exec(body)?.[1] ?? /"code":"(\w+)"/.exec(body)?.[1];
  return { worst, turnMs: performance.now() - started, ending };
}

const rows = [];
for (const [label, env] of [
  ['bounded (default)', {}],
  [
    'unbounded (64 MiB)',
    { AI_MAX_LINE_BYTES: String(64 << 20), AI_MAX_ANSWER_BYTES: String(1 << 30) },
  ],
]) {
  const svc = await service(env);
  for (const size of SIZES_MIB) {
    lineMiB = size;
    let worst = 0;
    let turnMs = 0;
    let ending;
    for (let i = 0; i < RUNS; i += 1) {
      const r = await worstHealthz(svc);
      worst = Math.max(worst, r.worst);
      turnMs = Math.max(turnMs, r.turnMs);
      ending = r.ending;
    }
    rows.push({
      service: label,
      lineMiB: size,
      worstHealthzMs: worst.toFixed(1),
      worstTurnMs: turnMs.toFixed(0),
      ending,
    });
  }
  svc.child.send('close');
  await once(svc.child, 'exit');
}
await fake.close();
console.table(rows);
