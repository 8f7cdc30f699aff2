import { Dec, formatDecimal, parseDecimal } from './decimal.js';
import { PortfolioError } from './errors.js';
import type { Transaction } from './transaction.js';

/** What {@link deriveHoldings} reads of a transaction: a stored `Transaction` without `portfolioId`. */
export type LedgerTransaction = Omit<Transaction, 'portfolioId'>;

/**
 * A position derived from transactions, before valuation. Decimal strings.
 *
 * - `quantity`: units held, always > 0 (positions that reach 0 are dropped);
 * - `costBasis`: total cost of the units held, in `currency`, buy fees included;
 * - `averageCost`: `costBasis / quantity`, per unit, rounded half-even to 10 places.
 */
export interface DerivedHolding {
  readonly symbol: string;
  readonly currency: string;
  readonly quantity: string;
  readonly averageCost: string;
  readonly costBasis: string;
  /**
   * Cost of the units held in EUR, each purchase converted at the EUR rate of its own day
   * (`DeriveOptions.eurRateOn`); `null` when a rate was missing; absent without `eurRateOn`.
   */
  readonly costBasisEur?: string | null;
  /**
   * Realised P&L in EUR of the sales of this holding so far: each sale's proceeds at the rate of
   * its day minus the EUR cost of the units sold (average cost in EUR); `null` when a rate was
   * missing; absent without `eurRateOn`.
   */
  readonly realizedPnlEur?: string | null;
}

/** Options of {@link deriveHoldings}. */
export interface DeriveOptions {
  /**
   * The EUR reference rate (units of `currency` per 1 EUR, decimal string) for the day
   * `YYYY-MM-DD` of a transaction (the caller applies the ECB rule: that day's rate or the last
   * one published before it); `undefined` when none is known. EUR itself is never asked.
   */
  readonly eurRateOn?: (currency: string, day: string) => string | undefined;
}

/** Cash in one currency derived from transactions; `amount` may be negative, never exactly 0. */
export interface DerivedCash {
  readonly currency: string;
  readonly amount: string;
}

/** Result of {@link deriveHoldings}: holdings sorted by symbol then currency, cash by currency. */
export interface DerivedPortfolio {
  readonly holdings: DerivedHolding[];
  readonly cash: DerivedCash[];
  /**
   * With `eurRateOn` only: realised P&L in EUR of every sale of the ledger, positions closed since
   * included (the holdings carry only their own); null when a rate was missing for one.
   */
  readonly realizedPnlEur?: string | null;
}

/** One position of a {@link Ledger}: units and their total cost in `currency`. */
export interface Position {
  readonly symbol: string;
  readonly currency: string;
  quantity: Dec;
  cost: Dec;
  /** Cost in EUR at each transaction's rate; null once a rate was missing. */
  costEur: Dec | null;
  /** Realised P&L in EUR; null once a rate was missing. */
  realizedEur: Dec | null;
}

/** Running state of a replay: positions by symbol and currency, cash by currency. */
export interface Ledger {
  readonly positions: Map<string, Position>;
  readonly cash: Map<string, Dec>;
  readonly eurRateOn?: DeriveOptions['eurRateOn'];
  /** Realised P&L in EUR of positions sold to zero (their rows leave `positions`); null once unknown. */
  closedRealizedEur: Dec | null;
}

/** An empty {@link Ledger}. */
export function emptyLedger(options: DeriveOptions = {}): Ledger {
  return options.eurRateOn
    ? {
        positions: new Map(),
        cash: new Map(),
        eurRateOn: options.eurRateOn,
        closedRealizedEur: new Dec(0),
      }
    : { positions: new Map(), cash: new Map(), closedRealizedEur: null };
}

/** Units of `symbol` in `currency` held in `ledger` now (0 when none). */
export function heldQuantity(ledger: Ledger, symbol: string, currency: string): Dec {
  return ledger.positions.get(positionKey(symbol, currency))?.quantity ?? new Dec(0);
}

