// Server CPU of the performance flow (`getPerformance`) on a portfolio of 50 holdings over 10
// years of daily closes (25 in USD, 25 in EUR; a buy of each every month, a dividend each quarter:
// 7,500 transactions imported as one Ghostfolio CSV), the EUR/USD rates of the ECB history file.
// The closes come from an in-memory provider (a deterministic random walk per symbol on every
// weekday: the shared data holds only 29 real symbols); the cost of reading price files is the
// market-data bench's.
//
// Printed, per engine: the first request (reads the ledger and the market data, builds the daily
// timeline); repeat requests (6 periods, weekly series); the first request of each of the next
// 5 days (the timeline of the day before is extended by one day) and a repeat on each; the first
// request after a new transaction.
// CPU is this process's (user + system): on PGlite that includes the database engine, on
// PostgreSQL the server's own CPU is not counted.
// Run after `pnpm turbo run build --filter=@svc/use-cases...`:
//   node bench/performance.bench.mjs   (TEST_DATABASE_URL: PostgreSQL as well as PGlite)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, uniqueEmail } from '@svc/portfolio-store/testing';
import { createPortfolioService } from '../dist/index.js';

const DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const HOLDINGS = 50;
const SYMBOLS = Array.from({ length: HOLDINGS }, (_, i) => `S${String(i).padStart(2, '0')}`);
const currencyOf = (symbol) => (Number(symbol.slice(1)) % 2 === 0 ? 'USD' : 'EUR');
const FIRST_DAY = Date.UTC(2014, 2, 1);
const TODAY = new Date('2024-03-01T22:00:00Z');

/** Weekday closes from FIRST_DAY to 2024-12-31: a deterministic random walk per symbol. */
function closesOf(symbol) {
  let seed = [...symbol].reduce((s, c) => s * 31 + c.charCodeAt(0), 7) >>> 0;
  const random = () => {
    seed = (seed * 1_664_525 + 1_013_904_223) >>> 0;
    return seed / 2 ** 32;
  };
  const dates = [];
  const values = [];
  let price = 50 + random() * 100;
  for (let ms = FIRST_DAY - 7 * 86_400_000; ms <= Date.UTC(2024, 11, 31); ms += 86_400_000) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    price *= 1 + (random() - 0.499) * 0.03;
    dates.push(new Date(ms).toISOString().slice(0, 10));
    values.push(Math.round(price * 100) / 100);
  }
  return { dates, values };
}

const SERIES = new Map(SYMBOLS.map((s) => [s, closesOf(s)]));

/** A `PriceHistoryProvider` over SERIES (the interface of `@svc/market-data`). */
const history = {
  name: 'bench',
  async getDailyCloses(symbol, { from, to }) {
    const series = SERIES.get(symbol);
    if (!series) return null;
    let start = series.dates.findIndex((d) => d >= from);
    if (start < 0) start = series.dates.length;
    start = Math.max(0, start - 1);
    let end = start;
    while (end < series.dates.length && series.dates[end] <= to) end++;
    return {
      symbol,
      currency: currencyOf(symbol),
      source: 'bench',
      dates: series.dates.slice(start, end),
      values: series.values.slice(start, end),
      estimatedDays: 0,
    };
  },
};

function csv() {
  const lines = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let month = 0; month < 120; month++) {
    const day = new Date(Date.UTC(2014, 2 + month, 3)).toISOString().slice(0, 10);
    for (const symbol of SYMBOLS) {
      lines.push(`${day},${symbol},YAHOO,${currencyOf(symbol)},100,1,buy,1,`);
      if (month % 3 === 2)
        lines.push(`${day},${symbol},YAHOO,${currencyOf(symbol)},0.5,1,dividend,0,`);
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

const line = (label, m) =>
  console.log(`  ${label}: ${m.cpu.toFixed(1)} ms CPU, ${m.wall.toFixed(1)} ms wall`);

for (const backend of await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL })) {
  const database = await backend.open();
  try {
    let now = TODAY;
    const service = createPortfolioService({
      db: database.db,
      quotes: null,
      history,
      fx: createEcbFileFxProvider({ file: resolve(DATA_DIR, 'fx/eurofxref-hist.csv') }),
      now: () => now,
    });
    const user = await createRepositories(database.db).users.create({ email: uniqueEmail('b') });
    const portfolio = await service.createPortfolio(user.id, { name: 'Bench' });
    const imported = await service.importBrokerCsv(user.id, portfolio.id, csv(), {
      format: 'ghostfolio',
    });
    const ask = (query) => service.getPerformance(user.id, portfolio.id, query);
    const first = await measure(() => ask({ period: 'inception' }));
    const twr = first.result.returns.twr;
    console.log(
      `${backend.name}: ${imported.imported} transactions, ${first.result.holdings.length} holdings, ${first.result.days} days, TWR ${twr.status === 'ok' ? twr.value.toFixed(4) : twr.code}`,
    );
    line('first request (ledger, closes, rates, timeline)', first);
    const runs = [];
    for (let round = 0; round < 3; round++) {
      for (const period of ['1M', '3M', 'YTD', '1Y', '3Y', 'inception']) {
        runs.push(await measure(() => ask({ period, series: 'weekly' })));
      }
    }
    const mean = (key) => runs.reduce((sum, r) => sum + r[key], 0) / runs.length;
    line('repeat requests, mean of 6 periods × 3', { cpu: mean('cpu'), wall: mean('wall') });
    line(
      'one holding, repeat',
      await measure(() =>
        service.getHoldingPerformance(user.id, portfolio.id, 'S07', { period: '1Y' }),
      ),
    );
    const firsts = [];
    const repeats = [];
    for (let day = 1; day <= 5; day++) {
      now = new Date(TODAY.getTime() + day * 86_400_000);
      firsts.push(await measure(() => ask({ period: 'inception' })));
      repeats.push(await measure(() => ask({ period: 'inception' })));
    }
    const meanOf = (list, key) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
    for (const [label, list] of [
      ['next day, first request (mean of 5 days)', firsts],
      ['next day, repeat request (mean of 5 days)', repeats],
    ]) {
      line(label, { cpu: meanOf(list, 'cpu'), wall: meanOf(list, 'wall') });
    }
    await service.recordTransaction(user.id, portfolio.id, {
      type: 'buy',
      symbol: 'S01',
      quantity: '1',
      price: '100',
      currency: 'EUR',
      executedAt: '2024-02-20T15:00:00Z',
    });
    line(
      'after a new transaction, first request',
      await measure(() => ask({ period: 'inception' })),
    );
  } finally {
    await database.cleanup();
  }
}
