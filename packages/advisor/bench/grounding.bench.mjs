// The figure check (grounding) of an answer: a normal answer beside the worst cases we could
// construct within the answer bound (AI_MAX_ANSWER_CHARS, default 20,000 characters).
//   one-shot: groundText over the whole answer (what a report of a stored answer costs);
//   turn: the whole advisor turn against the fake OpenAI-compatible server (in its own process)
//         on a loopback socket, the answer sent as one chunk and as 4-character chunks, with the
//         longest gap of a 1 ms ticker during the turn: the longest the event loop was blocked,
//         what any other request of the process would have waited (SDK parsing included).
// Run after `pnpm turbo run build --filter=@svc/advisor...`:  pnpm --filter @svc/advisor bench
// Env: BENCH_RUNS (5) one-shot runs per case (the median is printed).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { z } from 'zod';
import {
  dataFacts,
  evaluationFacts,
  Grounder,
  groundText,
  mergeFacts,
  runAdvisorTurn,
} from '../dist/index.js';
import { MCD } from '../test/fixtures/mcd.ts';

const MAX = 20_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const fill = (unit) => unit.repeat(Math.floor(MAX / unit.length));

const NORMAL = [
  '## Summary',
  '',
  'McDonald’s scores 64.8 of 87.5 points (74%): 4 of 7 criteria pass and 3 warn. Its median ROIC',
  'is 26.5% and its median net margin 27.3% (31.7% in FY2024); EPS grew 9.5% a year. The gross',
  'margin is not available. Debt is 5.0 years of net income, capex 34.7% of net income.',
  '',
  '| symbol | totalScore | maxScore |',
  '| --- | --- | --- |',
  '| MCD | 64.82 | 87.5 |',
  '',
  'You hold 12 MCD shares worth €3,120.00 (41.5% of your portfolio).',
].join('\n');

const CASES = [
  ['normal answer (≈700 chars)', NORMAL],
  ['" 42%" × 5,000, one sentence (issue 32)', fill(' 42%')],
  ['"1 " × 10,000 (most figures)', fill('1 ')],
  ['"ROIC 26.5% " metric and figure, one sentence', fill('ROIC 26.5% ')],
  ['"Apple’s ROIC 1% " unknown subjects', fill('Apple’s ROIC 1% ')],
  ['"MCD 1 share " subject, metric, count', fill('MCD 1 share ')],
  [
    'table rows "|1|2|3|4|\\n"',
    `| quantity | weight | a | b |\n| --- | --- | --- | --- |\n${fill('|1|2|3|4|\n')}`,
  ],
  ['one digit run of 20,000', '1'.repeat(MAX)],
  ['"median above 50 % declined " words', fill('median net margin above 50 % declined 9 % ')],
];

function holdings(n) {
  return Array.from({ length: n }, (_, i) => ({
    symbol: `S${i}`,
    name: `Company ${i}`,
    quantity: String(i + 1),
    currency: 'USD',
    marketValueEur: (100 + i).toFixed(2),
    weight: (1 / n).toFixed(6),
  }));
}

function factsOf(rows) {
  const set = evaluationFacts(MCD);
  mergeFacts(set, dataFacts(holdings(rows), 'listHoldings'));
  return set;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The text pushed 4 characters at a time, as a model streams it: total and longest push. */
function streamed(text, facts) {
  const grounder = new Grounder(facts);
  let longest = 0;
  const start = performance.now();
  for (let at = 0; at < text.length; at += 4) {
    const t = performance.now();
    grounder.push(text.slice(at, at + 4));
    longest = Math.max(longest, performance.now() - t);
  }
  const t = performance.now();
  grounder.end();
  longest = Math.max(longest, performance.now() - t);
  return { ms: performance.now() - start, longest, work: grounder.work };
}

function oneShot(text, facts) {
  const times = [];
  let report;
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    report = groundText(text, facts);
    times.push(performance.now() - start);
  }
  return { ms: median(times), figures: report.total };
}

/** Starts the fake server in a child process answering `pieces`; resolves its URL and a stop. */
async function childServer(pieces) {
  const dir = mkdtempSync(join(tmpdir(), 'grounding-bench-'));
  const file = join(dir, 'answer.json');
  writeFileSync(file, JSON.stringify({ pieces }));
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fake-server.mjs'), file], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = await once(child.stdout, 'data');
  return {
    url: String(line).trim(),
    stop: async () => {
      child.stdin.end();
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function turn(text, pieceChars) {
  const pieces = [];
  for (let at = 0; at < text.length; at += pieceChars) pieces.push(text.slice(at, at + pieceChars));
  const server = await childServer(pieces);
  const endpoint = {
    client: new OpenAI({ baseURL: server.url, apiKey: 'sk-bench', maxRetries: 0 }),
    model: 'bench',
    acceptsImages: false,
    maxOutputTokens: 8000,
    idleTimeoutMs: 10_000,
    maxOutputChars: MAX,
  };
  const tool = {
    name: 'listHoldings',
    description: 'holdings',
    parameters: z.object({}),
    run: async () => ({ data: holdings(1000) }),
  };
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  let done;
  for await (const frame of runAdvisorTurn({
    endpoint,
    messages: [{ role: 'user', content: 'Tell me about MCD.' }],
    tools: [tool],
    signal: new AbortController().signal,
    now: () => new Date(),
  })) {
    if (frame.type === 'done' || frame.type === 'error') done = frame;
  }
  const ms = performance.now() - start;
  longest = Math.max(longest, performance.now() - last);
  clearInterval(ticker);
  await server.stop();
  return { ms, maxBlockMs: longest, figures: done?._grounding?.total ?? 0 };
}

const fmt = (n, d = 1) => n.toFixed(d).padStart(8);
console.log(`grounding bench, answers of at most ${MAX} characters, node ${process.version}`);
for (const rows of [0, 1000]) {
  const facts = factsOf(rows);
  console.log(
    `\none-shot groundText, facts: MCD evaluation + ${rows} holdings (${facts.facts.length} facts)`,
  );
  console.log(
    '  case                                              chars  figures  one-shot ms | 4-char pushes: total ms  longest push ms  work/char',
  );
  for (const [name, text] of CASES) {
    const { ms, figures } = oneShot(text, facts);
    const s = streamed(text, facts);
    console.log(
      `  ${name.padEnd(48)} ${String(text.length).padStart(6)} ${String(figures).padStart(8)} ${fmt(ms, 2)}    | ${fmt(s.ms, 2)} ${fmt(s.longest, 2)} ${fmt(s.work / text.length, 1)}`,
    );
  }
}

console.log(
  '\nadvisor turn on a loopback socket (no tools called), answer in one chunk / in 4-char chunks',
);
console.log(
  '  case                                              chunk   figures  turn ms  longest event-loop block ms',
);
await turn(NORMAL, 4); // warm-up
for (const [name, text] of CASES.slice(0, 4)) {
  for (const piece of [MAX, 4]) {
    const r = await turn(text, piece);
    console.log(
      `  ${name.padEnd(48)} ${String(piece).padStart(6)} ${String(r.figures).padStart(8)} ${fmt(r.ms)} ${fmt(r.maxBlockMs, 2)}`,
    );
  }
}