/**
 * Order of transaction types that share one `executedAt`: money in and units in first, then units
 * out, then money out (deposit, buy, split, sell, dividend, fee, withdrawal), so that a file
 * listing a sale and its purchase at the same second, or a conversion and the trade it pays for,
 * replays the same whatever the order of its lines. Within one rank the result does not depend on
 * the order: buys add up, sells at average cost commute, cash is a sum.
 */
export const TYPE_RANK: Readonly<Record<LedgerTransaction['type'], number>> = {
  deposit: 0,
  buy: 1,
  split: 2,
  sell: 3,
  dividend: 4,
  fee: 5,
  withdrawal: 6,
};

/** Holdings and cash of a ledger, as {@link deriveHoldings} returns them. */
export function snapshot(ledger: Ledger): DerivedPortfolio {
  const withEur = ledger.eurRateOn !== undefined;
  let realized: Dec | null = ledger.closedRealizedEur;
  for (const position of ledger.positions.values()) {
    realized =
      realized === null || position.realizedEur === null
        ? null
        : realized.plus(position.realizedEur);
  }
  return {
    ...(withEur ? { realizedPnlEur: realized === null ? null : formatDecimal(realized) } : {}),
    holdings: [...ledger.positions.values()]
      .sort((a, b) => compare(a.symbol, b.symbol) || compare(a.currency, b.currency))
      .map((p) => toDerivedHolding(p, withEur)),
    cash: [...ledger.cash.entries()]
      .filter(([, amount]) => !amount.isZero())
      .sort(([a], [b]) => compare(a, b))
      .map(([currency, amount]) => ({ currency, amount: formatDecimal(amount) })),
  };
}

/**
 * Replays transactions into holdings and cash with the average-cost method, in decimal arithmetic.
 *
 * Order: by `executedAt` (as an instant), then by type ({@link TYPE_RANK}: deposit, buy, split,
 * sell, dividend, fee, withdrawal), then by `id` (code-unit order), so the result does not depend
 * on the order of the input array, nor on the order of transactions sharing a timestamp.
 *
 * Method (average cost, as in IAS 2 "weighted average cost" applied to securities):
 * - `buy`: quantity += q; cost += q × price + fee (fees are capitalised); cash −= q × price + fee.
 * - `sell`: cost −= cost × q / quantity (units leave at average cost, so the average cost is
 *   unchanged); quantity −= q; cash += q × price − fee. Realised P&L is not tracked.
 * - `split`: every holding of the symbol: quantity × ratio, cost unchanged (average cost ÷ ratio).
 *   A split of a symbol not held is a no-op.
 * - `dividend`, `deposit`: cash += amount; `withdrawal`, `fee`: cash −= amount.
 *
 * With `options.eurRateOn`, each holding also carries `costBasisEur` (every purchase at the EUR
 * rate of its day; a sale removes the average EUR cost of the units sold) and `realizedPnlEur`
 * (proceeds at the sale day's rate − EUR cost of the units sold), the method of Ghostfolio's
 * "with currency effect" figures, so that unrealised P&L in EUR includes the currency effect.
 *
 * Cash moves in the transaction's currency and may go negative (no error). Holdings are keyed by
 * symbol and currency: the same symbol bought in two currencies gives two holdings.
 *
 * @throws {PortfolioError} `insufficient_quantity` when a sell exceeds the units held at that
 * moment (`transactionId` set); `invalid_transaction` when a field the type needs is missing or is
 * not a decimal string in range, or `executedAt` is not a date.
 *
 * @example
 * ```ts
 * const { holdings, cash } = deriveHoldings([
 *   { id: '1', type: 'deposit', amount: '1000', currency: 'USD', executedAt: '2024-01-01T00:00:00Z' },
 *   { id: '2', type: 'buy', symbol: 'AAPL', quantity: '2', price: '150', fee: '1', currency: 'USD',
 *     executedAt: '2024-01-02T15:00:00Z' },
 * ]);
 * // holdings: [{ symbol: 'AAPL', currency: 'USD', quantity: '2', averageCost: '150.5', costBasis: '301' }]
 * // cash: [{ currency: 'USD', amount: '699' }]
 * ```
 */
