// The AI streams with a loopback model (`pnpm --filter @svc/api bench:ai`, after `build`): time
// to first byte of the narrative stream and of an advisor turn, the service's own cost per
// streamed chunk (stream through the service minus the same stream read from the model
// directly), and the service's memory with BENCH_STREAMS (200) concurrent streams open.
// The model is @svc/advisor's fake OpenAI-compatible server in this process; the service runs
// in a child process (its own event loop and heap).
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { startFakeOpenAI, textSteps, toolCallSteps } from '@svc/service/testing';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 2000);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);

const words = (n) => Array.from({ length: n }, (_, i) => (i === 0 ? '## Summary\n' : ` w${i}`));
let mode = 'short';
const fake = await startFakeOpenAI({
  script: (request) => {
    if (mode === 'long') return { steps: textSteps(words(CHUNKS)) };
    if (mode === 'hold')
      return {
        steps: [
          ...textSteps(words(3)).slice(0, 3),
          { delayMs: 4000 },
          ...textSteps(words(3)).slice(3),
        ],
      };
    if (request.body.tools && !request.body.messages.some((m) => m.role === 'tool')) {
      return { steps: toolCallSteps([{ name: 'listHoldings', arguments: '{}' }]) };
    }
    return { steps: textSteps(words(20)) };
  },
});

const child = fork(new URL('./ai-bench-server.mjs', import.meta.url), [], {
  env: { ...process.env, OPENAI_BASE_URL: fake.url },
});
const [info] = await once(child, 'message');
const base = `http://127.0.0.1:${info.port}`;
const headers = { cookie: info.cookie, origin: info.origin, 'content-type': 'application/json' };
const narrativeBody = JSON.stringify({ evaluation: info.evaluation });
const chatBody = JSON.stringify({ messages: [{ role: 'user', content: 'What do I hold?' }] });

/** ms to the first body byte, and to the end, of one request. */
async function timed(url, body, init = headers) {
  const start = performance.now();
  const res = await fetch(url, { method: 'POST', headers: init, body });
  const reader = res.body.getReader();
  let first;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    first ??= performance.now() - start;
    bytes += value.length;
  }
  return { first, total: performance.now() - start, bytes };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const direct = (stream) =>
  timed(`${fake.url}/chat/completions`, JSON.stringify({ model: 'x', stream, messages: [] }), {
    'content-type': 'application/json',
  });

mode = 'short';
const ttfb = { model: [], narrative: [], chat: [] };
for (let i = 0; i < RUNS; i += 1) {
  ttfb.model.push((await direct(true)).first);
  ttfb.narrative.push((await timed(`${base}/api/stock-evaluation/ai`, narrativeBody)).first);
  ttfb.chat.push((await timed(`${base}/api/advisor/chat`, chatBody)).first);
}

mode = 'long';
const through = [];
const bare = [];
for (let i = 0; i < Math.max(3, RUNS / 5); i += 1) {
  bare.push((await direct(true)).total);
  through.push((await timed(`${base}/api/stock-evaluation/ai`, narrativeBody)).total);
}

mode = 'hold';
child.send('memory');
const [{ memory: idle }] = await once(child, 'message');
const open = Array.from({ length: STREAMS }, () =>
  fetch(`${base}/api/stock-evaluation/ai`, { method: 'POST', headers, body: narrativeBody }),
);
const responses = await Promise.all(open);
await new Promise((r) => setTimeout(r, 1500));
child.send('memory');
const [{ memory: busy }] = await once(child, 'message');
await Promise.all(responses.map((r) => r.text()));

const mb = (b) => (b / 1024 / 1024).toFixed(1);
console.log(`runs ${RUNS}; median ms`);
console.log(`TTFB model direct        ${median(ttfb.model).toFixed(2)}`);
console.log(`TTFB narrative stream    ${median(ttfb.narrative).toFixed(2)}`);
console.log(`TTFB advisor turn        ${median(ttfb.chat).toFixed(2)}`);
const perChunk = ((median(through) - median(bare)) / CHUNKS) * 1000;
console.log(
  `${CHUNKS}-chunk stream: direct ${median(bare).toFixed(1)} ms, through the service ${median(through).toFixed(1)} ms → ${perChunk.toFixed(1)} µs per chunk`,
);
console.log(`memory idle: rss ${mb(idle.rss)} MB, heap ${mb(idle.heapUsed)} MB`);
console.log(
  `memory with ${STREAMS} open streams: rss ${mb(busy.rss)} MB, heap ${mb(busy.heapUsed)} MB (${((busy.rss - idle.rss) / STREAMS / 1024).toFixed(0)} kB rss per stream)`,
);
child.send('close');
await once(child, 'exit');
await fake.close();
