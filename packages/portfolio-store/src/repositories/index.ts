import { createAdvisorProposalsRepository } from './advisor-proposals.js';
import { createEvaluationCacheRepository } from './evaluation-cache.js';
import { createEvaluationEventsRepository } from './evaluation-events.js';
import { createEvaluationHistoryRepository } from './evaluation-history.js';
import { createImportMappingsRepository } from './import-mappings.js';
import { createInstrumentResolutionsRepository } from './instrument-resolutions.js';
import { createMarketDataRepository } from './market-data.js';
import { createMoatReportsRepository } from './moat-reports.js';
import { createPersonalAccessTokensRepository } from './personal-access-tokens.js';
import { createPortfoliosRepository } from './portfolios.js';
import { createPositionsRepository } from './positions.js';
import { createQuotaUsageRepository } from './quota-usage.js';
import { createScreenerRepository } from './screener.js';
import { createSecRefreshRepository } from './sec-refresh.js';
import { createSessionsRepository } from './sessions.js';
import type { Executor } from './shared.js';
import { createTokenActivityRepository } from './token-activity.js';
import { createTransactionsRepository } from './transactions.js';
import { createUsersRepository } from './users.js';
import { createWebhooksRepository } from './webhooks.js';

/**
 * Every repository over one Kysely instance or transaction. User data is always addressed with
 * the owning user's id; shared data (quotes, FX rates, the evaluation cache and its history) is not.
 *
 * @example
 * ```ts
 * const repos = createRepositories(database.db);
 * const portfolios = await repos.portfolios.list(userId);
 * // a unit of work: the flow opens the transaction; the ledger's writes take it
 * await database.db.transaction().execute(async (trx) => {
 *   const tx = createRepositories(trx);
 *   if (!(await tx.portfolios.lockForUpdate(userId, portfolioId))) throw new Error('not found');
 *   await createLedgerWrites(trx).insert(userId, portfolioId, [entry]);
 * });
 * ```
 */
export function createRepositories(db: Executor) {
  return {
    users: createUsersRepository(db),
    sessions: createSessionsRepository(db),
    tokens: createPersonalAccessTokensRepository(db),
    tokenActivity: createTokenActivityRepository(db),
    portfolios: createPortfoliosRepository(db),
    transactions: createTransactionsRepository(db),
    positions: createPositionsRepository(db),
    marketData: createMarketDataRepository(db),
    evaluations: createEvaluationCacheRepository(db),
    evaluationHistory: createEvaluationHistoryRepository(db),
    screener: createScreenerRepository(db),
    reports: createMoatReportsRepository(db),
    proposals: createAdvisorProposalsRepository(db),
    quotaUsage: createQuotaUsageRepository(db),
    importMappings: createImportMappingsRepository(db),
    evaluationEvents: createEvaluationEventsRepository(db),
    webhooks: createWebhooksRepository(db),
    secRefresh: createSecRefreshRepository(db),
    instrumentResolutions: createInstrumentResolutionsRepository(db),
  };
}

/** All repositories (see {@link createRepositories}). */
export type Repositories = ReturnType<typeof createRepositories>;
