import type { FundamentalsProvider } from '@svc/fundamentals-client';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import type { Criterion, CriterionKey } from '@svc/schemas';
import { type CompanyEvaluation, evaluateCompany } from '../../src/moat/evaluate-company.js';
import { COMPANYFACTS_DIR, PRICES_DIR } from '../shared-data.js';

/** Evaluations of real companies (companyfacts snapshot + CSV prices), each made once by `load`. */
export interface RealEvaluations {
  /** Evaluates every symbol, as the service does offline; call it in `beforeAll`. */
  load(): Promise<void>;
  /** The snapshot provider the evaluations were made from (after `load`). */
  fundamentals(): FundamentalsProvider;
  /** @throws when `symbol` was not evaluated. */
  result(symbol: string): CompanyEvaluation;
  /** @throws when the evaluation has no criterion `key`. */
  criterion(symbol: string, key: CriterionKey): Criterion;
  /** The trend point of a criterion for one fiscal year (through `_trendYears`). */
  trendPoint(symbol: string, key: CriterionKey, fiscalYear: number): number | undefined;
}

/** The real-data evaluations of `symbols` at the instant `now` (test support). */
export function realEvaluations(symbols: readonly string[], now: Date): RealEvaluations {
  const results = new Map<string, CompanyEvaluation>();
  let provider: FundamentalsProvider | undefined;
  const result = (symbol: string): CompanyEvaluation => {
    const evaluation = results.get(symbol);
    if (evaluation === undefined) throw new Error(`${symbol} was not evaluated`);
    return evaluation;
  };
  const criterion = (symbol: string, key: CriterionKey): Criterion => {
    const found = result(symbol).criteria.find((c) => c.key === key);
    if (found === undefined) throw new Error(`${symbol}: no ${key} criterion`);
    return found;
  };
  return {
    async load() {
      const fundamentals = createFundamentalsProvider({
        provider: 'snapshot',
        snapshotDir: COMPANYFACTS_DIR,
      });
      provider = fundamentals;
      const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
      for (const symbol of symbols) {
        results.set(
          symbol,
          await evaluateCompany(symbol, { fundamentals, quotes, splitsOf, now: () => now }),
        );
      }
    },
    fundamentals() {
      if (provider === undefined) throw new Error('load() first');
      return provider;
    },
    result,
    criterion,
    trendPoint(symbol, key, fiscalYear) {
      const c = criterion(symbol, key);
      const index = c._trendYears?.indexOf(fiscalYear) ?? -1;
      return index < 0 ? undefined : c.trend?.[index];
    },
  };
}
