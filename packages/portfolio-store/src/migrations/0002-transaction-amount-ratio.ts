import { type Kysely, sql } from 'kysely';

/**
 * Migration 0002: the `amount` of a dividend, deposit, withdrawal or fee and the `ratio` of a
 * split get their own nullable `numeric` columns on `transactions`.
 *
 * Before this migration the use-case layer stored those values in the unused numeric columns
 * (`amount` in `price` with `quantity` null, `ratio` in `quantity` with `price` null). `up` moves
 * such rows into the new columns and clears the borrowed ones; `down` puts them back, so a
 * database can go either way without losing a value.
 */
export const transactionAmountRatio = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('transactions')
      .addColumn('amount', 'numeric')
      .addColumn('ratio', 'numeric')
      .execute();
    await sql`
      update transactions set amount = price, price = null
      where type in ('dividend', 'deposit', 'withdrawal', 'fee') and price is not null
    `.execute(db);
    await sql`
      update transactions set ratio = quantity, quantity = null
      where type = 'split' and quantity is not null
    `.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`
      update transactions set price = amount
      where type in ('dividend', 'deposit', 'withdrawal', 'fee') and amount is not null
    `.execute(db);
    await sql`
      update transactions set quantity = ratio
      where type = 'split' and ratio is not null
    `.execute(db);
    await db.schema.alterTable('transactions').dropColumn('amount').dropColumn('ratio').execute();
  },
};
