/**
 * CPU figures of the performance module (printed, not asserted): a portfolio of 50 holdings
 * (25 in USD, 25 in EUR) over 10 years of daily closes and ECB rates, with monthly deposits and
 * purchases, quarterly dividends and yearly sales. Run with `pnpm --filter @svc/portfolio bench`.
 */
import { performance } from 'node:perf_hooks';
import {
  buildTimeline,
  type DailySeries,
  type LedgerTransaction,
  measurePeriod,
  PERFORMANCE_PERIODS,
  resolvePeriod,
  valueSeries,
} from '../src/index.js';

const FIRST = Date.UTC(2016, 0, 4);
const DAYS = 3653;
const day = (offset: number) => new Date(FIRST + offset * 86_400_000).toISOString().slice(0, 10);

function walk(seed: number, currency: string, start: number): DailySeries {
  const dates: string[] = [];
  const values: number[] = [];
  let value = start;
  let state = seed;
  for (let i = 0; i < DAYS; i++) {
    const weekday = new Date(FIRST + i * 86_400_000).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    value *= 1 + (state / 2 ** 31 - 0.5) * 0.02;
    dates.push(day(i));
    values.push(Math.round(value * 100) / 100);
  }
  return { currency, dates, values };
}

const symbols = Array.from({ length: 50 }, (_, i) => ({
  symbol: `S${i}`,
  currency: i % 2 ? 'USD' : 'EUR',
}));
const prices = new Map(symbols.map((s, i) => [s.symbol, walk(i + 1, s.currency, 50 + i)]));
const eurRates = new Map([['USD', walk(999, 'USD', 1.1)]]);
const closeOn = (symbol: string, offset: number) => {
  const series = prices.get(symbol) as DailySeries;
  const at = day(offset);
  let i = series.dates.length - 1;
  while (i > 0 && (series.dates[i] as string) > at) i--;
  return series.values[i] as number;
};

const transactions: LedgerTransaction[] = [];
let id = 0;
const add = (offset: number, fields: Omit<LedgerTransaction, 'id' | 'executedAt'>) =>
  transactions.push({ id: `t${id++}`, executedAt: `${day(offset)}T15:00:00Z`, ...fields });
for (let month = 0; month < 120; month++) {
  const offset = Math.floor(month * 30.4);
  add(offset, { type: 'deposit', amount: '60000', currency: 'EUR' });
  for (const { symbol, currency } of symbols) {
    const price = closeOn(symbol, offset);
    add(offset, { type: 'buy', symbol, quantity: '10', price: String(price), currency, fee: '1' });
    if (month % 3 === 2) add(offset + 1, { type: 'dividend', symbol, amount: '12.5', currency });
    if (month % 12 === 11) {
      add(offset + 2, {
        type: 'sell',
        symbol,
        quantity: '30',
        price: String(closeOn(symbol, offset + 2)),
        currency,
      });
    }
  }
}
const end = day(DAYS - 1);

/** Mean wall time and CPU time (user + system, this process) per run, after one warm-up run. */
function time<T>(label: string, runs: number, fn: () => T): T {
  let result = fn();
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) result = fn();
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - start) / runs;
  const cpuMs = (used.user + used.system) / 1000 / runs;
  console.log(`${label}: ${cpuMs.toFixed(2)} ms CPU (${wall.toFixed(2)} ms wall)`);
  return result;
}

console.log(`${transactions.length} transactions, ${symbols.length} holdings, ${DAYS} days`);
const timeline = time('buildTimeline (whole ledger, cold)', 10, () =>
  buildTimeline({ transactions, prices, eurRates, end }),
);
time('measurePeriod x 7 periods, portfolio + 50 holdings (from the timeline)', 20, () => {
  for (const period of PERFORMANCE_PERIODS.filter((p) => p !== 'custom')) {
    const resolved = resolvePeriod({ period }, timeline);
    measurePeriod(timeline, timeline.portfolio, resolved);
    for (const holding of timeline.holdings.values()) measurePeriod(timeline, holding, resolved);
  }
});
time('one request: since inception, portfolio + 50 holdings + weekly series', 20, () => {
  const resolved = resolvePeriod({ period: 'inception' }, timeline);
  measurePeriod(timeline, timeline.portfolio, resolved);
  for (const holding of timeline.holdings.values()) measurePeriod(timeline, holding, resolved);
  return valueSeries(timeline, timeline.portfolio, resolved, 'weekly');
});
