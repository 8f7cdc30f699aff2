import type { Kysely } from 'kysely';

/**
 * Migration 0008: `portfolios.realized_pnl_eur` (numeric, nullable): the realised P&L in EUR of
 * every sale of the portfolio, positions sold to zero included (a holding row carries only its own
 * open position's), written with each valuation. Null until the portfolio is valued with EUR
 * rates, and when a rate was missing. `down` drops the column.
 */
export const portfolioRealizedPnl = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('portfolios').addColumn('realized_pnl_eur', 'numeric').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('portfolios').dropColumn('realized_pnl_eur').execute();
  },
};
