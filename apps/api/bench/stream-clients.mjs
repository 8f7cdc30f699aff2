// The narrative-stream side of load.bench.mjs, in a child process of its own so that neither the
// model nor these clients share an event loop with the load generator (autocannon) whose
// latencies they would otherwise inflate. It starts the loopback model (@svc/advisor's fake
// OpenAI-compatible server: 40 chunks BENCH_CHUNK_DELAY_MS apart) and reports { modelUrl }; on
// { start: { url, headers, body, clients } } it opens that many streams back to back; on 'stop'
// it reports { done, errors, first, total } (times in ms to the first byte and to the end). A
// stream counts as done when it ends with `event: done`; any other status, an `event: error` or
// a cut is an error.
import { startFakeOpenAI, textSteps } from '@svc/service/testing';

const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 5);
const words = Array.from({ length: 40 }, (_, i) => (i === 0 ? '## Summary\n' : ` word${i}`));
const paced = textSteps(words).flatMap((step) => [step, { delayMs: CHUNK_DELAY_MS }]);
const model = await startFakeOpenAI({ script: () => ({ steps: paced }) });

const first = [];
const total = [];
let errors = 0;
let running = false;
let clients = [];

async function client({ url, headers, body }) {
  while (running) {
    const start = performance.now();
    try {
      const res = await fetch(url, { method: 'POST', headers, body });
      let text = '';
      let firstByte;
      const decoder = new TextDecoder();
      for await (const chunk of res.body) {
        firstByte ??= performance.now() - start;
        text += decoder.decode(chunk, { stream: true });
      }
      if (res.status !== 200 || !text.includes('event: done')) {
        errors += 1;
        continue;
      }
      first.push(firstByte);
      total.push(performance.now() - start);
    } catch {
      errors += 1;
    }
  }
}

process.on('message', async (message) => {
  if (message?.start) {
    running = true;
    clients = Array.from({ length: message.start.clients }, () => client(message.start));
  } else if (message === 'count') {
    process.send({ count: total.length });
  } else if (message === 'stop') {
    running = false;
    await Promise.all(clients);
    await model.close();
    process.send({ stopped: { done: total.length, errors, first, total } });
    process.exit(0);
  }
});
process.send({ modelUrl: model.url });
