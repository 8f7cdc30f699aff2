/**
 * Child process of `import-kill.test.ts`: imports a broker CSV through the portfolio flow into one
 * portfolio, then says so. The test kills it with SIGKILL in the middle of the import.
 * Environment: DATABASE_URL, SCHEMA, USER_ID, PORTFOLIO_ID, CSV_FILE.
 */
import { readFileSync } from 'node:fs';
import { createDatabase } from '@svc/portfolio-store';
import { createPortfolioService } from '../../src/portfolio/portfolio-service.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const database = await createDatabase({ databaseUrl: env('DATABASE_URL'), schema: env('SCHEMA') });
const service = createPortfolioService({
  db: database.db,
  quotes: null,
  fx: null,
  now: () => new Date('2024-03-01T22:00:00Z'),
});
const text = readFileSync(env('CSV_FILE'), 'utf8');
process.stdout.write('importing\n');
const result = await service.importBrokerCsv(env('USER_ID'), env('PORTFOLIO_ID'), text);
process.stdout.write(`imported ${result.imported}\n`);
await database.close();
