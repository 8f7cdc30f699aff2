import { type DerivedPortfolio, type ValuationInputs, valueHoldings } from '@svc/portfolio';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { UseCaseError } from '../errors.js';
import { utcDay } from './decimal-text.js';
import { deriveChecked, readLedger, readLedgerWithNames } from './ledger.js';
import { gatherMarketInputs, historicEurRates, type MarketInputsDeps } from './market-inputs.js';
import { money, toCashPosition, toHolding, toStoredPositions } from './position-records.js';
import type { RevaluationResult } from './schemas.js';

/** What {@link revaluePortfolio} needs. */
export interface RevaluationDeps extends Omit<MarketInputsDeps, 'marketData'> {
  readonly db: Executor;
}

/**
 * Re-derives one portfolio's holdings and cash from all its transactions, values them in EUR as
 * of `valuedAt` and stores them (`positions.replaceForPortfolio`). The EUR cost of each holding is
 * taken at the ECB rate of each purchase's day (`historicEurRates`), so unrealised P&L in EUR
 * includes the currency effect; realised P&L in EUR is kept per holding.
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
  const beforeLedger = await readLedger(repos.transactions, userId, portfolioId);
  const before = deriveChecked(beforeLedger, 'ledger');
  const marketDeps = { quotes: deps.quotes, fx: deps.fx, marketData: repos.marketData };
  const inputs = await gatherMarketInputs(marketDeps, before, utcDay(valuedAt));
  const eurRateOn = await historicEurRates(marketDeps, beforeLedger);
  const at = valuedAt.toISOString();
  return deps.db.transaction().execute(async (trx) => {
    const tx = createRepositories(trx);
    // The id was checked to exist beforehand; a concurrent delete still answers not_found.
    if (!(await tx.portfolios.lockForUpdate(userId, portfolioId))) {
      throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
    }
    const { ledger, names, instruments } = await readLedgerWithNames(
      tx.transactions,
      userId,
      portfolioId,
    );
    return storeValuation(
      tx,
      userId,
      portfolioId,
      deriveChecked(ledger, 'ledger', { eurRateOn }),
      { ...inputs, valuedAt: at, names },
      instruments,
    );
  });
}

/**
 * Values `derived` with `inputs` and replaces the portfolio's stored holdings and cash with the
 * result (each holding with its symbol's entry of `instruments`, issue 38), through `repos` (run it inside the database transaction that changed the ledger, so
 * that transactions and positions change together).
 */
export async function storeValuation(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  derived: DerivedPortfolio,
  inputs: ValuationInputs,
  instruments?: ReadonlyMap<string, Instrument>,
): Promise<RevaluationResult> {
  const at = inputs.valuedAt;
  const valued = valueHoldings(derived, inputs);
  const stored = await repos.positions.replaceForPortfolio(
    userId,
    portfolioId,
    toStoredPositions(valued, instruments),
  );
  if (derived.realizedPnlEur !== undefined) {
    await repos.portfolios.setRealizedPnlEur(userId, portfolioId, derived.realizedPnlEur);
  }
  return {
    valuedAt: at,
    portfolios: [
      {
        portfolioId,
        valuedAt: at,
        totalValueEur: money(valued.totalValueEur) ?? '0.00',
        complete: valued.complete,
        issues: valued.issues,
      },
    ],
    holdings: stored.holdings.map(toHolding),
    cash: stored.cash.map(toCashPosition),
  };
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
