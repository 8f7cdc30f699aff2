// End-to-end evaluation time of the 30 real companies of the shared data set, from disk:
// SEC companyfacts (snapshot provider) + daily price CSVs (quote provider) + valuation + moat score.
//   cold: new providers each pass, so every companyfacts file is read and parsed again;
//   warm: the same providers again, parsed fundamentals served from the provider's cache.
// Run after `pnpm turbo run build --filter=@svc/use-cases... --filter=@svc/providers`:  pnpm --filter @svc/use-cases bench
// Env: SHARED_DATA_DIR (default ../../../../shared/data from this file), BENCH_COLD_PASSES (3),
// BENCH_WARM_PASSES (10), BENCH_TABLE=0 to skip the per-company score table.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import { evaluateCompany } from '../dist/index.js';

const DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const COMPANYFACTS_DIR = resolve(DATA_DIR, 'fundamentals/raw/companyfacts');
const PRICES_DIR = resolve(DATA_DIR, 'prices');
const COLD_PASSES = Number(process.env.BENCH_COLD_PASSES ?? 3);
const WARM_PASSES = Number(process.env.BENCH_WARM_PASSES ?? 10);
const NOW = new Date('2026-09-01T12:00:00.000Z');

const symbols = readdirSync(COMPANYFACTS_DIR)
  .map((name) => /^(.+)_CIK\d{10}\.json$/.exec(name)?.[1])
  .filter((s) => s !== undefined)
  .sort();

function createDeps() {
  const fundamentals = createFundamentalsProvider({
    provider: 'snapshot',
    snapshotDir: COMPANYFACTS_DIR,
  });
  const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
  return { fundamentals, quotes, splitsOf, now: () => NOW };
}

/** Evaluates every symbol once, sequentially; returns the total and per-symbol times (ms). */
async function evaluateAll(deps) {
  const perSymbol = new Map();
  const results = new Map();
  const start = performance.now();
  for (const symbol of symbols) {
    const t0 = performance.now();
    results.set(symbol, await evaluateCompany(symbol, deps));
    perSymbol.set(symbol, performance.now() - t0);
  }
  return { total: performance.now() - start, perSymbol, results };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;

const cold = [];
const coldPerSymbol = new Map(symbols.map((s) => [s, []]));
let deps;
let results;
for (let i = 0; i < COLD_PASSES; i += 1) {
  deps = createDeps();
  const run = await evaluateAll(deps);
  cold.push(run.total);
  for (const [s, t] of run.perSymbol) coldPerSymbol.get(s).push(t);
  results = run.results;
}
const warm = [];
for (let i = 0; i < WARM_PASSES; i += 1) warm.push((await evaluateAll(deps)).total);

const n = symbols.length;
console.log(
  `\nEnd-to-end evaluation of ${n} companies, sequential (Node ${process.version}, ${process.platform}/${process.arch})`,
);
console.table({
  [`cold (${COLD_PASSES} passes)`]: {
    'median total': ms(median(cold)),
    'best total': ms(Math.min(...cold)),
    'mean per company': ms(median(cold) / n),
    'companies / s': Math.round((n * 1000) / median(cold)),
  },
  [`warm (${WARM_PASSES} passes)`]: {
    'median total': ms(median(warm)),
    'best total': ms(Math.min(...warm)),
    'mean per company': ms(median(warm) / n),
    'companies / s': Math.round((n * 1000) / median(warm)),
  },
});

const slowest = [...coldPerSymbol]
  .map(([s, ts]) => [s, median(ts)])
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5);
console.log('Slowest cold evaluations (median per pass, parsing included):');
console.table(Object.fromEntries(slowest.map(([s, t]) => [s, { cold: ms(t) }])));

if (process.env.BENCH_TABLE !== '0') {
  console.log('Scores (evaluated at the latest price in the data):');
  console.table(
    Object.fromEntries(
      symbols.map((s) => {
        const e = results.get(s);
        const pe = e.valuation.peRatio;
        return [
          s,
          {
            total: e.totalScore,
            max: e.maxScore,
            '%': Number(((e.totalScore / e.maxScore) * 100).toFixed(1)),
            verdict: e.verdict,
            'P/E': pe === null ? null : Number(pe.toFixed(1)),
            years: `${e._fiscalYears[0]}–${e._fiscalYears.at(-1)}`,
          },
        ];
      }),
    ),
  );
}
