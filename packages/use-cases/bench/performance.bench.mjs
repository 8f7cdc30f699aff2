// CPU of the performance flow (`getPerformance`) on a portfolio of 25 real symbols over 10 years
// (monthly purchases, quarterly dividends; imported as one Ghostfolio CSV), with the offline
// providers over the shared data: the first request (reads the price files, builds the daily
// timeline) and the next ones (timeline cached: reads the ledger, digests it, measures).
// Run after `pnpm turbo run build --filter=@svc/use-cases...`:
//   node bench/performance.bench.mjs   (TEST_DATABASE_URL: PostgreSQL as well as PGlite)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, uniqueEmail } from '@svc/portfolio-store/testing';
import { createPortfolioService } from '../dist/index.js';

const DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const SYMBOLS =
  'AAPL BBY CCL CL COST DAL F GM GOOGL JNJ KR LUV MA MCD MNST MOS MU NUE NVDA PG SPGI TGT UAL V WMT XOM'
    .split(' ')
    .slice(0, 25);

function csv() {
  const lines = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let month = 0; month < 120; month++) {
    const day = new Date(Date.UTC(2014, 2 + month, 3)).toISOString().slice(0, 10);
    for (const symbol of SYMBOLS) {
      lines.push(`${day},${symbol},YAHOO,USD,100,1,buy,1,`);
      if (month % 3 === 2) lines.push(`${day},${symbol},YAHOO,USD,0.5,1,dividend,0,`);
    }
  }
  return lines.join('\n');
}

/** CPU (user + system) and wall time of `fn`, milliseconds. */
async function measure(fn) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  return { result, cpu: (used.user + used.system) / 1000, wall: performance.now() - start };
}

for (const backend of await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL })) {
  const database = await backend.open();
  try {
    const prices = createCsvQuoteProvider({ dir: resolve(DATA_DIR, 'prices') });
    const service = createPortfolioService({
      db: database.db,
      quotes: prices,
      history: prices,
      fx: createEcbFileFxProvider({ file: resolve(DATA_DIR, 'fx/eurofxref-hist.csv') }),
      now: () => new Date('2024-03-01T22:00:00Z'),
    });
    const user = await createRepositories(database.db).users.create({ email: uniqueEmail('b') });
    const portfolio = await service.createPortfolio(user.id, { name: 'Bench' });
    const imported = await service.importBrokerCsv(user.id, portfolio.id, csv(), {
      format: 'ghostfolio',
    });
    const first = await measure(() =>
      service.getPerformance(user.id, portfolio.id, { period: 'inception' }),
    );
    const twr = first.result.returns.twr;
    console.log(
      `${backend.name}: ${imported.imported} transactions, ${first.result.holdings.length} holdings, TWR ${twr.status === 'ok' ? twr.value.toFixed(4) : twr.code}`,
    );
    console.log(
      `  first request (files, rates, timeline): ${first.cpu.toFixed(0)} ms CPU, ${first.wall.toFixed(0)} ms wall`,
    );
    const runs = [];
    for (const period of ['1M', '3M', 'YTD', '1Y', '3Y', 'inception']) {
      runs.push(
        await measure(() =>
          service.getPerformance(user.id, portfolio.id, { period, series: 'weekly' }),
        ),
      );
    }
    const mean = (key) => (runs.reduce((sum, r) => sum + r[key], 0) / runs.length).toFixed(1);
    console.log(
      `  next requests (timeline cached), mean of 6 periods: ${mean('cpu')} ms CPU, ${mean('wall')} ms wall`,
    );
  } finally {
    await database.cleanup();
  }
}
