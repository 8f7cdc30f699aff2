/** The three statements of a SimFin bulk annual download. */
export type SimfinStatement = 'income' | 'balance' | 'cashflow';

/** File name of each statement in a SimFin bulk download (market `us`, variant `annual`). */
export const SIMFIN_FILES: Readonly<Record<SimfinStatement, string>> = {
  income: 'us-income-annual.csv',
  balance: 'us-balance-annual.csv',
  cashflow: 'us-cashflow-annual.csv',
};

/**
 * Fiscal periods kept per statement: income and cash flow carry one `FY` row per fiscal year;
 * the annual balance sheet carries the year-end (`Q4`) balance (research notes §5).
 */
export const ANNUAL_PERIODS: Readonly<Record<SimfinStatement, readonly string[]>> = {
  income: ['FY'],
  balance: ['Q4', 'FY'],
  cashflow: ['FY'],
};

/** Key columns every statement file must have. */
export const KEY_COLUMNS = {
  ticker: 'Ticker',
  currency: 'Currency',
  fiscalPeriod: 'Fiscal Period',
  reportDate: 'Report Date',
  publishDate: 'Publish Date',
  restatedDate: 'Restated Date',
} as const;

/** The columns read from each statement (any other column is ignored; a missing one reads blank). */
export const VALUE_COLUMNS = {
  income: [
    'Shares (Diluted)',
    'Revenue',
    'Cost of Revenue',
    'Gross Profit',
    'Selling, General & Administrative',
    'Research & Development',
    'Depreciation & Amortization',
    'Operating Income (Loss)',
    'Interest Expense, Net',
    'Abnormal Gains (Losses)',
    'Pretax Income (Loss)',
    'Income Tax (Expense) Benefit, Net',
    'Net Extraordinary Gains (Losses)',
    'Net Income',
    'Net Income (Common)',
  ],
  balance: [
    'Cash, Cash Equivalents & Short Term Investments',
    'Total Current Assets',
    'Property, Plant & Equipment, Net',
    'Short Term Debt',
    'Total Current Liabilities',
    'Long Term Debt',
    'Total Noncurrent Liabilities',
    'Total Liabilities',
    'Retained Earnings',
    'Total Equity',
  ],
  cashflow: [
    'Depreciation & Amortization',
    'Net Cash from Operating Activities',
    'Change in Fixed Assets & Intangibles',
    'Net Cash from Acquisitions & Divestitures',
    'Dividends Paid',
    'Cash from (Repurchase of) Equity',
  ],
} as const satisfies Record<SimfinStatement, readonly string[]>;

/** A value column of one statement. */
export type SimfinColumn<S extends SimfinStatement> = (typeof VALUE_COLUMNS)[S][number];

/**
 * One annual row of a SimFin statement, reduced to what the mapping reads. Amounts are whole
 * currency units with SimFin's signs (costs and outflows negative); a blank cell is `null`.
 */
export interface SimfinRow<S extends SimfinStatement = SimfinStatement> {
  /** Period end (balance-sheet date), `YYYY-MM-DD`. */
  readonly reportDate: string;
  /** When the figures were first published (the filing date), or null. */
  readonly publishDate: string | null;
  /** When SimFin last restated the figures, or null. */
  readonly restatedDate: string | null;
  /** ISO 4217 currency of the row. */
  readonly currency: string;
  readonly values: Readonly<Partial<Record<SimfinColumn<S>, number | null>>>;
  /** Cells that were neither blank nor a number (read as blank). */
  readonly malformedCells: number;
}

/** The rows of one ticker in each statement, in file order. */
export interface SimfinCompanyRows {
  readonly income: readonly SimfinRow<'income'>[];
  readonly balance: readonly SimfinRow<'balance'>[];
  readonly cashflow: readonly SimfinRow<'cashflow'>[];
}
