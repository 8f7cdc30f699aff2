import {
  BROKER_FORMATS,
  CashPosition,
  ColumnMapping,
  CurrencyCode,
  DecimalString,
  ExecutedAt,
  Holding,
  NonNegativeDecimalString,
  PositiveDecimalString,
  Transaction,
} from '@svc/portfolio';
import { InstrumentSymbol, numberFromText, PortfolioId } from '@svc/schemas';
import { z } from 'zod';

/** Longest portfolio name, characters (the store and `Portfolio` schema allow 200). */
export const MAX_PORTFOLIO_NAME_LENGTH = 200;

const PortfolioName = z
  .string()
  .trim()
  .min(1)
  .max(MAX_PORTFOLIO_NAME_LENGTH)
  .describe('Display name, 1–200 characters after trimming');

/** Body of "create a portfolio". `baseCurrency` defaults to EUR. */
export const CreatePortfolioInput = z
  .strictObject({
    name: PortfolioName,
    baseCurrency: CurrencyCode.default('EUR').describe(
      'Reporting currency, ISO 4217 (default EUR); values are stored in EUR regardless',
    ),
  })
  .meta({ id: 'CreatePortfolioInput' })
  .describe('A new portfolio');
export type CreatePortfolioInput = z.input<typeof CreatePortfolioInput>;

/** Body of "rename a portfolio". */
export const RenamePortfolioInput = z
  .strictObject({ name: PortfolioName })
  .meta({ id: 'RenamePortfolioInput' })
  .describe('The new name of a portfolio');
export type RenamePortfolioInput = z.infer<typeof RenamePortfolioInput>;

const Instant = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .describe('A day YYYY-MM-DD (UTC) or an ISO 8601 date-time with Z or an offset');

/** The page fields of a keyset-paged list: `limit` (1–100, default 50) and an opaque `cursor`. */
const PAGE_FIELDS = {
  limit: numberFromText(z.number().int().min(1).max(100).default(50)).describe(
    'Page size, 1–100, default 50',
  ),
  cursor: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('`nextCursor` of the previous page, as given (opaque: any other text answers 400)'),
};

/** Query of "list transactions" (`GET /api/transactions`). Both bounds are inclusive. */
export const TransactionListQuery = z
  .object({
    portfolioId: PortfolioId.optional().describe('Only this portfolio (default: all)'),
    from: Instant.optional().describe(
      'Executed at or after: a day (from its 00:00 UTC) or a date-time',
    ),
    to: Instant.optional().describe(
      'Executed at or before: a day (through its 24:00 UTC) or a date-time; not before `from` (400 otherwise)',
    ),
    ...PAGE_FIELDS,
  })
  .meta({ id: 'TransactionListQuery' })
  .describe('Filters and page of the transaction list, newest first');
export type TransactionListQuery = z.input<typeof TransactionListQuery>;

