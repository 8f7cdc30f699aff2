import { PERFORMANCE_PERIODS, SERIES_INTERVALS } from '@svc/portfolio';
import { z } from 'zod';

const Day = z.iso.date().describe('Day YYYY-MM-DD');
const Money = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .describe('Amount in EUR, decimal string with 2 decimals');
const NullableMoney = Money.nullable();

/**
 * Query of a performance read: a `period` (default `inception`, or `custom` when `from` is
 * given), an optional last day `to` (default today), and an optional value `series` for charts.
 */
export const PerformanceQuery = z
  .strictObject({
    period: z
      .enum(PERFORMANCE_PERIODS)
      .optional()
      .describe(
        '1M, 3M, YTD, 1Y, 3Y (each ending on `to`), inception (since the first transaction) or custom (`from`–`to`); default inception, or custom when `from` is given',
      ),
    from: Day.optional().describe('First day included (custom periods), YYYY-MM-DD'),
    to: Day.optional().describe('Last day included, YYYY-MM-DD; default today (UTC)'),
    series: z
      .enum(['none', ...SERIES_INTERVALS])
      .optional()
      .describe(
        'Value series for charts: none (default), daily (weekdays), weekly (Fridays) or monthly (month ends)',
      ),
  })
  .meta({ id: 'PerformanceQuery' })
  .describe('Which period to measure');
export type PerformanceQuery = z.infer<typeof PerformanceQuery>;

/** A return figure: a fraction with its basis, or why none can be given. */
export const ReturnFigure = z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('ok'),
      value: z.number().describe('The return as a fraction (0.05 = 5 %), not percent'),
      basis: z
        .enum(['cumulative', 'annualised'])
        .describe('cumulative: over the whole period; annualised: per year (actual/365)'),
    }),
    z.object({
      status: z.literal('unavailable'),
      code: z
        .enum([
          'missing_price',
          'missing_fx_rate',
          'no_capital',
          'no_solution',
          'multiple_solutions',
          'no_history',
        ])
        .describe(
          'Why: a close or an EUR rate missing beyond the tolerance, nothing invested, no (or no unique) IRR, a period before the first transaction',
        ),
      reason: z
        .string()
        .describe(
          'Why, for a person: the symbol or currency and the day; for missing_fx_rate also where the rate source has that currency (e.g. "the USD rates of the ECB file eurofxref-hist.csv end on 2026-04-13")',
        ),
      firstMissingDate: Day.nullable().describe('First day a close or a rate was missing'),
      symbol: z.string().optional(),
      currency: z.string().optional(),
    }),
  ])
  .meta({ id: 'ReturnFigure' })
  .describe(
    'A return as a fraction with its basis, or `unavailable` with the reason: never 0 for unknown',
  );
export type ReturnFigure = z.infer<typeof ReturnFigure>;

const Returns = z
  .object({
    twr: ReturnFigure.describe(
      'Time-weighted return in EUR over the period (cumulative): daily valuation, sub-periods linked at every external flow (GIPS, CFA Institute)',
    ),
    twrAnnualised: ReturnFigure.nullable().describe(
      'The TWR per year, only for periods over 365 days (null otherwise)',
    ),
    twrLocal: ReturnFigure.describe(
      "TWR without the currency move: a holding in its own currency; the portfolio with each day's closes at the previous day's EUR rates",
    ),
    currencyEffect: ReturnFigure.describe('(1 + twr) / (1 + twrLocal) − 1, cumulative'),
    mwr: ReturnFigure.describe(
      'Money-weighted return (XIRR, actual/365, Brent root finder) in EUR: annualised for periods over 365 days, else over the period',
    ),
  })
  .meta({ id: 'PerformanceReturns' });

const StalePrice = z
  .object({
    kind: z.enum(['price', 'fx_rate']),
    symbol: z.string().optional(),
    currency: z.string(),
    days: z.number().int().describe('Weekdays valued with an older close or rate'),
    firstDate: Day,
    lastDate: Day,
    maxAgeDays: z.number().int().describe('Oldest value used, days before the day valued (≤ 4)'),
  })
  .meta({ id: 'StalePrice' })
  .describe('A close or an EUR rate carried over a holiday, within the tolerance');

