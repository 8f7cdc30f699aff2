import { valueHoldings } from '@svc/portfolio';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { utcDay } from './decimal-text.js';
import { deriveChecked, readLedger } from './ledger.js';
import { gatherMarketInputs, type MarketInputsDeps } from './market-inputs.js';
import { toCashPosition, toHolding, toStoredPositions } from './position-records.js';
import type { RevaluationResult } from './schemas.js';

/** What {@link revaluePortfolio} needs. */
export interface RevaluationDeps extends Omit<MarketInputsDeps, 'marketData'> {
  readonly db: Executor;
}

/**
 * Re-derives one portfolio's holdings and cash from all its transactions, values them in EUR as
 * of `valuedAt` and stores them (`positions.replaceForPortfolio`).
 *
 * Market data (quotes, FX) is gathered first, outside any database transaction (a live provider
 * may be slow). Then, in one database transaction that locks the portfolio row (`FOR UPDATE`,
 * the lock every transaction insert also takes), the ledger is read again, derived, valued and
 * stored, so a concurrent write cannot be overwritten by values derived from an older ledger.
 * A symbol that appeared meanwhile is stored with null values until the next revaluation.
 *
 * @throws UseCaseError `not_found` when the user has no such portfolio.
 */
export async function revaluePortfolio(
  deps: RevaluationDeps,
  userId: string,
  portfolioId: string,
  valuedAt: Date,
): Promise<RevaluationResult> {
  const repos = createRepositories(deps.db);
  if ((await repos.portfolios.get(userId, portfolioId)) === undefined) {
    throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
  }
  const before = deriveChecked(await readLedger(repos.transactions, userId, portfolioId), 'ledger');
  const inputs = await gatherMarketInputs(
    { quotes: deps.quotes, fx: deps.fx, marketData: repos.marketData },
    before,
    utcDay(valuedAt),
  );
  const at = valuedAt.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const tx = createRepositories(trx);
    // The id was checked to exist beforehand; a concurrent delete still answers not_found.
    if (!(await tx.portfolios.lockForUpdate(userId, portfolioId))) {
      throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
    }
    const derived = deriveChecked(await readLedger(tx.transactions, userId, portfolioId), 'ledger');
    const valued = valueHoldings(derived, { ...inputs, valuedAt: at });
    const stored = await tx.positions.replaceForPortfolio(
      userId,
      portfolioId,
      toStoredPositions(valued),
    );
    return {
      valuedAt: at,
      portfolios: [
        {
          portfolioId,
          valuedAt: at,
          totalValueEur: valued.totalValueEur,
          complete: valued.complete,
          issues: valued.issues,
        },
      ],
      holdings: stored.holdings.map(toHolding),
      cash: stored.cash.map(toCashPosition),
    };
  });
}

/** Merges the results of several portfolios' revaluations made at the same instant. */
export function mergeRevaluations(valuedAt: Date, results: RevaluationResult[]): RevaluationResult {
  return {
    valuedAt: valuedAt.toISOString(),
    portfolios: results.flatMap((r) => r.portfolios),
    holdings: results.flatMap((r) => r.holdings),
    cash: results.flatMap((r) => r.cash),
  };
}
