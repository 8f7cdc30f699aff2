import type { Instrument } from '@svc/schemas';
import type { Selectable } from 'kysely';
import type { CashPositionsTable, HoldingsTable } from '../db-types.js';
import { type Executor, isoOrNull, isoText, isUuid } from './shared.js';

/** A holding with stored EUR values (CONTRACT §4). Decimals are strings. */
export interface Holding {
  id: string;
  portfolioId: string;
  symbol: string;
  name: string | null;
  /** Units held. */
  quantity: string;
  /** Average cost per unit in `currency`. */
  averageCost: string | null;
  currency: string;
  /** Last price per unit in `currency`. */
  lastPrice: string | null;
  /** quantity × lastPrice, in `currency`. */
  marketValue: string | null;
  marketValueEur: string | null;
  costBasisEur: string | null;
  unrealizedPnlEur: string | null;
  /** Share of the portfolio's EUR value, as a fraction 0..1. */
  weight: string | null;
  /** ISO-8601 instant the EUR values were computed. */
  valuedAt: string | null;
  /** ISO-8601 instant of the quote behind `lastPrice`. */
  priceAsOf: string | null;
  /** Day (YYYY-MM-DD) of the ECB rate behind the EUR values. */
  fxAsOf: string | null;
  /** Whether the quote was older than the allowed age when valued. */
  stale: boolean | null;
  /** Realised P&L in EUR of the sales of this holding (decimal string). */
  realizedPnlEur: string | null;
  /** The holding's instrument (migration 0019); null on rows valued before it. */
  instrument: Instrument | null;
}

/** A cash balance with its stored EUR value (CONTRACT §4). */
export interface CashPosition {
  id: string;
  portfolioId: string;
  currency: string;
  amount: string;
  amountEur: string | null;
  /** ISO-8601. */
  valuedAt: string | null;
  /** Day (YYYY-MM-DD) of the ECB rate behind `amountEur`. */
  fxAsOf: string | null;
}

/** A derived holding to store; decimals as strings. */
export type NewHolding = Omit<
  Holding,
  | 'id'
  | 'portfolioId'
  | 'valuedAt'
  | 'priceAsOf'
  | 'fxAsOf'
  | 'stale'
  | 'realizedPnlEur'
  | 'instrument'
> & {
  instrument?: Instrument | null;
  valuedAt?: Date | string | null;
  priceAsOf?: Date | string | null;
  fxAsOf?: string | null;
  stale?: boolean | null;
  realizedPnlEur?: string | null;
};

/** A derived cash position to store; decimals as strings. */
export type NewCashPosition = Omit<CashPosition, 'id' | 'portfolioId' | 'valuedAt' | 'fxAsOf'> & {
  valuedAt?: Date | string | null;
  fxAsOf?: string | null;
};

function toHolding(row: Selectable<HoldingsTable>): Holding {
  return holdingOf(row, isoOrNull(row.valued_at), isoOrNull(row.price_as_of));
}

function toCash(row: Selectable<CashPositionsTable>): CashPosition {
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    currency: row.currency,
    amount: row.amount,
    amountEur: row.amount_eur,
    valuedAt: isoOrNull(row.valued_at),
    fxAsOf: row.fx_as_of,
  };
}

/** The columns of a listed holding but its owner, its instants as ISO text (`isoText`). */
const LISTED_HOLDING = [
  'id',
  'portfolio_id',
  'symbol',
  'name',
  'quantity',
  'average_cost',
  'currency',
  'last_price',
  'market_value',
  'market_value_eur',
  'cost_basis_eur',
  'unrealized_pnl_eur',
  'weight',
  'fx_as_of',
  'stale',
  'realized_pnl_eur',
  'instrument',
] as const;

type ListedHolding = Pick<Selectable<HoldingsTable>, (typeof LISTED_HOLDING)[number]> & {
  valued_iso: string | null;
  price_iso: string | null;
};

/** {@link toHolding} of a row read with {@link LISTED_HOLDING}. */
function toListedHolding(row: ListedHolding): Holding {
  return holdingOf(row, row.valued_iso, row.price_iso);
}

