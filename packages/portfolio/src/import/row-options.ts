import { z } from 'zod';
import type { NewTransaction } from '../transaction.js';
import { cashBySign, outcome, type RowMeta, type RowOutcome } from './row.js';
import { abs, sign, times } from './values.js';

// Vocabulary of column mappings (issue 40, "formats as data"): a fee written in the fee column of
// a row that is not a trade, rows whose symbol names no listed instrument, quantities written
// without a sign, dates also written year first. Spread into `ColumnMapping` (mapping.ts), read by
// the engine (mapped-row.ts).

const CellCondition = z.object({
  column: z
    .string()
    .min(1)
    .max(200)
    .describe('Header name as in the file (case-insensitive), `A|B` the first not empty'),
  pattern: z.string().min(1).max(200).describe('Regular expression (case-insensitive)'),
});

/** The options of a column mapping this module reads (see each one's description). */
export const ROW_OPTIONS = {
  ownFee: z
    .boolean()
    .optional()
    .describe(
      "The fee column as a transaction of its own where the row is no trade: a dividend row's non-zero fee is a fee transaction beside the dividend (the dividend is the quantity × price or amount, the fee apart); a `fee` row's amount is its fee cell (0: skipped); a buy or sell of quantity 0 is only its fee (skipped when there is none). Trades keep their fee on the trade",
    ),
  unlisted: CellCondition.optional().describe(
    'Rows whose cell matches name no listed instrument (a data source `MANUAL`: a house, a fee the user labelled): the symbol stays the transaction\'s but is not given as a ticker to resolve, and their fee transactions are tied to no instrument, the symbol leading their note ("Symbol: note")',
  ),
  quantitySign: z
    .enum(['any', 'positive'])
    .optional()
    .describe(
      'Whether buy and sell rows may write a signed quantity (`any`, default: its size is read) or write sizes only (`positive`: the action gives the side, a negative quantity is an error of the file)',
    ),
  priceCurrency: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "Header name (as in the file, case-insensitive) of the price's currency where it may differ from the `currency` column's (then the cash side, the account's currency): a trade, `shares` or split row is in the price's currency (`GBX`: pence, read as GBP ÷ 100); a trade whose amount is in the other currency was converted by the broker: beside the trade a deposit of quantity × price in its currency and a withdrawal of the amount in the cash currency (a sale: the reverse), noted `currency conversion CASH/TRADE for this trade`",
    ),
  yearFirst: z
    .boolean()
    .optional()
    .describe(
      'Dates written year first (`2024-02-01`, `2024/02/01`) are read too, whatever `dateOrder` (a file that takes ISO dates beside its own order)',
    ),
} as const;

/** The row as {@link ownFee} needs it. */
export interface OwnFeeRow {
  /** The row's kind (`dividend`, `fee`, `buy`, `sell`, `trade`, …). */
  readonly kind: string;
  /** The row's quantity as read, when it has one. */
  readonly quantity: string | undefined;
  /** The fee cell as read (a decimal string), `undefined` when empty. */
  readonly fee: string | undefined;
  /** The instrument the row is recorded under (may be empty). */
  readonly symbol: string;
  /** Whether the row matched `unlisted`. */
  readonly unlisted: boolean;
  /** The note of the row's transactions (`undefined` or empty: none). */
  readonly note: string | undefined;
  readonly base: { readonly currency: string; readonly executedAt: string };
  readonly meta: RowMeta;
}

/**
 * What `ownFee` makes of a row (see {@link ROW_OPTIONS}): `answer` replaces the kind's own
 * reading (a `fee` row; a buy or sell of quantity 0), `beside` are fee transactions added to the
 * kind's reading (a dividend's fee; an empty list: none). Rows of other kinds: `beside` empty.
 */
export function ownFee(row: OwnFeeRow): { answer: RowOutcome } | { beside: NewTransaction[] } {
  const fee = row.fee !== undefined && sign(row.fee) !== 0 ? feeOf(row, abs(row.fee)) : undefined;
  if (row.kind === 'fee') {
    return { answer: fee ? outcome.with(row.meta, fee) : outcome.skip('fee of 0: no effect') };
  }
  const trade = row.kind === 'buy' || row.kind === 'sell' || row.kind === 'trade';
  if (trade && row.quantity !== undefined && sign(row.quantity) === 0) {
    return {
      answer: fee
        ? outcome.with(row.meta, fee)
        : outcome.skip(`${row.kind} of quantity 0 without fee: no effect`),
    };
  }
  return { beside: row.kind === 'dividend' && fee ? [fee] : [] };
}

/** The kind's reading with the fees `ownFee` puts beside it (alone when the kind read nothing). */
export function withOwnFees(
  result: RowOutcome,
  beside: readonly NewTransaction[],
  meta: RowMeta,
): RowOutcome {
  if (beside.length === 0 || result.kind === 'error') return result;
  if (result.kind === 'skip') return outcome.with(meta, ...beside);
  return { ...result, transactions: [...result.transactions, ...beside] };
}

function feeOf(row: OwnFeeRow, amount: string): NewTransaction {
  const label = row.unlisted ? row.symbol : undefined;
  const note = [label, row.note].filter((part) => part !== undefined && part !== '').join(': ');
  return {
    type: 'fee',
    amount,
    ...row.base,
    ...(row.unlisted || row.symbol === '' ? {} : { symbol: row.symbol }),
    ...(note !== '' ? { note } : {}),
  };
}

/**
 * A trade converted by the broker (see {@link ROW_OPTIONS} `priceCurrency`): the trade's reading
 * with the two legs of the conversion after it, when the cash currency differs from the trade's
 * and the amount is given; else the reading unchanged.
 */
export function withConversion(
  result: RowOutcome,
  cash: { readonly currency: string; readonly amount: string | undefined },
): RowOutcome {
  if (result.kind !== 'transactions' || cash.amount === undefined) return result;
  const [trade] = result.transactions;
  if (trade === undefined || (trade.type !== 'buy' && trade.type !== 'sell')) return result;
  if (cash.currency === '' || cash.currency === trade.currency) return result;
  const { currency, executedAt } = trade;
  const gross = times(trade.quantity, trade.price);
  const paid = abs(cash.amount);
  const note = `currency conversion ${cash.currency}/${currency} for this trade`;
  const sold = trade.type === 'sell';
  const legs = [
    cashBySign(sold ? `-${gross}` : gross, { currency, executedAt, note }),
    cashBySign(sold ? paid : `-${paid}`, { currency: cash.currency, executedAt, note }),
  ].filter((tx): tx is NewTransaction => tx !== undefined);
  return { ...result, transactions: [...result.transactions, ...legs] };
}
