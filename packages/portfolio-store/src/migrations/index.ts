import type { Migration, MigrationProvider } from 'kysely';
import { initialSchema } from './0001-initial-schema.js';
import { transactionAmountRatio } from './0002-transaction-amount-ratio.js';
import { importFingerprints } from './0003-import-fingerprints.js';
import { sharedLimitsAndSessionNotify } from './0006-shared-limits-and-session-notify.js';
import { importMappings } from './0007-import-mappings.js';
import { portfolioRealizedPnl } from './0008-portfolio-realized-pnl.js';
import { screenerSortIndexes } from './0009-screener-sort-indexes.js';
import { tokenScopesAndAudit } from './0010-token-scopes-and-audit.js';
import { evaluationHistory } from './0011-evaluation-history.js';
import { portfolioLedgerVersion } from './0012-portfolio-ledger-version.js';
import { portfolioPositionsVersion } from './0013-portfolio-positions-version.js';
import { portfolioChanges } from './0014-portfolio-changes.js';
import { portfolioChangeVersions } from './0014b-portfolio-change-versions.js';
import { evaluationEventsAndWebhooks } from './0016-evaluation-events-and-webhooks.js';
import { eventOutbox } from './0018-event-outbox.js';
import { instruments } from './0019-instruments.js';
import { evaluationAsOfCache } from './0021-evaluation-as-of-cache.js';
import { evaluationCacheDataQuality } from './0022-evaluation-cache-data-quality.js';

/**
 * Every migration, keyed by name; names sort in the order they run. Imported statically (no
 * file-system scan) so that the migrations bundle with the package.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial-schema': initialSchema,
  '0002-transaction-amount-ratio': transactionAmountRatio,
  '0003-import-fingerprints': importFingerprints,
  '0006-shared-limits-and-session-notify': sharedLimitsAndSessionNotify,
  '0007-import-mappings': importMappings,
  '0008-portfolio-realized-pnl': portfolioRealizedPnl,
  '0009-screener-sort-indexes': screenerSortIndexes,
  '0010-token-scopes-and-audit': tokenScopesAndAudit,
  '0011-evaluation-history': evaluationHistory,
  '0012-portfolio-ledger-version': portfolioLedgerVersion,
  '0013-portfolio-positions-version': portfolioPositionsVersion,
  '0014-portfolio-changes': portfolioChanges,
  '0014b-portfolio-change-versions': portfolioChangeVersions,
  '0016-evaluation-events-and-webhooks': evaluationEventsAndWebhooks,
  '0018-event-outbox': eventOutbox,
  '0019-instruments': instruments,
  '0021-evaluation-as-of-cache': evaluationAsOfCache,
  '0022-evaluation-cache-data-quality': evaluationCacheDataQuality,
};

/** A Kysely `MigrationProvider` over {@link MIGRATIONS}. */
export const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => ({ ...MIGRATIONS }),
};
