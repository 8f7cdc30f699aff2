import { z } from 'zod';
import { AsOfDate } from './as-of.js';

/**
 * Where one figure came from, so that a user can check it against the filing.
 *
 * - `tag`: the XBRL concept (`us-gaap:Revenues`), a vendor column (`simfin:Revenue`), or for a
 *   derived value the formula (`derived:revenue-costOfRevenue`).
 * - `form`, `accession`, `filed`: the filing that reported the value (SEC form type, accession
 *   number `0000320193-25-000079`, filing date `YYYY-MM-DD`); `null` where the source has none
 *   (vendor data, derived values).
 * - `derived`: `true` when the value was computed from other figures rather than reported.
 * - `note`: why a value was adjusted (for example "rescaled ×1000: filed in thousands").
 */
export const Provenance = z
  .object({
    tag: z.string().min(1).describe('XBRL concept, vendor column, or derived:<formula>'),
    form: z.string().nullable().describe('SEC form type of the reporting filing, e.g. 10-K'),
    accession: z.string().nullable().describe('SEC accession number of the reporting filing'),
    filed: z.string().nullable().describe('Filing date, YYYY-MM-DD'),
    derived: z.boolean().describe('true when computed from other figures'),
    note: z.string().optional().describe('Why the value was adjusted, if it was'),
  })
  .meta({ id: 'Provenance' });
export type Provenance = z.infer<typeof Provenance>;

/** One reported or derived amount with its provenance. `value` is finite (never NaN/Infinity). */
export const Figure = z
  .object({
    value: z.number().finite(),
    source: Provenance,
  })
  .meta({ id: 'Figure' });
export type Figure = z.infer<typeof Figure>;

/**
 * The metrics of one fiscal year, in the company's reporting currency (whole units, not
 * thousands or millions) unless stated.
 *
 * Sign conventions: revenue and expenses are positive amounts; outflows (capital expenditure,
 * dividends paid, share repurchases) are positive amounts; income figures (operating income,
 * pretax income, net income, diluted EPS) are signed; income tax expense is signed (a benefit is
 * negative). A metric the filings do not report is `null`, never 0.
 *
 * `incomeFromContinuingOperations` was added later and is optional in `FiscalYearFigures`
 * (absent in records written before it existed, and from providers that do not read it): treat
 * `undefined` like `null`, "not reported". So are `acquisitions`, `shareBasedCompensation`,
 * `amortizationOfIntangibles` and `unusualItems` (issue 39).
 */
export const METRIC_KEYS = [
  'revenue',
  'costOfRevenue',
  'grossProfit',
  'sellingGeneralAdministrative',
  'researchDevelopment',
  'depreciationAmortization',
  'operatingIncome',
  'interestExpense',
  'pretaxIncome',
  'incomeTaxExpense',
  'netIncome',
  'incomeFromContinuingOperations',
  'dilutedEps',
  'dilutedShares',
  'operatingCashFlow',
  'capitalExpenditure',
  'dividendsPaid',
  'shareRepurchases',
  'cash',
  'shortTermDebt',
  'longTermDebt',
  'totalEquity',
  'retainedEarnings',
  'currentAssets',
  'currentLiabilities',
  'propertyPlantEquipmentNet',
  'goodwill',
  'intangibleAssets',
  'sharesOutstanding',
  'acquisitions',
  'shareBasedCompensation',
  'amortizationOfIntangibles',
  'unusualItems',
] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

const metric = (description: string) => Figure.nullable().describe(description);

