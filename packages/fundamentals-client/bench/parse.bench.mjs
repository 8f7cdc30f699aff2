#!/usr/bin/env node
// Parse benchmark: ms to turn the largest real companyfacts document (~4 MB) into Fundamentals,
// next to a bare JSON.parse of the same bytes. Run after `pnpm build` (it imports dist/).
// Data: shared/data/fundamentals/raw/companyfacts (override with SHARED_DATA_DIR).
// Usage: node bench/parse.bench.mjs [runs]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCompanyFacts } from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = resolve(process.env.SHARED_DATA_DIR ?? join(here, '../../../../shared/data'));
const dir = join(dataDir, 'fundamentals/raw/companyfacts');
const runs = Number(process.argv[2] ?? 30);

const files = readdirSync(dir)
  .filter((n) => n.endsWith('.json'))
  .map((n) => ({ name: n, bytes: statSync(join(dir, n)).size }))
  .sort((a, b) => b.bytes - a.bytes);
const largest = files[0];
const text = readFileSync(join(dir, largest.name), 'utf8');
const ticker = largest.name.split('_')[0];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function time(fn) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

// Warm up the JIT on a few files first.
for (const f of files.slice(0, 5)) {
  parseCompanyFacts(JSON.parse(readFileSync(join(dir, f.name), 'utf8')), {
    ticker: f.name.split('_')[0],
  });
}

const json = JSON.parse(text);
const jsonParse = time(() => JSON.parse(text));
const parse = time(() => parseCompanyFacts(json, { ticker }));
const both = time(() => parseCompanyFacts(JSON.parse(text), { ticker }));
const years = parseCompanyFacts(json, { ticker }).years.length;

// Whole data set once, for context.
let totalMs = 0;
for (const f of files) {
  const j = JSON.parse(readFileSync(join(dir, f.name), 'utf8'));
  const t0 = performance.now();
  parseCompanyFacts(j, { ticker: f.name.split('_')[0] });
  totalMs += performance.now() - t0;
}

const row = (label, xs) =>
  `| ${label.padEnd(38)} | ${median(xs).toFixed(2).padStart(9)} | ${Math.min(...xs)
    .toFixed(2)
    .padStart(9)} | ${Math.max(...xs)
    .toFixed(2)
    .padStart(9)} |`;
console.log(
  `companyfacts parse benchmark — ${largest.name} (${(largest.bytes / 1e6).toFixed(2)} MB, ${years} fiscal years), ${runs} runs, Node ${process.version}`,
);
console.log('');
console.log(`| ${'step'.padEnd(38)} | median ms |    min ms |    max ms |`);
console.log(`|${'-'.repeat(40)}|-----------|-----------|-----------|`);
console.log(row('JSON.parse (bare)', jsonParse));
console.log(row('parseCompanyFacts (parsed object)', parse));
console.log(row('JSON.parse + parseCompanyFacts', both));
console.log('');
console.log(
  `parseCompanyFacts over all ${files.length} files once: ${totalMs.toFixed(1)} ms total, ${(totalMs / files.length).toFixed(2)} ms per file`,
);
console.log(`target: parseCompanyFacts < 50 ms → ${median(parse) < 50 ? 'met' : 'NOT met'}`);
