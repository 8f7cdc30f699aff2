/**
 * Throughput figures of the pure functions on synthetic ledgers and CSV files (printed, not
 * asserted). Run with `pnpm --filter @svc/portfolio bench`.
 */
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_IMPORT_LIMITS,
  deriveHoldings,
  fingerprintRows,
  type LedgerTransaction,
  parseBrokerCsv,
  planImport,
  valueHoldings,
} from '../src/index.js';

const SYMBOLS = Array.from({ length: 50 }, (_, i) => `SYM${i}`);

function ledger(size: number): LedgerTransaction[] {
  const txs: LedgerTransaction[] = [];
  for (let i = 0; i < size; i++) {
    // a sell (every 4th row) sells 1 unit of the symbol bought 1.5 units just before
    const symbol = SYMBOLS[(i % 4 === 3 ? i - 1 : i) % SYMBOLS.length] ?? 'SYM0';
    const executedAt = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString();
    const base = { id: `t${i}`, currency: 'USD', executedAt, symbol };
    if (i % 4 === 3)
      txs.push({ ...base, type: 'sell', quantity: '1', price: '101.37', fee: '0.5' });
    else
      txs.push({ ...base, type: 'buy', quantity: '1.5', price: `${100 + (i % 17)}.25`, fee: '1' });
  }
  return txs;
}

function ghostfolioCsv(rows: number): string {
  const lines = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `${String((i % 28) + 1).padStart(2, '0')}-06-2023,SYM${i % 50},YAHOO,USD,101.25,2,buy,1,"row ${i}"`,
    );
  }
  return lines.join('\n');
}

function time<T>(label: string, units: number, unitName: string, fn: () => T): T {
  fn(); // warm-up
  const runs = 5;
  const start = performance.now();
  let result = fn();
  for (let i = 1; i < runs; i++) result = fn();
  const ms = (performance.now() - start) / runs;
  const rate = Math.round((units / ms) * 1000).toLocaleString('en-US');
  console.log(
    `${label.padEnd(44)} ${ms.toFixed(2).padStart(9)} ms   ${rate.padStart(12)} ${unitName}/s`,
  );
  return result;
}

for (const size of [1_000, 10_000, 100_000]) {
  const txs = ledger(size);
  const derived = time(`deriveHoldings ${size.toLocaleString('en-US')} tx`, size, 'tx', () =>
    deriveHoldings(txs),
  );
  const quotes = new Map(
    SYMBOLS.map((s) => [s, { price: '123.45', currency: 'USD', asOf: '2024-01-01T00:00:00Z' }]),
  );
  const eurRates = new Map([['USD', '1.0823']]);
  time(
    `valueHoldings ${derived.holdings.length} holdings`,
    derived.holdings.length,
    'holdings',
    () => valueHoldings(derived, { quotes, eurRates, valuedAt: '2024-01-02T00:00:00Z' }),
  );
}

for (const rows of [1_000, DEFAULT_IMPORT_LIMITS.maxRows]) {
  const csv = ghostfolioCsv(rows);
  const kb = Math.round(Buffer.byteLength(csv) / 1024);
  const result = time(
    `parseBrokerCsv ghostfolio ${rows.toLocaleString('en-US')} rows (${kb} KiB)`,
    rows,
    'rows',
    () => parseBrokerCsv(csv),
  );
  if (!result.ok) throw new Error('bench CSV did not parse');
  const rowsWithPrints = fingerprintRows(result.format, result.rows);
  time(`fingerprint + planImport ${rows.toLocaleString('en-US')} rows`, rows, 'rows', () =>
    planImport({
      existing: [],
      existingFingerprints: new Set(),
      rows: fingerprintRows(result.format, result.rows),
    }),
  );
  const present = new Set(rowsWithPrints.map((r) => r.fingerprint));
  time(`planImport ${rows.toLocaleString('en-US')} rows, all present`, rows, 'rows', () =>
    planImport({ existing: [], existingFingerprints: present, rows: rowsWithPrints }),
  );
}
