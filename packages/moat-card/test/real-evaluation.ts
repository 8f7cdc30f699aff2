import { resolve } from 'node:path';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import { evaluateCompany } from '@svc/use-cases';

/** The shared data of the project (never copied into the repository). */
export const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

/** A real evaluation of `symbol` from the shared SEC companyfacts snapshot and prices. */
export async function realEvaluation(symbol: string) {
  const fundamentals = createFundamentalsProvider({
    provider: 'snapshot',
    snapshotDir: resolve(SHARED, 'fundamentals/raw/companyfacts'),
  });
  const { quotes, splitsOf } = createQuoteSource({
    provider: 'csv',
    pricesDir: resolve(SHARED, 'prices'),
  });
  return evaluateCompany(symbol, {
    fundamentals,
    quotes,
    splitsOf,
    now: () => new Date('2026-09-01T12:00:00Z'),
  });
}
