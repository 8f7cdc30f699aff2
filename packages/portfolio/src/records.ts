import { Instrument, InstrumentSymbol } from '@svc/schemas';
import { z } from 'zod';
import { DecimalString } from './decimal.js';
import { CurrencyCode, IsoDateTime } from './fields.js';

/** A user's portfolio (CONTRACT.md §4). `baseCurrency` is the reporting currency, default EUR. */
export const Portfolio = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1).max(200),
    baseCurrency: CurrencyCode,
    createdAt: IsoDateTime,
    realizedPnlEur: DecimalString.optional().describe(
      'Realised P&L in EUR of every sale, positions sold to zero included (proceeds at the sale day’s ECB rate − average EUR cost of the units sold), 2 decimals, as of the last valuation; absent before one or when a rate was missing',
    ),
  })
  .meta({ id: 'Portfolio' })
  .describe('A portfolio of holdings, cash positions and transactions');
export type Portfolio = z.infer<typeof Portfolio>;

const nullableDecimal = (description: string) =>
  DecimalString.nullable().describe(`${description}; null when it cannot be valued`);

/**
 * A position in one instrument, derived from the transactions and valued at `valuedAt`
 * (CONTRACT.md §4).
 *
 * - `quantity`, `averageCost` (per unit, fees included), `lastPrice`, `marketValue` are in
 *   `currency`, the currency the holding was bought in; a quote in another currency is
 *   cross-converted through EUR.
 * - `*Eur` fields are in euro, converted at ECB reference rates (units of currency per 1 EUR).
 * - `weight` is a fraction 0–1 (not percent) of the portfolio's gross EUR value: the valued
 *   holdings plus positive cash balances (negative cash, a liability, is left out).
 * - Value fields are `null`, never 0, when the quote or an FX rate is missing.
 */
export const Holding = z
  .object({
    id: z.string().min(1),
    portfolioId: z.string().min(1),
    symbol: InstrumentSymbol,
    name: z.string().describe('Display name; the symbol when no name is known'),
    quantity: DecimalString.describe('Units held, > 0'),
    averageCost: DecimalString.describe('Average cost per unit in `currency`, fees included'),
    currency: CurrencyCode.describe('Currency the holding was bought in'),
    lastPrice: nullableDecimal('Last price per unit in `currency`'),
    marketValue: nullableDecimal('quantity × lastPrice, in `currency`'),
    marketValueEur: nullableDecimal('marketValue in EUR'),
    costBasisEur: nullableDecimal(
      'Cost of the units held in EUR, each purchase at the ECB rate of its own day',
    ),
    unrealizedPnlEur: nullableDecimal('marketValueEur − costBasisEur'),
    weight: nullableDecimal(
      "Share of the portfolio's gross EUR value (valued holdings + positive cash), fraction 0–1",
    ),
    valuedAt: IsoDateTime.describe('When the values were computed'),
    priceAsOf: IsoDateTime.nullable().describe(
      'When the quote behind `lastPrice` was observed (a trading day reads as 00:00 UTC); null without a quote',
    ),
    fxAsOf: z.iso
      .date()
      .nullable()
      .describe(
        'Day of the ECB rate behind the EUR values (YYYY-MM-DD); null for EUR or without a rate',
      ),
    stale: z
      .boolean()
      .describe(
        'true when the quote or the rate is older than its maximum age at `valuedAt` (quotes 5 days, ECB rates 5 days): the values are then as of those dates, not today',
      ),
    realizedPnlEur: nullableDecimal(
      'Realised P&L in EUR of the sales of this holding: proceeds at the rate of each sale day − EUR cost of the units sold',
    ),
    instrument: Instrument.describe(
      'The instrument held (CONTRACT §9): ISIN, ticker, exchange, kind, CIK and where they came from; `resolution: unresolved` with `unresolvedReason` when nobody could identify it',
    ),
  })
  .meta({ id: 'Holding' })
  .describe('A holding with stored values in EUR');
export type Holding = z.infer<typeof Holding>;

/** Cash in one currency, derived from the transactions (CONTRACT.md §4). May be negative. */
export const CashPosition = z
  .object({
    id: z.string().min(1),
    portfolioId: z.string().min(1),
    currency: CurrencyCode,
    amount: DecimalString.describe('Balance in `currency`; negative when overdrawn'),
    amountEur: nullableDecimal('Balance in EUR'),
    valuedAt: IsoDateTime,
    fxAsOf: z.iso
      .date()
      .nullable()
      .describe(
        'Day of the ECB rate behind `amountEur` (YYYY-MM-DD); null for EUR or without a rate',
      ),
  })
  .meta({ id: 'CashPosition' })
  .describe('A cash balance in one currency');
export type CashPosition = z.infer<typeof CashPosition>;
