import { type DerivedPortfolio, type ValuationInputs, valueHoldings } from '@svc/portfolio';
import type { LedgerWrites, Repositories } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { money, toCashPosition, toHolding, toStoredPositions } from './position-records.js';
import type { RevaluationResult } from './schemas.js';

/**
 * Values `derived` with `inputs` and replaces the portfolio's stored holdings and cash with the
 * result (each holding with its symbol's entry of `instruments`, issue 38), in the unit of work that changed the ledger (`changeLedger`; an account import), so
 * that transactions and positions change together.
 */
export async function storeValuation(
  unit: { readonly repos: Repositories; readonly writes: LedgerWrites },
  userId: string,
  portfolioId: string,
  derived: DerivedPortfolio,
  inputs: ValuationInputs,
  instruments?: ReadonlyMap<string, Instrument>,
): Promise<RevaluationResult> {
  const at = inputs.valuedAt;
  const valued = valueHoldings(derived, inputs);
  const stored = await unit.writes.replacePositions(
    userId,
    portfolioId,
    toStoredPositions(valued, instruments),
  );
  if (derived.realizedPnlEur !== undefined) {
    await unit.repos.portfolios.setRealizedPnlEur(userId, portfolioId, derived.realizedPnlEur);
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