export function deriveHoldings(
  transactions: readonly LedgerTransaction[],
  options: DeriveOptions = {},
): DerivedPortfolio {
  const ledger = emptyLedger(options);
  for (const tx of sortTransactions(transactions)) applyTransaction(ledger, tx);
  return snapshot(ledger);
}

/**
 * Sorts by `executedAt` instant, then {@link TYPE_RANK}, then `id`; throws `invalid_transaction`
 * on an unparsable date.
 */
export function sortTransactions<T extends LedgerTransaction>(transactions: readonly T[]): T[] {
  return sortTransactionsTimed(transactions).map((k) => k.tx);
}

/**
 * {@link sortTransactions} with each transaction's instant (`at`, ms since the epoch, as
 * `Date.parse` reads `executedAt`), for callers that need it too (the daily walk's days).
 *
 * @throws PortfolioError `invalid_transaction` on an unparsable date.
 */
export function sortTransactionsTimed<T extends LedgerTransaction>(
  transactions: readonly T[],
): { readonly tx: T; readonly at: number }[] {
  const keyed = transactions.map((tx) => {
    const at = Date.parse(tx.executedAt);
    if (Number.isNaN(at)) {
      throw invalid(tx, `executedAt "${tx.executedAt}" is not an ISO 8601 date-time`);
    }
    return { tx, at };
  });
  keyed.sort(
    (a, b) =>
      a.at - b.at || TYPE_RANK[a.tx.type] - TYPE_RANK[b.tx.type] || compare(a.tx.id, b.tx.id),
  );
  return keyed;
}

/** Applies one transaction to `ledger` (see {@link deriveHoldings} for the method). */
export function applyTransaction(ledger: Ledger, tx: LedgerTransaction): void {
  switch (tx.type) {
    case 'buy':
      applyBuy(ledger, tx);
      break;
    case 'sell':
      applySell(ledger, tx);
      break;
    case 'split':
      applySplit(ledger, tx);
      break;
    case 'dividend':
    case 'deposit':
      moveCash(ledger, tx.currency, decimalField(tx, 'amount', 'positive'));
      break;
    case 'withdrawal':
    case 'fee':
      moveCash(ledger, tx.currency, decimalField(tx, 'amount', 'positive').neg());
      break;
    default:
      assertNever(tx.type);
  }
}

function applyBuy(ledger: Ledger, tx: LedgerTransaction): void {
  const { symbol, quantity, gross, fee } = tradeFields(tx);
  const position = positionFor(ledger, symbol, tx.currency);
  position.quantity = position.quantity.plus(quantity);
  position.cost = position.cost.plus(gross).plus(fee);
  const rate = rateOn(ledger, tx);
  position.costEur =
    position.costEur === null || rate === null
      ? null
      : position.costEur.plus(gross.plus(fee).div(rate));
  moveCash(ledger, tx.currency, gross.plus(fee).neg());
}

function applySell(ledger: Ledger, tx: LedgerTransaction): void {
  const { symbol, quantity, gross, fee } = tradeFields(tx);
  const key = positionKey(symbol, tx.currency);
  const position = ledger.positions.get(key);
  const held = position?.quantity ?? new Dec(0);
  if (position === undefined || held.lt(quantity)) {
    throw new PortfolioError(
      'insufficient_quantity',
      `transaction ${tx.id}: sells ${quantity.toFixed()} ${symbol} (${tx.currency}) but only ${held.toFixed()} are held`,
      { transactionId: tx.id },
    );
  }
  position.cost = position.cost.minus(position.cost.times(quantity).div(held));
  const rate = rateOn(ledger, tx);
  if (position.costEur === null || rate === null) {
    position.costEur = null;
    position.realizedEur = null;
  } else {
    const soldCostEur = position.costEur.times(quantity).div(held);
    position.costEur = position.costEur.minus(soldCostEur);
    const proceedsEur = gross.minus(fee).div(rate);
    position.realizedEur = position.realizedEur?.plus(proceedsEur.minus(soldCostEur)) ?? null;
  }
  position.quantity = held.minus(quantity);
  if (position.quantity.isZero()) {
    // the position leaves the ledger; its realised P&L stays in the portfolio's total
    ledger.closedRealizedEur =
      ledger.closedRealizedEur === null || position.realizedEur === null
        ? null
        : ledger.closedRealizedEur.plus(position.realizedEur);
    ledger.positions.delete(key);
  }
  moveCash(ledger, tx.currency, gross.minus(fee));
}

