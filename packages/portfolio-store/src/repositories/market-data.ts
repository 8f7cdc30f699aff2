import type { Selectable } from 'kysely';
import type { FxRatesTable, QuotesTable } from '../db-types.js';
import { toStoreError } from '../errors.js';
import { type Executor, iso } from './shared.js';

/** 1 `base` = `rate` `quote` on `date` (e.g. base EUR, quote USD, rate "1.0842"). */
export interface FxRate {
  /** ISO 4217 code. */
  base: string;
  /** ISO 4217 code. */
  quote: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** Units of `quote` per unit of `base`; decimal string. */
  rate: string;
  source: string | null;
}

/** An FX rate to store. */
export type NewFxRate = Omit<FxRate, 'source'> & { source?: string | null };

/** A price observation. */
export interface Quote {
  symbol: string;
  /** Price per share in `currency`; decimal string. */
  price: string;
  currency: string;
  /** ISO-8601 instant the price refers to. */
  asOf: string;
  /** Where the price came from (provider name). */
  source: string;
}

/** A price observation to store. */
export type NewQuote = Omit<Quote, 'asOf'> & { asOf: Date | string };

function toFxRate(row: Selectable<FxRatesTable>): FxRate {
  return { base: row.base, quote: row.quote, date: row.date, rate: row.rate, source: row.source };
}

function toQuote(row: Selectable<QuotesTable>): Quote {
  return {
    symbol: row.symbol,
    price: row.price,
    currency: row.currency,
    asOf: iso(row.as_of),
    source: row.source,
  };
}

/** Creates the FX-rate and quote repository over `db` (shared data, not user-scoped). */
export function createMarketDataRepository(db: Executor) {
  return {
    /**
     * Inserts FX rates, replacing the rate of an existing (base, quote, date). Codes are upper-cased.
     * @throws {StoreError} `invalid_input` for a malformed date or a rate ≤ 0.
     */
    async upsertFxRates(rates: readonly NewFxRate[]): Promise<void> {
      if (rates.length === 0) return;
      await db
        .insertInto('fx_rates')
        .values(
          rates.map((r) => ({
            base: r.base.toUpperCase(),
            quote: r.quote.toUpperCase(),
            date: r.date,
            rate: r.rate,
            source: r.source ?? null,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['base', 'quote', 'date']).doUpdateSet((eb) => ({
            rate: eb.ref('excluded.rate'),
            source: eb.ref('excluded.source'),
            fetched_at: eb.fn<Date>('now'),
          })),
        )
        .execute()
        .catch((error: unknown) => {
          throw toStoreError(error, 'fx rate');
        });
    },

    /** The rate of the latest date on or before `onOrBefore` (`YYYY-MM-DD`), or undefined. */
    async latestFxRate(
      base: string,
      quote: string,
      onOrBefore: string,
    ): Promise<FxRate | undefined> {
      const row = await db
        .selectFrom('fx_rates')
        .selectAll()
        .where('base', '=', base.toUpperCase())
        .where('quote', '=', quote.toUpperCase())
        .where('date', '<=', onOrBefore)
        .orderBy('date', 'desc')
        .limit(1)
        .executeTakeFirst()
        .catch((error: unknown) => {
          throw toStoreError(error, 'fx rate');
        });
      return row && toFxRate(row);
    },

    /** Inserts quotes, replacing an existing (symbol, asOf). Symbols are upper-cased. */
    async upsertQuotes(quotes: readonly NewQuote[]): Promise<void> {
      if (quotes.length === 0) return;
      await db
        .insertInto('quotes')
        .values(
          quotes.map((q) => ({
            symbol: q.symbol.toUpperCase(),
            price: q.price,
            currency: q.currency.toUpperCase(),
            as_of: q.asOf,
            source: q.source,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['symbol', 'as_of']).doUpdateSet((eb) => ({
            price: eb.ref('excluded.price'),
            currency: eb.ref('excluded.currency'),
            source: eb.ref('excluded.source'),
            fetched_at: eb.fn<Date>('now'),
          })),
        )
        .execute()
        .catch((error: unknown) => {
          throw toStoreError(error, 'quote');
        });
    },

    /** The latest quote of a symbol at or before `onOrBefore` (default: the latest of all). */
    async latestQuote(symbol: string, onOrBefore?: Date): Promise<Quote | undefined> {
      let select = db.selectFrom('quotes').selectAll().where('symbol', '=', symbol.toUpperCase());
      if (onOrBefore) select = select.where('as_of', '<=', onOrBefore);
      const row = await select.orderBy('as_of', 'desc').limit(1).executeTakeFirst();
      return row && toQuote(row);
    },
  };
}

/** The FX-rate and quote repository (see {@link createMarketDataRepository}). */
export type MarketDataRepository = ReturnType<typeof createMarketDataRepository>;