const Figures = {
  startValueEur: NullableMoney.describe('Value at the end of the day before `from`'),
  endValueEur: NullableMoney.describe('Value at the end of `to`'),
  netFlowsEur: NullableMoney.describe(
    'External inflows − outflows in the period; null when a rate of a flow day was missing',
  ),
  returns: Returns,
  income: z
    .object({
      dividendsEur: NullableMoney.describe(
        'Dividends received, as recorded: gross where the import records the tax apart (withholdingTaxEur), else net; null when a rate was missing',
      ),
      interestEur: NullableMoney.describe(
        'Interest: null; the imports record it as a deposit noted “interest”, an external flow, not income',
      ),
    })
    .describe('Income in the period, EUR at each day’s ECB rate'),
  costs: z
    .object({
      feesEur: NullableMoney.describe(
        'Trade fees and fee transactions, withholding tax apart; null when a rate was missing',
      ),
      withholdingTaxEur: NullableMoney.describe(
        'Tax withheld: fee transactions noted “withholding tax” (as the DEGIRO, Interactive Brokers, Schwab, Trade Republic and XTB imports record it; a Trading 212 dividend is net, its tax only in the note); null when a rate was missing',
      ),
    })
    .describe('Costs in the period, EUR'),
  stalePrices: z.array(StalePrice),
};

/** One holding's figures within a portfolio performance. */
export const HoldingPerformanceSummary = z
  .object({
    symbol: z.string(),
    currency: z.string().describe('The holding’s own currency'),
    ...Figures,
  })
  .meta({ id: 'HoldingPerformanceSummary' });

/** A point of the value series. */
export const ValuePoint = z
  .object({
    date: Day,
    valueEur: NullableMoney.describe('End-of-day value; null when a close or rate was missing'),
    netInvestedEur: NullableMoney.describe('External inflows − outflows since inception'),
  })
  .meta({ id: 'ValuePoint' });

const Header = {
  portfolioId: z.string(),
  currency: z.literal('EUR').describe('Currency of every amount'),
  period: z.enum(PERFORMANCE_PERIODS),
  from: Day.describe('First day of the period'),
  to: Day.describe('Last day of the period'),
  days: z.number().int().describe('Calendar days in the period'),
  clampedToInception: z.boolean().describe('The period asked began before the first transaction'),
  cashFlowBasis: z
    .enum(['recorded', 'implicit'])
    .describe(
      'recorded: deposits and withdrawals are the external flows; implicit: no deposit recorded, each purchase not covered by cash is funded from outside',
    ),
  estimatedCloses: z
    .array(z.object({ symbol: z.string(), days: z.number().int() }))
    .describe(
      'Symbols valued on some days with a close reconstructed from a total-return series (dividend adjustment removed, within a stated error): the price history had no actual close',
    ),
  computedAt: z.iso.datetime().describe('When the figures were computed'),
  dataThrough: Day.optional().describe(
    'The last day the price data reaches, when the period asked ended after it: the figures end on that day (`to`) instead',
  ),
  note: z
    .string()
    .optional()
    .describe(
      'What to know about the figures, in words: why they end before the day asked (with `dataThrough`), and which holdings have no closes and how they were valued (with `valuedAtTradePrices`)',
    ),
  valuedAtTradePrices: z
    .array(z.string())
    .optional()
    .describe(
      'Symbols the price history has no closes for, valued at the prices of their own buys and sells carried forward (stale): what the ledger knows of them. A symbol only ever received at zero cost (a stock distribution) is valued at 0, adding nothing to the value or the returns; `note` names it',
    ),
  series: z.array(ValuePoint).optional().describe('With `series` other than none'),
};

/** `GET /api/portfolios/{id}/performance`, MCP `getPortfolioPerformance`. */
export const PortfolioPerformance = z
  .object({ ...Header, ...Figures, holdings: z.array(HoldingPerformanceSummary) })
  .meta({ id: 'PortfolioPerformance' })
  .describe(
    'Time- and money-weighted returns of a portfolio in EUR, with the currency effect apart',
  );
export type PortfolioPerformance = z.infer<typeof PortfolioPerformance>;

/** `GET /api/portfolios/{id}/holdings/{symbol}/performance`. */
export const HoldingPerformance = z
  .object({ ...Header, symbol: z.string(), holdingCurrency: z.string(), ...Figures })
  .meta({ id: 'HoldingPerformance' })
  .describe('Returns of one holding in EUR and in its own currency');
export type HoldingPerformance = z.infer<typeof HoldingPerformance>;
