// Time of a broker import through the use case (parse, fingerprints, plan, one database
// transaction with the inserts and the valued holdings and cash), and of re-importing the same
// file (nothing stored). Ghostfolio CSVs of 1,000 and 10,000 rows over 20 symbols, offline
// providers over the shared data.
// Run after `pnpm turbo run build --filter=@svc/use-cases...`:
//   node bench/import.bench.mjs   (TEST_DATABASE_URL: PostgreSQL as well as PGlite)
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCsvQuoteProvider, createEcbFileFxProvider } from '@svc/market-data';
import { createRepositories } from '@svc/portfolio-store';
import { createTestBackends, uniqueEmail } from '@svc/portfolio-store/testing';
import { createPortfolioService } from '../dist/index.js';

const DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const quotes = createCsvQuoteProvider({ dir: resolve(DATA_DIR, 'prices') });
const fx = createEcbFileFxProvider({ file: resolve(DATA_DIR, 'fx/eurofxref-hist.csv') });

function csv(rows) {
  const lines = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    const sell = i % 4 === 3;
    const symbol = `SYM${(sell ? i - 1 : i) % 20}`;
    lines.push(`${day},${symbol},YAHOO,USD,${100 + (i % 7)},${sell ? '1,sell' : '2,buy'},1,`);
  }
  return lines.join('\n');
}

for (const backend of await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL })) {
  const database = await backend.open();
  try {
    const service = createPortfolioService({
      db: database.db,
      quotes,
      fx,
      now: () => new Date('2024-03-01T22:00:00Z'),
    });
    const user = await createRepositories(database.db).users.create({ email: uniqueEmail('b') });
    for (const rows of [1_000, 10_000]) {
      const text = csv(rows);
      const p = await service.createPortfolio(user.id, { name: `bench ${rows}` });
      let start = performance.now();
      const first = await service.importBrokerCsv(user.id, p.id, text);
      const importMs = performance.now() - start;
      start = performance.now();
      const again = await service.importBrokerCsv(user.id, p.id, text);
      const againMs = performance.now() - start;
      console.log(
        `${backend.name.padEnd(8)} ${String(rows).padStart(6)} rows: import ${importMs.toFixed(0)} ms (${first.imported} stored), re-import ${againMs.toFixed(0)} ms (${again.alreadyPresent} present)`,
      );
    }
  } finally {
    await database.cleanup();
  }
}
