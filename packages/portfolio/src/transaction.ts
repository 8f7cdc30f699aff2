import { Instrument, InstrumentSymbol } from '@svc/schemas';
import { z } from 'zod';
import { DecimalString, NonNegativeDecimalString, PositiveDecimalString } from './decimal.js';
import { CurrencyCode, ExecutedAt, IsoDateTime } from './fields.js';

/**
 * Kinds of portfolio transactions, as in the service contract (CONTRACT.md §4).
 *
 * Effects (see `deriveHoldings`): `buy`/`sell` move units and cash; `dividend`, `deposit`,
 * `withdrawal`, `fee` move cash only; `split` multiplies the units of a symbol.
 */
export const TRANSACTION_TYPES = [
  'buy',
  'sell',
  'dividend',
  'deposit',
  'withdrawal',
  'fee',
  'split',
] as const;

/** One of {@link TRANSACTION_TYPES}. */
export const TransactionType = z
  .enum(TRANSACTION_TYPES)
  .meta({ id: 'TransactionType' })
  .describe('buy | sell | dividend | deposit | withdrawal | fee | split');
export type TransactionType = z.infer<typeof TransactionType>;

const note = z.string().max(500).optional().describe('Free text, at most 500 characters');
const fee = NonNegativeDecimalString.optional().describe(
  'Broker fee in `currency`, decimal string >= 0; capitalised into the cost of a buy',
);

const trade = (type: 'buy' | 'sell') =>
  z.strictObject({
    type: z.literal(type),
    symbol: InstrumentSymbol,
    quantity: PositiveDecimalString.describe('Units traded, decimal string > 0'),
    price: NonNegativeDecimalString.describe('Price per unit in `currency`, decimal string >= 0'),
    currency: CurrencyCode,
    fee,
    executedAt: ExecutedAt,
    note,
  });

const cashMove = (type: 'deposit' | 'withdrawal' | 'fee') =>
  z.strictObject({
    type: z.literal(type),
    symbol: InstrumentSymbol.optional().describe('Instrument the fee relates to, if any'),
    amount: PositiveDecimalString.describe(
      'Amount in `currency`, decimal string > 0; the type gives the direction',
    ),
    currency: CurrencyCode,
    executedAt: ExecutedAt,
    note,
  });

const dividend = z.strictObject({
  type: z.literal('dividend'),
  symbol: InstrumentSymbol,
  amount: PositiveDecimalString.describe('Cash received in `currency` (net of withholding tax)'),
  currency: CurrencyCode,
  executedAt: ExecutedAt,
  note,
});

const split = z.strictObject({
  type: z.literal('split'),
  symbol: InstrumentSymbol,
  ratio: PositiveDecimalString.describe(
    'New units per old unit: "2" for a 2-for-1 split, "0.1" for a 1-for-10 reverse split',
  ),
  currency: CurrencyCode.describe('Trading currency of the instrument (informational)'),
  executedAt: ExecutedAt,
  note,
});

/**
 * Input of "record a transaction", validated per type:
 * - `buy`/`sell`: `symbol`, `quantity` > 0, `price` >= 0, optional `fee` >= 0;
 * - `dividend`: `symbol` and `amount` > 0 (cash received);
 * - `deposit`/`withdrawal`/`fee`: `amount` > 0 (the type gives the sign);
 * - `split`: `symbol` and `ratio` > 0 (new units per old unit).
 *
 * Every type needs `currency` (ISO 4217) and `executedAt` (ISO 8601 date-time with offset).
 * Money and quantities are decimal strings (see `DecimalString`), never JSON numbers.
 * Unknown keys are rejected.
 *
 * @example
 * ```ts
 * NewTransaction.parse({ type: 'buy', symbol: 'AAPL', quantity: '10', price: '150.25',
 *   currency: 'USD', fee: '1', executedAt: '2024-03-01T14:30:00Z' });
 * ```
 */
export const NewTransaction = z
  .discriminatedUnion('type', [
    trade('buy'),
    trade('sell'),
    dividend,
    cashMove('deposit'),
    cashMove('withdrawal'),
    cashMove('fee'),
    split,
  ])
  .meta({ id: 'NewTransaction' })
  .describe('A transaction to record; required fields depend on `type`');
export type NewTransaction = z.infer<typeof NewTransaction>;

/**
 * A recorded transaction, as stored and listed (CONTRACT.md §4), flat: fields that a type does
 * not use are absent. Beyond the contract's field list it carries `amount` (cash amount of a
 * dividend, deposit, withdrawal or fee) and `ratio` (of a split), which the contract's list has no
 * place for. Decimal fields are decimal strings.
 */
export const Transaction = z
  .object({
    id: z.string().min(1).describe('Transaction id'),
    portfolioId: z.string().min(1).describe('Id of the portfolio the transaction belongs to'),
    type: TransactionType,
    symbol: InstrumentSymbol.optional(),
    quantity: DecimalString.optional().describe('Units traded (buy, sell), decimal string > 0'),
    price: DecimalString.optional().describe('Price per unit in `currency` (buy, sell)'),
    amount: DecimalString.optional().describe(
      'Cash amount in `currency` (dividend, deposit, withdrawal, fee), decimal string > 0',
    ),
    ratio: DecimalString.optional().describe('New units per old unit (split)'),
    currency: CurrencyCode,
    fee: DecimalString.optional().describe('Broker fee in `currency` (buy, sell)'),
    executedAt: IsoDateTime,
    note: z.string().optional(),
    instrument: Instrument.optional().describe(
      'The instrument the transaction refers to (CONTRACT §9); absent on cash moves without one',
    ),
  })
  .meta({ id: 'Transaction' })
  .describe('A recorded portfolio transaction');
export type Transaction = z.infer<typeof Transaction>;