function applySplit(ledger: Ledger, tx: LedgerTransaction): void {
  const symbol = requiredSymbol(tx);
  const ratio = decimalField(tx, 'ratio', 'positive');
  for (const position of ledger.positions.values()) {
    if (position.symbol === symbol) position.quantity = position.quantity.times(ratio);
  }
}

function tradeFields(tx: LedgerTransaction) {
  const symbol = requiredSymbol(tx);
  const quantity = decimalField(tx, 'quantity', 'positive');
  const price = decimalField(tx, 'price', 'non-negative');
  const fee = tx.fee === undefined ? new Dec(0) : decimalField(tx, 'fee', 'non-negative');
  return { symbol, quantity, gross: quantity.times(price), fee };
}

function positionFor(ledger: Ledger, symbol: string, currency: string): Position {
  const key = positionKey(symbol, currency);
  let position = ledger.positions.get(key);
  if (position === undefined) {
    const eur = ledger.eurRateOn === undefined ? null : new Dec(0);
    position = {
      symbol,
      currency,
      quantity: new Dec(0),
      cost: new Dec(0),
      costEur: eur,
      realizedEur: eur,
    };
    ledger.positions.set(key, position);
  }
  return position;
}

function moveCash(ledger: Ledger, currency: string, delta: Dec): void {
  ledger.cash.set(currency, (ledger.cash.get(currency) ?? new Dec(0)).plus(delta));
}

type DecimalField = 'quantity' | 'price' | 'amount' | 'ratio' | 'fee';

function decimalField(
  tx: LedgerTransaction,
  field: DecimalField,
  range: 'positive' | 'non-negative',
): Dec {
  const raw = tx[field];
  if (raw === undefined) throw invalid(tx, `a ${tx.type} needs ${field}`);
  const value = parseDecimal(raw);
  if (value === undefined) throw invalid(tx, `${field} "${raw}" is not a decimal string`);
  if (range === 'positive' ? !value.gt(0) : value.lt(0)) {
    throw invalid(tx, `${field} must be ${range === 'positive' ? '> 0' : '>= 0'}, got ${raw}`);
  }
  return value;
}

function requiredSymbol(tx: LedgerTransaction): string {
  const symbol = tx.symbol?.trim();
  if (!symbol) throw invalid(tx, `a ${tx.type} needs a symbol`);
  return symbol;
}

function toDerivedHolding(position: Position, withEur: boolean): DerivedHolding {
  const base = {
    symbol: position.symbol,
    currency: position.currency,
    quantity: formatDecimal(position.quantity),
    averageCost: formatDecimal(position.cost.div(position.quantity)),
    costBasis: formatDecimal(position.cost),
  };
  if (!withEur) return base;
  return {
    ...base,
    costBasisEur: position.costEur === null ? null : formatDecimal(position.costEur),
    realizedPnlEur: position.realizedEur === null ? null : formatDecimal(position.realizedEur),
  };
}

/** The EUR rate of `tx`'s day for its currency (1 for EUR); null when unknown or invalid. */
function rateOn(ledger: Ledger, tx: LedgerTransaction): Dec | null {
  if (ledger.eurRateOn === undefined) return null;
  if (tx.currency === 'EUR') return new Dec(1);
  const raw = ledger.eurRateOn(tx.currency, new Date(tx.executedAt).toISOString().slice(0, 10));
  const rate = raw === undefined ? undefined : parseDecimal(raw);
  return rate?.gt(0) ? rate : null;
}

function invalid(tx: LedgerTransaction, message: string): PortfolioError {
  return new PortfolioError('invalid_transaction', `transaction ${tx.id}: ${message}`, {
    transactionId: tx.id,
  });
}

function positionKey(symbol: string, currency: string): string {
  return `${symbol}\u0000${currency}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function assertNever(value: never): never {
  throw new Error(`unhandled transaction type ${String(value)}`);
}
