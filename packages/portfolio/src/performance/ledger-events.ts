import { type LedgerTransaction, sortTransactionsTimed } from '../derive-holdings.js';
import { PortfolioError } from '../errors.js';

/** A transaction read into numbers for the daily walk (`amount`: cash moved, in `currency`). */
export interface LedgerEvent {
  readonly day: number;
  readonly type: LedgerTransaction['type'];
  readonly symbol: string | undefined;
  readonly currency: string;
  /** Units (buy, sell) or ratio (split); 0 otherwise. */
  readonly units: number;
  /** Gross trade value (buy, sell) or cash amount (dividend, deposit, withdrawal, fee). */
  readonly amount: number;
  /** Trade fee (buy, sell). */
  readonly fee: number;
  /**
   * A fee transaction noted `withholding tax…` (how the broker imports record tax withheld on a
   * dividend: DEGIRO, Interactive Brokers, Schwab, Trade Republic, XTB); a refund is a deposit.
   */
  readonly withholdingTax: boolean;
}

/** The note the broker imports give tax withheld on dividends (a refund says `… refund`). */
const WITHHOLDING_NOTE = /^withholding tax(?! refund)/i;

/**
 * The ledger as events in replay order (`sortTransactions`: instant, type rank, id), on their
 * UTC day, up to and including `endDay`.
 *
 * @throws PortfolioError `invalid_transaction` for a field that is not a number or an
 *   `executedAt` that is not a date-time.
 */
export function toEvents(
  transactions: readonly LedgerTransaction[],
  endDay: number,
): LedgerEvent[] {
  const events: LedgerEvent[] = [];
  for (const { tx, at } of sortTransactionsTimed(transactions)) {
    // the UTC day of the instant, from the time parsed once when the ledger was sorted
    const day = Math.floor(at / 86_400_000);
    if (day > endDay) break;
    const trade = tx.type === 'buy' || tx.type === 'sell';
    const units = trade ? field(tx, 'quantity') : tx.type === 'split' ? field(tx, 'ratio') : 0;
    const amount = trade
      ? units * field(tx, 'price')
      : tx.type === 'split'
        ? 0
        : field(tx, 'amount');
    const fee = trade && tx.fee !== undefined ? field(tx, 'fee') : 0;
    events.push({
      day,
      type: tx.type,
      symbol: tx.symbol?.toUpperCase(),
      currency: tx.currency,
      units,
      amount,
      fee,
      withholdingTax: tx.type === 'fee' && WITHHOLDING_NOTE.test(tx.note ?? ''),
    });
  }
  return events;
}

function field(
  tx: LedgerTransaction,
  name: 'quantity' | 'price' | 'amount' | 'ratio' | 'fee',
): number {
  const text = tx[name];
  const value = text === undefined ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new PortfolioError(
      'invalid_transaction',
      `transaction ${tx.id}: ${name} is not a number >= 0`,
      {
        transactionId: tx.id,
      },
    );
  }
  return value;
}
