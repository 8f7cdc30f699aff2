import {
  type DerivedPortfolio,
  type DeriveOptions,
  deriveHoldings,
  type LedgerTransaction,
  PortfolioError,
} from '@svc/portfolio';
import { StoreError, type TransactionsRepository } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { toLedgerTransaction } from './ledger-codec.js';

/** Every transaction of one portfolio of the user, in store order (newest first). */
export async function readLedger(
  transactions: TransactionsRepository,
  userId: string,
  portfolioId: string,
): Promise<LedgerTransaction[]> {
  return (await readLedgerWithNames(transactions, userId, portfolioId)).ledger;
}

/**
 * Every transaction of one portfolio of the user (newest first), the instrument names the
 * imports gave, per symbol (the newest name wins), and the instrument of each symbol (the newest
 * row's that has one, issue 38).
 */
export async function readLedgerWithNames(
  transactions: TransactionsRepository,
  userId: string,
  portfolioId: string,
): Promise<{
  ledger: LedgerTransaction[];
  names: Map<string, string>;
  instruments: Map<string, Instrument>;
}> {
  const rows = await transactions.listAll(userId, portfolioId);
  const names = new Map<string, string>();
  const instruments = new Map<string, Instrument>();
  for (const row of rows) {
    if (row.symbol !== null && row.name !== null && !names.has(row.symbol)) {
      names.set(row.symbol, row.name);
    }
    if (row.symbol !== null && row.instrument !== null && !instruments.has(row.symbol)) {
      instruments.set(row.symbol, row.instrument);
    }
  }
  return { ledger: rows.map(toLedgerTransaction), names, instruments };
}

/**
 * Derives holdings and cash and checks that the store can hold them.
 *
 * @param problemPath - the `path` of the field problem to report (`quantity` for one recorded
 *   transaction, `file` for an import).
 * The same symbol may be held in several currencies (one holding each, migration
 * `0003-import-fingerprints`).
 *
 * @throws UseCaseError `validation_failed` when a sell exceeds the units held at that moment
 *   (`insufficient_quantity` of `deriveHoldings`) or when a transaction is malformed.
 */
export function deriveChecked(
  ledger: readonly LedgerTransaction[],
  problemPath: string,
  options: DeriveOptions = {},
): DerivedPortfolio {
  try {
    return deriveHoldings(ledger, options);
  } catch (error) {
    if (!(error instanceof PortfolioError)) throw error;
    throw invalid(error.message, problemPath, error);
  }
}

/**
 * Maps the store's input errors to use-case errors: `not_found` → `not_found` (also another
 * user's portfolio), `invalid_input` → `validation_failed` on `path`. Anything else is rethrown.
 */
export function fromStoreError(error: unknown, path: string): never {
  if (error instanceof StoreError && error.code === 'not_found') {
    throw new UseCaseError('not_found', error.message, { cause: error });
  }
  if (error instanceof StoreError && error.code === 'invalid_input') {
    throw invalid(error.message, path, error);
  }
  throw error;
}

function invalid(message: string, path: string, cause?: unknown): UseCaseError {
  return new UseCaseError('validation_failed', message, { cause, errors: [{ path, message }] });
}