export const FiscalYearFigures = z
  .object({
    fiscalYear: z
      .number()
      .int()
      .describe(
        'Fiscal year label: the calendar year of periodEnd, or the year before when the period ends in January–May (the Compustat convention).',
      ),
    periodStart: z.string().nullable().describe('First day of the fiscal year, YYYY-MM-DD'),
    periodEnd: z.string().describe('Last day of the fiscal year (balance-sheet date), YYYY-MM-DD'),
    revenue: metric('Total revenue, currency units'),
    costOfRevenue: metric('Cost of revenue / cost of goods sold, positive'),
    grossProfit: metric('Revenue − cost of revenue'),
    sellingGeneralAdministrative: metric('Selling, general and administrative expense, positive'),
    researchDevelopment: metric('Research and development expense, positive'),
    depreciationAmortization: metric(
      'Depreciation and amortization (cash-flow statement), positive',
    ),
    operatingIncome: metric('Operating income (EBIT), signed'),
    interestExpense: metric('Interest expense, positive'),
    pretaxIncome: metric('Income before income taxes, signed'),
    incomeTaxExpense: metric('Income tax expense, signed (benefit negative)'),
    netIncome: metric('Net income attributable to the parent, signed'),
    incomeFromContinuingOperations: metric(
      'Income (loss) from continuing operations after tax, attributable to the parent, signed: net income without discontinued operations. Tagged mainly by filers that present discontinued operations (JNJ FY2021–FY2025 after the Kenvue separation). Optional: absent or null means not reported.',
    ).optional(),
    dilutedEps: metric('Diluted earnings per share, currency per share, signed'),
    dilutedShares: metric('Weighted average diluted shares outstanding, shares'),
    operatingCashFlow: metric('Net cash from operating activities, signed'),
    capitalExpenditure: metric('Purchases of property, plant and equipment, positive outflow'),
    dividendsPaid: metric('Dividends paid to common shareholders in cash, positive outflow'),
    shareRepurchases: metric('Repurchases of common stock in cash, positive outflow'),
    cash: metric('Cash and cash equivalents at period end'),
    shortTermDebt: metric('Short-term borrowings plus current portion of long-term debt'),
    longTermDebt: metric('Long-term debt, non-current portion'),
    totalEquity: metric('Total stockholders’ equity at period end, signed'),
    retainedEarnings: metric('Retained earnings (accumulated deficit) at period end, signed'),
    currentAssets: metric('Total current assets at period end'),
    currentLiabilities: metric('Total current liabilities at period end'),
    propertyPlantEquipmentNet: metric('Property, plant and equipment, net, at period end'),
    goodwill: metric('Goodwill at period end'),
    intangibleAssets: metric('Intangible assets other than goodwill, net, at period end'),
    sharesOutstanding: metric('Common shares outstanding near period end, shares'),
    acquisitions: metric(
      'Cash paid for businesses acquired, net of cash acquired, positive outflow. Optional: absent or null means not reported.',
    ).optional(),
    shareBasedCompensation: metric(
      'Share-based compensation expense (cash-flow add-back), positive. Optional: absent or null means not reported.',
    ).optional(),
    amortizationOfIntangibles: metric(
      'Amortization of intangible assets (mostly acquired ones), positive. Optional: absent or null means not reported.',
    ).optional(),
    unusualItems: metric(
      'One-off items inside pretax income (impairments, restructuring, gains or losses on disposals, litigation), signed: a charge negative, a gain positive. Optional: absent or null means not reported.',
    ).optional(),
  })
  .meta({ id: 'FiscalYearFigures' });
export type FiscalYearFigures = z.infer<typeof FiscalYearFigures>;

/** A company's identity as the provider knows it. */
export const CompanyProfile = z
  .object({
    ticker: z.string().min(1).describe('Ticker symbol, upper case, e.g. AAPL or BF-B'),
    cik: z.string().nullable().describe('SEC Central Index Key, 10 digits zero-padded'),
    name: z.string().min(1),
    sicCode: z.string().nullable().describe('Standard Industrial Classification code, 4 digits'),
    sicDescription: z.string().nullable(),
    sector: z.string().nullable().describe('Sector, from the SIC division'),
    industry: z.string().nullable().describe('Industry, from the SIC code description'),
    fiscalYearEnd: z.string().nullable().describe('Fiscal year end as MM-DD, e.g. 09-30'),
    currency: z.string().length(3).describe('ISO 4217 reporting currency, e.g. USD'),
  })
  .meta({ id: 'CompanyProfile' });
export type CompanyProfile = z.infer<typeof CompanyProfile>;

/**
 * Something the parser noticed and handled (a gap, a rescaled value, a restatement).
 *
 * `kind`: `missing_year` (no annual figures for a fiscal year between or after reported years),
 * `rescaled` (a value filed at the wrong scale, multiplied by a power of 1000),
 * `dropped_outlier` (an implausible value removed), `restated` (a later filing changed the value;
 * the latest is used), `sign_normalised` (an outflow filed negative, made positive),
 * `split_adjusted` (per-share values and share counts filed before a stock split put on the
 * latest basis), `other`.
 */
export const DataIssue = z
  .object({
    fiscalYear: z.number().int().nullable(),
    metric: z.string().nullable(),
    kind: z.enum([
      'missing_year',
      'rescaled',
      'dropped_outlier',
      'restated',
      'sign_normalised',
      'split_adjusted',
      'other',
    ]),
    message: z.string(),
  })
  .meta({ id: 'DataIssue' });
export type DataIssue = z.infer<typeof DataIssue>;

/**
 * Normalised annual fundamentals of one company: identity plus one record per fiscal year,
 * oldest first, with provenance on every value.
 */
export const Fundamentals = z
  .object({
    company: CompanyProfile,
    years: z.array(FiscalYearFigures).describe('One record per fiscal year, oldest first'),
    provider: z.string().describe('Provider that produced this, e.g. sec-edgar, snapshot, simfin'),
    retrievedAt: z.string().nullable().describe('When the provider read the source, ISO 8601'),
    asOf: AsOfDate.optional().describe(
      'Point in time the figures were read at (YYYY-MM-DD): only what was filed, or published, on or before it; absent for the latest figures',
    ),
    issues: z.array(DataIssue).default([]),
  })
  .meta({ id: 'Fundamentals' });
export type Fundamentals = z.infer<typeof Fundamentals>;
