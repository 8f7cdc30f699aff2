// Prints timings of the offline providers over the shared data (not a test: figures only).
// Run: pnpm --filter @svc/market-data bench   (SHARED_DATA_DIR overrides the data folder)
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { convertToEur } from '../src/fx/convert-to-eur.js';
import { createEcbFileFxProvider } from '../src/fx/ecb-file-fx-provider.js';
import { createCsvQuoteProvider } from '../src/quotes/csv-quote-provider.js';

const dataDir =
  process.env.SHARED_DATA_DIR ??
  join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data');
const SYMBOLS = ['AAPL', 'NVDA', 'MSFT', 'XOM', 'GOOGL', 'MNST', 'TSLA', 'WMT', 'KO', 'BF-B'];

async function time(label: string, runs: number, fn: (i: number) => Promise<unknown>) {
  const start = performance.now();
  for (let i = 0; i < runs; i += 1) await fn(i);
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(48)} ${runs.toString().padStart(7)} runs  ${ms.toFixed(1).padStart(9)} ms  ${((ms * 1000) / runs).toFixed(1).padStart(9)} µs/op`,
  );
}

const quotes = createCsvQuoteProvider({ dir: join(dataDir, 'prices') });
await time('quote: first load per symbol (3 files, cold)', SYMBOLS.length, (i) =>
  quotes.getQuote(SYMBOLS[i] as string),
);
const days = Array.from({ length: 2000 }, (_, i) =>
  new Date(Date.UTC(2001, 0, 1) + i * 4 * 86_400_000).toISOString().slice(0, 10),
);
await time('quote: cached, random days 2001–2022', 100_000, (i) =>
  quotes.getQuote(SYMBOLS[i % SYMBOLS.length] as string, { asOf: days[i % days.length] }),
);

const fx = createEcbFileFxProvider({ file: join(dataDir, 'fx', 'eurofxref-hist.csv') });
await time('fx: first load of eurofxref-hist.csv (cold)', 1, () => fx.getRate('EUR', 'USD'));
await time('fx: cached cross rate USD→JPY, random days', 100_000, (i) =>
  fx.getRate('USD', 'JPY', { asOf: days[i % days.length] }),
);
await time('convertToEur (decimal), cached rates', 100_000, (i) =>
  convertToEur('1234.56', 'USD', fx, days[i % days.length] as string),
);
