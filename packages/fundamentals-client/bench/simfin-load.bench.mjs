#!/usr/bin/env node
// SimFin bulk benchmark: ms to read and index the three annual statement CSVs (the cold first
// call of the simfin provider), then ms to map every ticker to Fundamentals. Run after
// `pnpm build` (it imports dist/). Data: shared/data/fundamentals/raw/simfin_us_annual_2021-04
// (override the data root with SHARED_DATA_DIR). Usage: node bench/simfin-load.bench.mjs [runs]
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimfinProvider, SIMFIN_FILES } from '../dist/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const dataDir = resolve(process.env.SHARED_DATA_DIR ?? join(here, '../../../../shared/data'));
const dir = join(dataDir, 'fundamentals/raw/simfin_us_annual_2021-04');
const runs = Number(process.argv[2] ?? 5);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const loads = [];
const maps = [];
let tickers = [];
let evaluated = 0;
let heapMb = 0;
for (let i = 0; i < runs; i++) {
  globalThis.gc?.();
  const provider = createSimfinProvider({ dir });
  const t0 = performance.now();
  tickers = await provider.listTickers();
  loads.push(performance.now() - t0);
  heapMb = process.memoryUsage().heapUsed / 1e6;
  const t1 = performance.now();
  evaluated = 0;
  for (const t of tickers) {
    try {
      await provider.getFundamentals(t);
      evaluated += 1;
    } catch {
      // too few years: counted below
    }
  }
  maps.push(performance.now() - t1);
}

const mb = Object.values(SIMFIN_FILES).reduce((n, f) => n + statSync(join(dir, f)).size, 0) / 1e6;
const row = (label, xs) =>
  `| ${label.padEnd(44)} | ${median(xs).toFixed(0).padStart(9)} | ${Math.min(...xs)
    .toFixed(0)
    .padStart(6)} | ${Math.max(...xs)
    .toFixed(0)
    .padStart(6)} |`;
console.log(
  `SimFin bulk benchmark — 3 files, ${mb.toFixed(1)} MB, ${tickers.length} tickers, ${runs} runs, Node ${process.version}`,
);
console.log('');
console.log(`| ${'step'.padEnd(44)} | median ms | min ms | max ms |`);
console.log(`|${'-'.repeat(46)}|-----------|--------|--------|`);
console.log(row('read + index 3 CSVs (first call, streamed)', loads));
console.log(row(`map all ${tickers.length} tickers to Fundamentals`, maps));
console.log('');
console.log(
  `${evaluated} tickers with ≥ 3 usable years; heap after load ≈ ${heapMb.toFixed(0)} MB; per ticker ≈ ${(median(maps) / tickers.length).toFixed(2)} ms`,
);
