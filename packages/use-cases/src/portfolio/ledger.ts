import {
  type DerivedPortfolio,
  deriveHoldings,
  type LedgerTransaction,
  PortfolioError,
} from '@svc/portfolio';
import { StoreError, type TransactionsRepository } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { toLedgerTransaction } from './ledger-codec.js';

/** Largest page the store serves; the ledger is read in pages of this size. */
const LEDGER_PAGE = 100;

/** Every transaction of one portfolio of the user, in store order (newest first). */
export async function readLedger(
  transactions: TransactionsRepository,
  userId: string,
  portfolioId: string,
): Promise<LedgerTransaction[]> {
  const ledger: LedgerTransaction[] = [];
  let cursor: string | undefined;
  do {
    const page = await transactions.list(userId, { portfolioId, limit: LEDGER_PAGE, cursor });
    ledger.push(...page.items.map(toLedgerTransaction));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return ledger;
}

/**
 * Derives holdings and cash and checks that the store can hold them.
 *
 * @param problemPath - the `path` of the field problem to report (`quantity` for one recorded
 *   transaction, `file` for an import).
 * @throws UseCaseError `validation_failed` when a sell exceeds the units held at that moment
 *   (`insufficient_quantity` of `deriveHoldings`), when a transaction is malformed, or when one
 *   symbol would be held in two currencies (the store keeps one holding per symbol and portfolio).
 */
export function deriveChecked(ledger: readonly LedgerTransaction[], problemPath: string) {
  let derived: DerivedPortfolio;
  try {
    derived = deriveHoldings(ledger);
  } catch (error) {
    if (!(error instanceof PortfolioError)) throw error;
    throw invalid(error.message, problemPath, error);
  }
  const currencies = new Map<string, string>();
  for (const holding of derived.holdings) {
    const seen = currencies.get(holding.symbol);
    if (seen !== undefined) {
      const message = `${holding.symbol} would be held in two currencies (${seen}, ${holding.currency}); a portfolio holds each symbol in one currency`;
      throw invalid(message, problemPath);
    }
    currencies.set(holding.symbol, holding.currency);
  }
  return derived;
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