/** A holding from its listed columns and its two instants as ISO text (or null). */
function holdingOf(
  row: Pick<Selectable<HoldingsTable>, (typeof LISTED_HOLDING)[number]>,
  valuedAt: string | null,
  priceAsOf: string | null,
): Holding {
  return {
    id: row.id,
    portfolioId: row.portfolio_id,
    symbol: row.symbol,
    name: row.name,
    quantity: row.quantity,
    averageCost: row.average_cost,
    currency: row.currency,
    lastPrice: row.last_price,
    marketValue: row.market_value,
    marketValueEur: row.market_value_eur,
    costBasisEur: row.cost_basis_eur,
    unrealizedPnlEur: row.unrealized_pnl_eur,
    weight: row.weight,
    valuedAt,
    priceAsOf,
    fxAsOf: row.fx_as_of,
    stale: row.stale,
    realizedPnlEur: row.realized_pnl_eur,
    instrument: row.instrument ?? null,
  };
}

/**
 * Replaces the derived holdings and cash rows of one portfolio of the user in the caller's
 * transaction `trx` (deletes then inserts: readers see either the old set or the new one). No
 * lock and no ownership check: the flow locked the portfolio row. Database errors propagate
 * (`createLedgerWrites` maps them to `StoreError`s).
 */
export async function replacePositionsIn(
  trx: Executor,
  userId: string,
  portfolioId: string,
  positions: { holdings: readonly NewHolding[]; cash: readonly NewCashPosition[] },
): Promise<{ holdings: Holding[]; cash: CashPosition[] }> {
  const owner = { user_id: userId, portfolio_id: portfolioId };
  for (const table of ['holdings', 'cash_positions'] as const) {
    await trx
      .deleteFrom(table)
      .where('portfolio_id', '=', portfolioId)
      .where('user_id', '=', userId)
      .execute();
  }
  const holdings = positions.holdings.length
    ? await trx
        .insertInto('holdings')
        .values(
          positions.holdings.map((h) => ({
            ...owner,
            symbol: h.symbol,
            name: h.name,
            quantity: h.quantity,
            average_cost: h.averageCost,
            currency: h.currency,
            last_price: h.lastPrice,
            market_value: h.marketValue,
            market_value_eur: h.marketValueEur,
            cost_basis_eur: h.costBasisEur,
            unrealized_pnl_eur: h.unrealizedPnlEur,
            weight: h.weight,
            valued_at: h.valuedAt ?? null,
            price_as_of: h.priceAsOf ?? null,
            fx_as_of: h.fxAsOf ?? null,
            stale: h.stale ?? null,
            realized_pnl_eur: h.realizedPnlEur ?? null,
            instrument: h.instrument ? JSON.stringify(h.instrument) : null,
          })),
        )
        .returningAll()
        .execute()
    : [];
  const cash = positions.cash.length
    ? await trx
        .insertInto('cash_positions')
        .values(
          positions.cash.map((c) => ({
            ...owner,
            currency: c.currency,
            amount: c.amount,
            amount_eur: c.amountEur,
            valued_at: c.valuedAt ?? null,
            fx_as_of: c.fxAsOf ?? null,
          })),
        )
        .returningAll()
        .execute()
    : [];
  return { holdings: holdings.map(toHolding), cash: cash.map(toCash) };
}

/** Creates the holdings and cash repository over `db`. Every query is scoped by the owning user. */
export function createPositionsRepository(db: Executor) {
  return {
    /** The user's holdings (of one portfolio, or all), by portfolio then symbol. */
    async listHoldings(userId: string, options: { portfolioId?: string } = {}): Promise<Holding[]> {
      if (options.portfolioId !== undefined && !isUuid(options.portfolioId)) return [];
      let select = db
        .selectFrom('holdings')
        .select([
          ...LISTED_HOLDING,
          isoText('valued_at').as('valued_iso'),
          isoText('price_as_of').as('price_iso'),
        ])
        .where('user_id', '=', userId);
      if (options.portfolioId) select = select.where('portfolio_id', '=', options.portfolioId);
      const rows = await select
        .orderBy('portfolio_id')
        .orderBy('symbol')
        .orderBy('currency')
        .execute();
      return rows.map(toListedHolding);
    },

    /** The user's cash positions (of one portfolio, or all), by portfolio then currency. */
    async listCash(
      userId: string,
      options: { portfolioId?: string } = {},
    ): Promise<CashPosition[]> {
      if (options.portfolioId !== undefined && !isUuid(options.portfolioId)) return [];
      let select = db.selectFrom('cash_positions').selectAll().where('user_id', '=', userId);
      if (options.portfolioId) select = select.where('portfolio_id', '=', options.portfolioId);
      const rows = await select.orderBy('portfolio_id').orderBy('currency').execute();
      return rows.map(toCash);
    },
  };
}

/** The holdings and cash repository (see {@link createPositionsRepository}). */
export type PositionsRepository = ReturnType<typeof createPositionsRepository>;
