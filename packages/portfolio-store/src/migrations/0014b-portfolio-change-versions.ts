import { type Kysely, sql } from 'kysely';

/**
 * Migration 0014b: `portfolio_changes.ledger_version_before` and `ledger_version_after` (bigint,
 * null for changes written before it), the portfolio's `ledger_version` (migration 0012) right
 * before and after each change. A chain of changes from a version to the current one tells a
 * reader that nothing else wrote the ledger meanwhile, so it can patch a ledger it holds instead
 * of reading it whole (`transactions.ledgerPatch`, issue 30). A migration of its own, sorted
 * between 0014 and 0015, because 0014 was already merged; `if not exists` keeps it harmless
 * anywhere. `down` drops the two columns.
 */
export const portfolioChangeVersions = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      alter table portfolio_changes
        add column if not exists ledger_version_before bigint,
        add column if not exists ledger_version_after bigint
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`
      alter table portfolio_changes
        drop column ledger_version_before,
        drop column ledger_version_after
    `.execute(db);
  },
};