/** One page of transactions, newest first (`executedAt` desc, then id). */
export const TransactionPage = z
  .object({
    items: z.array(Transaction),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` to get the next page; null on the last page'),
  })
  .meta({ id: 'TransactionPage' })
  .describe('A keyset page of transactions');
export type TransactionPage = z.infer<typeof TransactionPage>;

/** A broker export layout the importer reads, or `auto` to detect it from the content. */
export const BrokerFormatOption = z
  .enum(['auto', ...BROKER_FORMATS])
  .meta({ id: 'BrokerFormatOption' })
  .describe(`auto (detect from the content) | ${BROKER_FORMATS.join(' | ')}`);
export type BrokerFormatOption = z.infer<typeof BrokerFormatOption>;

/** Options of a broker import (the route's query). */
export const BrokerImportOptions = z
  .object({
    format: BrokerFormatOption.default('auto'),
    dryRun: z
      .boolean()
      .default(false)
      .describe('Answer what the import would do, without storing anything'),
    oversell: z
      .enum(['cash-only', 'reject'])
      .default('cash-only')
      .describe(
        'A sale of more units than held at its time: cash-only (default; the export began after the purchase, so the units not held only add their proceeds to cash, listed in warnings) or reject (the import fails at that line)',
      ),
    accountCurrency: CurrencyCode.optional().describe(
      'Currency of the account, for exports that do not name it (XTB); default EUR',
    ),
    mapping: ColumnMapping.optional().describe(
      'A confirmed column mapping for a broker without a module of its own (the dry run proposes one)',
    ),
    saveMapping: z
      .boolean()
      .default(false)
      .describe(
        'With `mapping` on a real import: save it for this header set, so the next file with the same columns imports without it',
      ),
    previewToken: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .describe(
        "On a real import of a file no format recognises (read with a given `mapping`): the `previewToken` of the dry run the user confirmed. The import is refused without it, or when the file, the mapping, the options or the portfolio's ledger changed since that preview",
      ),
    confirmMapping: z
      .boolean()
      .default(false)
      .describe(
        'On a real import with a given or a saved mapping: import even though some of its checks failed (the user answered their questions and accepts the result); without it such an import is refused',
      ),
  })
  .meta({ id: 'BrokerImportOptions' });
export type BrokerImportOptions = z.input<typeof BrokerImportOptions>;

/** A row of a broker file, with its 1-based line number and what happened to it. */
export const ImportLine = z
  .object({
    line: z.number().int().min(0).describe('1-based line of the file (0: the whole file)'),
    message: z.string(),
  })
  .meta({ id: 'ImportLine' });
export type ImportLine = z.infer<typeof ImportLine>;

/**
 * What the checks of a column mapping found, run on the import it would make before it is made
 * (`checkMapping` of `@svc/portfolio`).
 */
export const MappingChecks = z
  .object({
    acceptable: z
      .boolean()
      .describe(
        'Every check passed: accepted unchanged, the mapping imports holdings nothing gives reason to doubt. When false, a real import with it is refused (400) until the questions are answered or `confirmMapping` is set',
      ),
    checks: z
      .array(
        z.object({
          id: z
            .string()
            .describe(
              'readable | widths | skipped-units | instruments | units-in-cash-rows | signs | sides | counted-twice | quantity-price-amount | fractional-quantity | positions',
            ),
          passed: z.boolean(),
          detail: z.string().describe('What the check found'),
          lines: z.array(z.number().int()).describe('Lines of the file it doubts'),
        }),
      )
      .describe('The checks of the simulated import, passed or not'),
    needs: z
      .array(
        z.object({
          check: z.string().optional().describe('The failed check this question settles'),
          field: z.string().optional(),
          value: z.string().optional().describe('The action value asked about'),
          question: z.string(),
          candidates: z.array(z.string()),
        }),
      )
      .describe('One question per failed check: the one that settles it'),
  })
  .meta({ id: 'MappingChecks' });
export type MappingChecks = z.infer<typeof MappingChecks>;

/** A holding as an import leaves it, before valuation. */
export const ImportedHolding = z
  .object({
    symbol: z.string(),
    name: z.string().describe('The name the export gives; the symbol when none'),
    currency: CurrencyCode,
    quantity: DecimalString,
    averageCost: DecimalString.describe('Per unit, in `currency`, fees included'),
    costBasis: DecimalString.describe('quantity × averageCost, in `currency`, 2 decimals'),
  })
  .meta({ id: 'ImportedHolding' });

/**
 * What a broker import did, or would do (`dryRun`). On a real import every importable row was
 * stored together with the re-derived holdings and cash, in one database transaction.
 */
export const ImportResult = z
  .object({
    format: z.enum(BROKER_FORMATS).describe('The layout the file was read as'),
    dryRun: z.boolean().describe('true: nothing was stored'),
    rows: z.number().int().min(0).describe('Transactions the file yields'),
    imported: z
      .number()
      .int()
      .min(0)
      .describe('Transactions stored (on a dry run: that would be stored)'),
    alreadyPresent: z
      .number()
      .int()
      .min(0)
      .describe('Transactions of the file the portfolio already holds (same fingerprint)'),
    skipped: z
      .array(ImportLine)
      .describe(
        'Rows left out (no effect, not modelled, or repeated in the file), with the reason',
      ),
    warnings: z
      .array(ImportLine)
      .describe('Rows imported with an adjustment (a sale beyond the units held), with the reason'),
    failed: z
      .array(ImportLine)
      .describe('Rows that make the import fail; only a dry run answers with any'),
    holdings: z.array(ImportedHolding).describe('Holdings after the import'),
    cash: z
      .array(z.object({ currency: CurrencyCode, amount: DecimalString }))
      .describe('Cash per currency after the import, 2 decimals'),
    importBatchId: z
      .string()
      .nullable()
      .describe('Shared by every transaction of this import; null on a dry run'),
    counts: z
      .record(z.string(), z.number().int().min(0))
      .optional()
      .describe(
        'Transactions the import stores (on a dry run: would store), per transaction type (buy, sell, dividend, deposit, withdrawal, fee, split)',
      ),
    definition: z
      .object({
        id: z.string(),
        label: z.string(),
        kind: z
          .enum(['catalogue', 'user', 'proposed'])
          .describe(
            "catalogue: a broker format known by name; user: a definition the user confirmed and saved; proposed: the mapper's draft for a file no definition recognises (imported only with the preview token)",
          ),
        source: z.string().describe('Where the layout is documented'),
      })
      .optional()
      .describe('The format definition the file was read with'),
    previewToken: z
      .string()
      .optional()
      .describe(
        'On a dry run read with a given or proposed mapping: the token a real import with that mapping must send back (`previewToken`) to confirm this preview',
      ),
    savedMapping: z
      .object({
        id: z.string().describe('The saved mapping (DELETE /api/import-mappings/{id} removes it)'),
        used: z.boolean().describe('This file was read with the mapping saved for its header set'),
        saved: z.boolean().describe('This import saved the given mapping (`saveMapping`)'),
      })
      .optional()
      .describe('The saved column mapping this import used or saved, if any'),
    mappingChecks: MappingChecks.optional().describe(
      'With `mapping`, or a saved mapping used: the checks of the import it makes; a real import with a mapping that fails one is refused unless `confirmMapping`',
    ),
    proposal: z
      .object({
        mapping: ColumnMapping,
        unmappedActions: z.array(z.string()),
        missing: z.array(z.string()),
        confidence: z
          .record(
            z.string(),
            z.object({
              column: z.string().describe('The header chosen, as in the file'),
              confidence: z.number().min(0).max(1),
              evidence: z.array(z.string()).describe('Header words and value tests that chose it'),
            }),
          )
          .describe(
            'Per mapped field: how sure the proposal is (0 to 1) and why; fields below 0.5 are left out and asked in `needs`',
          ),
        needs: z
          .array(
            z.object({
              field: z
                .string()
                .optional()
                .describe('The field, date order or currency asked about'),
              value: z.string().optional().describe('The action value asked about'),
              check: z.string().optional().describe('The failed check this question settles'),
              question: z.string(),
              candidates: z.array(z.string()).describe('Columns, orders or kinds, best first'),
            }),
          )
          .describe('What the proposal asks instead of guessing; empty when it is sure'),
        structure: z.string().describe('Where the header row was found, with which delimiter'),
        checks: MappingChecks.shape.checks,
        acceptable: MappingChecks.shape.acceptable,
      })
      .optional()
      .describe(
        'Dry run of a file no format recognises: a column mapping proposed from its headers and values, to confirm or correct and send back as `mapping`',
      ),
  })
  .meta({ id: 'ImportResult' })
  .describe('What a broker import stored, or would store');
export type ImportResult = z.infer<typeof ImportResult>;

/** Why a position was stored with null values (see `valueHoldings` of `@svc/portfolio`). */
export const ValuationIssue = z
  .object({
    code: z.enum(['missing_quote', 'missing_fx_rate', 'invalid_quote']),
    symbol: z.string().optional().describe('The holding; absent for a cash position'),
    currency: z.string(),
    message: z.string(),
  })
  .meta({ id: 'ValuationIssue' });
export type ValuationIssue = z.infer<typeof ValuationIssue>;

/** The valuation of one portfolio, as stored. */
export const PortfolioValuation = z
  .object({
    portfolioId: PortfolioId,
    valuedAt: z.iso.datetime({ offset: true }).describe('When the stored values were computed'),
    totalValueEur: DecimalString.describe(
      'Sum of the EUR values that could be computed, holdings and cash',
    ),
    complete: z.boolean().describe('true when every position has an EUR value'),
    issues: z.array(ValuationIssue),
  })
  .meta({ id: 'PortfolioValuation' });
export type PortfolioValuation = z.infer<typeof PortfolioValuation>;

/** Result of a revaluation: the values now stored for the revalued portfolios. */
export const RevaluationResult = z
  .object({
    valuedAt: z.iso.datetime({ offset: true }).describe('When the stored values were computed'),
    portfolios: z.array(PortfolioValuation),
    holdings: z.array(Holding),
    cash: z.array(CashPosition),
  })
  .meta({ id: 'RevaluationResult' })
  .describe('Holdings and cash re-derived from the transactions and valued in EUR');
export type RevaluationResult = z.infer<typeof RevaluationResult>;

/**
 * A quote as `GET /api/quote` publishes it (CONTRACT §4). Money is a decimal string, as in
 * `Holding`: `price` in `currency`, `priceEur = price ÷ (currency per EUR)` at the ECB reference
 * rate of the quote's day, rounded half-even to 10 places (the scale of every `Holding` value).
 */
export const QuoteResult = z
  .object({
    symbol: z.string().describe('Ticker, upper case (class separator "-", e.g. BRK-B)'),
    price: DecimalString.describe('Last close per share, in `currency`'),
    currency: CurrencyCode,
    asOf: z.string().describe('Trading day of the price, YYYY-MM-DD (or the provider instant)'),
    source: z.string().describe('Provider and series, e.g. yahoo-csv:yahoo_daily_2000_2024-03'),
    priceEur: DecimalString.nullable().describe(
      'price in EUR at the ECB rate of `asOf`; null when no rate is available',
    ),
  })
  .meta({ id: 'QuoteResult' })
  .describe('A share price with its EUR equivalent');
export type QuoteResult = z.infer<typeof QuoteResult>;

/**
 * Body of "edit a transaction" (`PATCH /api/portfolios/{id}/transactions/{transactionId}`): any
 * fields of a `Transaction` (its ids only as they are: a transaction read back may be sent
 * whole); `null` removes an optional field (`note`, `fee`). The
 * fields given replace the stored ones and the result must be a valid `NewTransaction` (a field
 * its type does not use answers 400: send it as null when changing the type).
 */
export const TransactionPatch = z
  .strictObject({
    id: z.string().optional().describe('The transaction’s id, if sent: must be the path’s'),
    portfolioId: z.string().optional().describe('Its portfolio’s id, if sent: must be the path’s'),
    type: z.enum(['buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'split']).optional(),
    // Each field as `NewTransaction` takes it, so that the document refuses what the server
    // refuses (issue 41: empty dates, non-positive amounts).
    symbol: InstrumentSymbol.nullable().optional(),
    quantity: PositiveDecimalString.nullable().optional(),
    price: NonNegativeDecimalString.nullable().optional(),
    amount: PositiveDecimalString.nullable().optional(),
    ratio: PositiveDecimalString.nullable().optional(),
    currency: CurrencyCode.optional(),
    fee: NonNegativeDecimalString.nullable().optional(),
    executedAt: ExecutedAt.optional(),
    note: z.string().max(500).nullable().optional(),
    instrument: z
      .unknown()
      .optional()
      .describe(
        'Read-only: a transaction read back whole may carry it; ignored (a new `symbol` is resolved again; correct an instrument with `PUT /api/portfolios/{id}/instruments/{symbol}`)',
      ),
  })
  .meta({ id: 'TransactionPatch' })
  .describe('Fields of a transaction to replace; null removes an optional one');
export type TransactionPatch = z.infer<typeof TransactionPatch>;

/** Query of "list a portfolio's changes" (`GET /api/portfolios/{id}/changes`). */
export const ChangeListQuery = z
  .object({
    ...PAGE_FIELDS,
  })
  .meta({ id: 'ChangeListQuery' })
  .describe('The page of a portfolio’s changes, newest first');
export type ChangeListQuery = z.input<typeof ChangeListQuery>;

/**
 * One change in a portfolio's journal (CONTRACT §6): every write to its ledger (a recorded
 * transaction, an edit, a delete, an import, a revert), who made it and whether it was taken back.
 */
export const PortfolioChange = z
  .object({
    id: z.string().describe('Change id'),
    kind: z
      .enum(['record', 'edit', 'delete', 'import', 'revert'])
      .describe('record | edit | delete | import | revert (more may follow)'),
    at: z.string().describe('When it was written, ISO 8601 (UTC)'),
    source: z
      .enum(['rest', 'advisor', 'account-import'])
      .describe('rest (the API) | advisor (a confirmed proposal) | account-import'),
    summary: z.string().describe('What it did, in words, with every amount it wrote'),
    transactionCount: z.number().int().min(0).describe('Transactions it added, changed or removed'),
    revertedBy: z.string().optional().describe('The revert change that took it back, if any'),
    reverts: z.string().optional().describe('For a revert: the change it took back'),
  })
  .meta({ id: 'PortfolioChange' })
  .describe('A change in a portfolio’s journal');
export type PortfolioChange = z.infer<typeof PortfolioChange>;

/** One page of a portfolio's changes, newest first. */
export const PortfolioChangePage = z
  .object({
    items: z.array(PortfolioChange),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` to get the next page; null on the last page'),
  })
  .meta({ id: 'PortfolioChangePage' })
  .describe('A keyset page of a portfolio’s changes, newest first');
export type PortfolioChangePage = z.infer<typeof PortfolioChangePage>;
