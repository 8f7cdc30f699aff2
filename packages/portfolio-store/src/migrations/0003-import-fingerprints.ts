import { type Kysely, sql } from 'kysely';

/**
 * Migration 0003: idempotent imports and per-currency holdings.
 *
 * - `transactions.fingerprint` (text, nullable): the import fingerprint of a transaction that came
 *   from a broker file (the broker's own id, or a hash of the normalised row; see `fingerprintRows`
 *   of `@svc/portfolio`), unique per portfolio (`transactions_portfolio_fingerprint_unique`, a
 *   partial unique index over the rows that have one), so that importing the same file twice
 *   cannot store a row twice even when two imports race.
 * - `transactions.name` (text, nullable): the instrument name the export gives (an ISIN keeps the
 *   name of the product it identifies).
 * - `holdings`: one holding per (portfolio, symbol, currency) instead of per (portfolio, symbol):
 *   the same symbol bought in two currencies (Revolut's TSLA in USD and in EUR) is two holdings.
 *   Also the dates behind a holding's values: `price_as_of` (the quote's instant), `fx_as_of`
 *   (the ECB rate's day), `stale` (the quote is older than the allowed age) and
 *   `realized_pnl_eur` (realised P&L in EUR of the sales of the symbol).
 * - `cash_positions.fx_as_of`: the ECB rate's day behind `amount_eur`.
 *
 * `down` reverses every step; it fails if a portfolio holds one symbol in two currencies.
 */
export const importFingerprints = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('transactions')
      .addColumn('fingerprint', 'text')
      .addColumn('name', 'text')
      .execute();
    await db.schema
      .createIndex('transactions_portfolio_fingerprint_unique')
      .on('transactions')
      .columns(['portfolio_id', 'fingerprint'])
      .unique()
      .where(sql.ref('fingerprint'), 'is not', null)
      .execute();
    await db.schema
      .alterTable('holdings')
      .dropConstraint('holdings_portfolio_symbol_unique')
      .execute();
    await db.schema
      .alterTable('holdings')
      .addUniqueConstraint('holdings_portfolio_symbol_currency_unique', [
        'portfolio_id',
        'symbol',
        'currency',
      ])
      .execute();
    await db.schema
      .alterTable('holdings')
      .addColumn('price_as_of', 'timestamptz')
      .addColumn('fx_as_of', 'date')
      .addColumn('stale', 'boolean')
      .addColumn('realized_pnl_eur', 'numeric')
      .execute();
    await db.schema.alterTable('cash_positions').addColumn('fx_as_of', 'date').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('cash_positions').dropColumn('fx_as_of').execute();
    await db.schema
      .alterTable('holdings')
      .dropColumn('price_as_of')
      .dropColumn('fx_as_of')
      .dropColumn('stale')
      .dropColumn('realized_pnl_eur')
      .execute();
    await db.schema
      .alterTable('holdings')
      .dropConstraint('holdings_portfolio_symbol_currency_unique')
      .execute();
    await db.schema
      .alterTable('holdings')
      .addUniqueConstraint('holdings_portfolio_symbol_unique', ['portfolio_id', 'symbol'])
      .execute();
    await db.schema.dropIndex('transactions_portfolio_fingerprint_unique').execute();
    await db.schema
      .alterTable('transactions')
      .dropColumn('fingerprint')
      .dropColumn('name')
      .execute();
  },
};
