/**
 * Child process of `refresh.test.ts`: runs one refresh pass for DATE against the SEC replay at
 * SEC_URL, then says so. The test kills it with SIGKILL in the middle of the pass.
 * Environment: DATABASE_URL, SCHEMA, SEC_URL, DATE, PRICES_DIR.
 */
import { createSecEdgarProvider, createSecFilingsClient } from '@svc/fundamentals-client';
import { createDatabase, createRepositories } from '@svc/portfolio-store';
import { createQuoteSource } from '@svc/providers';
import { refreshDepsFor, runRefreshPass, sharedSecBudget } from '../../src/jobs/refresh.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const database = await createDatabase({ databaseUrl: env('DATABASE_URL'), schema: env('SCHEMA') });
const repos = createRepositories(database.db);
const userAgent = 'Issue33 Child child@example.com';
const acquire = sharedSecBudget(repos.secRefresh);
const sec = createSecFilingsClient({
  userAgent,
  wwwUrl: env('SEC_URL'),
  dataUrl: env('SEC_URL'),
  acquire,
});
const fundamentals = createSecEdgarProvider({
  userAgent,
  baseUrl: env('SEC_URL'),
  wwwUrl: env('SEC_URL'),
  acquire,
  timeoutMs: 600_000,
});
const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: env('PRICES_DIR') });
process.stdout.write('refreshing\n');
const report = await runRefreshPass(
  refreshDepsFor(database.db, {
    sec,
    evaluate: { fundamentals, quotes, splitsOf, now: () => new Date() },
  }),
  { date: env('DATE'), leaseMs: 500 },
);
process.stdout.write(`refreshed ${report.filings.length}\n`);
await database.close();
