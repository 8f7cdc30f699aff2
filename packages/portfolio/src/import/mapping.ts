import { z } from 'zod';
import { ROW_OPTIONS } from './row-options.js';
import { TABLE_OPTIONS } from './table-options.js';

/**
 * Fields a column can be mapped to. `side` is a sign column (buy/sell markers such as "A"/"V"),
 * `details` a text column whose cells hold a trade as text ("Sell 3 @ 139.74 USD"), `id` the
 * broker's own id of the row (with the action, it makes the import fingerprint, so a row the file
 * repeats is imported once), `assetClass` the kind of instrument (rows of a class listed in
 * `skipClasses`, such as CFDs, are skipped), `tax` a withholding or transaction tax column (see
 * {@link ColumnMapping} `dividendAmount`), `time` a time of day joined to the date, `fxRate` the
 * broker's exchange rate (kept in the note; cash is booked at the amounts the file gives),
 * `feeCurrency` the currency of the fee (a fee in another currency than the trade's is a fee
 * transaction of its own, noted `feeNote`).
 */
export const MAPPED_FIELDS = [
  'date',
  'action',
  'symbol',
  'isin',
  'name',
  'quantity',
  'price',
  'currency',
  'fee',
  'amount',
  'side',
  'details',
  'id',
  'assetClass',
  'tax',
  'time',
  'fxRate',
  'feeCurrency',
] as const;
/** One of {@link MAPPED_FIELDS}. */
export type MappedField = (typeof MAPPED_FIELDS)[number];

/**
 * What an action value means. `interest` becomes a deposit noted interest; `trade` is a buy or a
 * sell by the side column, the side named in `details`, the sign of the quantity (negative: sell)
 * or else of the amount (negative: buy); `cash` is a deposit or a withdrawal by the sign of the
 * amount (currency conversions and transfers, one row per currency); `shares` records units received
 * at no cost (a split's added shares, a spin-off, a stock dividend) as a buy at price 0; `tax` is
 * a fee noted `tax` (withholding tax, a transaction tax), a positive one (a refund) a deposit;
 * `charge` is a charge by the sign of the amount: negative a fee not tied to the instrument (noted
 * with the action), positive a refund (a deposit noted with the action), 0 skipped; `conversion`
 * is a currency conversion: the quantity is the amount of the base currency bought (> 0) or sold
 * (< 0), the amount what it cost or brought in the row's currency; the base currency is the first
 * part of a symbol such as `CHF.USD`, else the `feeCurrency` when it differs from the row's; it
 * becomes a deposit and a withdrawal (one per currency, noted `currency conversion BASE/QUOTE at
 * price`) and the fee.
 */
export const MAPPED_KINDS = [
  'buy',
  'sell',
  'dividend',
  'interest',
  'deposit',
  'withdrawal',
  'fee',
  'skip',
  'trade',
  'cash',
  'shares',
  'tax',
  'charge',
  'conversion',
] as const;
/** One of {@link MAPPED_KINDS}. */
export type MappedKind = (typeof MAPPED_KINDS)[number];

const Mark = z.enum(['.', ',']);

/**
 * A column mapping for a broker without a module of its own: which header holds each field,
 * how its dates and numbers are written, and what each value of the action column means. Proposed
 * by {@link proposeMapping}, confirmed or corrected by the user, then passed back as the import's
 * `mapping`.
 */
export const ColumnMapping = z
  .object({
    delimiter: z.enum([',', ';', '\t', '|']).describe('Field separator'),
    columns: z
      .partialRecord(z.enum(MAPPED_FIELDS), z.string().min(1))
      .describe(
        'Header name (as in the file; case, accents and punctuation are ignored) or `#n` (0-based position, for unnamed columns) per field; date and quantity or amount needed. `isin` may name a text column that holds the ISIN inside its cells (the name column)',
      ),
    dateOrder: z.enum(['dmy', 'mdy', 'ymd']).describe('Order of day, month and year'),
    decimal: Mark.describe('Decimal mark of the numbers'),
    actions: z
      .record(z.string(), z.enum(MAPPED_KINDS))
      .describe('Meaning of each value of the action column (case-insensitive)'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('Currency of every row when the file has no currency column'),
    headerLine: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        '1-based line of the header row, when lines (a preamble) come before it; default 1',
      ),
    decimals: z
      .partialRecord(z.enum(['quantity', 'price', 'fee', 'amount', 'details']), Mark)
      .optional()
      .describe(
        'Decimal mark per number column (and of the numbers in the `details` text), where it differs from `decimal`',
      ),
    sideFrom: z
      .enum(['quantity', 'amount'])
      .optional()
      .describe(
        'Where a `trade` row without a side column finds its side: the sign of the quantity (negative: sell; default) or of the amount (negative: buy)',
      ),
    skipClasses: z
      .array(z.string())
      .optional()
      .describe(
        'Values of the `assetClass` column whose rows are skipped (CFDs: contracts, not owned instruments)',
      ),
    sides: z
      .record(z.string(), z.enum(['buy', 'sell']))
      .optional()
      .describe('Meaning of each value of the `side` column (case-insensitive)'),
    actionPatterns: z
      .array(
        z.object({
          pattern: z
            .string()
            .min(1)
            .max(200)
            .describe('A regular expression (case-insensitive) an action value may match'),
          kind: z.enum(MAPPED_KINDS),
          when: z
            .enum(['negative', 'positive'])
            .optional()
            .describe(
              'Only for rows whose amount has this sign (a costs row that is a fee when negative and something else when positive); a row without an amount or of 0 meets neither',
            ),
          tag: z
            .string()
            .regex(/^[a-z0-9][a-z0-9-]{0,30}$/)
            .optional()
            .describe(
              "The row kind's name in its broker id: the `{tag}` of `idTemplate` (a row whose kind came from a pattern without a tag then has no broker id)",
            ),
        }),
      )
      .max(100)
      .optional()
      .describe(
        'Meanings of action values by pattern, tried in order after the exact values of `actions` (as Portfolio Performance maps its type column: exact value first, then the value as a regular expression)',
      ),
    skipRows: z
      .array(
        z.object({
          column: z.string().min(1).describe('Header name (or `#n`, 0-based position)'),
          pattern: z.string().min(1).max(200).describe('Regular expression (case-insensitive)'),
          reason: z.string().max(200),
          and: z
            .array(
              z.object({
                column: z.string().min(1),
                pattern: z.string().min(1).max(200),
              }),
            )
            .max(5)
            .optional()
            .describe(
              'Further cells the rule needs to match too (a transfer row that names an instrument)',
            ),
        }),
      )
      .max(20)
      .optional()
      .describe('Rows to skip whatever their action (a total line, a summary row)'),
    instrument: z
      .enum(['symbol', 'isin'])
      .optional()
      .describe(
        'Which identifier a row is recorded under when it has both (default `symbol`); the other is kept beside it',
      ),
    dividendAmount: z
      .enum(['net', 'gross'])
      .optional()
      .describe(
        "With a `tax` column: whether a dividend row's amount is after the tax (`net`, default: the gross is amount + tax) or before it (`gross`); the tax becomes a fee noted withholding tax",
      ),
    tradeAmount: z
      .enum(['net', 'gross', 'net-of-fee'])
      .optional()
      .describe(
        "What a trade's amount is when the price is worked out from it: `net` (default: the cash paid or received, fees included) `gross` (quantity × price; fees come on top) or `net-of-fee` (the cash after the fee, before a tax column's tax)",
      ),
    shortYears: z
      .boolean()
      .optional()
      .describe('Dates with a two-digit year (`31/01/24`) are read as 20yy; otherwise refused'),
    detailsPattern: z
      .string()
      .min(1)
      .max(300)
      .optional()
      .describe(
        'How the `details` cell holds a trade: a regular expression (case-insensitive) with the named groups `quantity` and `price`, and optionally `currency` (of the price; `GBX` is read as pence: GBP ÷ 100) and `side` (a word `sides` gives the meaning of); default: the built-in reading of "Sell 3 @ 139.74 USD"-like texts. A cell it does not match holds no trade',
      ),
    continuation: z
      .boolean()
      .optional()
      .describe(
        "Rows whose only filled cell is the last one continue the previous row's last cell (an order id the broker wrapped onto a second line) and are joined to it",
      ),
    extract: z
      .partialRecord(z.enum(MAPPED_FIELDS), z.string().min(1).max(200))
      .optional()
      .describe(
        'Per field, a regular expression (case-insensitive) whose first group is the part of the cell that holds it (`^([^(]+)\\(` for the name before a parenthesis); a cell it does not match reads empty',
      ),
    names: z
      .enum(['all-rows', 'instrument-rows'])
      .optional()
      .describe(
        'Rows whose `name` cell is kept as the name: every row (default), or only rows with an instrument (the cell names something else, an account holder, on cash rows)',
      ),
    currencySource: z
      .enum(['file', 'mapping', 'account'])
      .optional()
      .describe(
        "Where a row's currency comes from: `file` (default: the currency column, else a code or symbol in a number cell, the trade text or the symbol's pair, else `currency`), `mapping` (always `currency`: every amount is in the account's currency), `account` (the currency of the account imported into, as the import names it, else `currency`: the file does not name it)",
      ),
    idTemplate: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        "How the row's broker id (its import fingerprint) is written from the `id` cell: `{id}`, `{action}` (as written), `{actionLower}`, `{executedAt}` (ISO instant), `{tag}` (the `tag` of the action pattern that gave the row's kind; none: no id) replaced; default `{id}|{action}`. An id cell that is empty or `-` gives no id",
      ),
    notes: z
      .array(
        z.object({
          pattern: z
            .string()
            .min(1)
            .max(200)
            .describe('A regular expression (case-insensitive) the action value may match'),
          note: z
            .string()
            .max(200)
            .describe(
              "The note of the row's transaction: `{action}` (the action as written) and `{Header}` (a column's cell, header as in the file, case-insensitive) replaced; `{A|B}` the first of them not empty; empty: no note",
            ),
          when: z
            .enum(['negative', 'positive'])
            .optional()
            .describe('Only for rows whose amount has this sign (a refund noted apart)'),
          filled: z
            .string()
            .min(1)
            .max(200)
            .optional()
            .describe(
              'Only for rows whose cell in this column (header as in the file, case-insensitive; `A|B` the first not empty) is not empty (a withholding tax named in the note when there is one)',
            ),
        }),
      )
      .max(40)
      .optional()
      .describe(
        "Notes of the transactions of rows whose action matches (the first pattern that does), instead of the kind's own note (a withholding tax beside a dividend keeps its own)",
      ),
    feeNote: z
      .string()
      .max(100)
      .optional()
      .describe(
        "Note of a fee booked apart from its trade (a `feeCurrency` other than the trade's) and of a conversion's fee; default `fee`",
      ),
    noInstrument: z
      .enum(['skip', 'conversion', 'error'])
      .optional()
      .describe(
        'A trade row without an instrument: skipped (default: a currency trade whose cash is not modelled), read as a `conversion`, or an error (the format always names the instrument of a trade)',
      ),
    negativeDividend: z
      .enum(['skip', 'withdrawal'])
      .optional()
      .describe(
        'A dividend row with a negative amount (a reversal): skipped, or a withdrawal noted with the action (with a note rule: its note); default: a dividend of the amount without its sign',
      ),
    impliedFee: z
      .union([z.boolean(), z.literal('at-rate-1')])
      .optional()
      .describe(
        'Whether a trade without a fee column takes as its fee what the amount exceeds quantity × price by: `true` (default) when more than rounding and at most 3% of the value; `false` never (the amount is in another currency or holds what the broker does not call a fee); `at-rate-1` the whole excess when the `fxRate` cell is empty or 1 (the amount is in the price currency), none otherwise',
      ),
    ...ROW_OPTIONS,
    ...TABLE_OPTIONS,
    skipUnreadable: z
      .boolean()
      .optional()
      .describe(
        'Skip rows the mapping cannot read (listed in `skipped` as "unreadable: …") instead of failing the import; the proposal sets it when some rows cannot be read, and its `readable` check says whether they concern holdings',
      ),
  })
  .meta({ id: 'ColumnMapping' });
export type ColumnMapping = z.infer<typeof ColumnMapping>;

/** How sure the proposal is of one field's column, and why. */
export interface FieldConfidence {
  /** The header chosen, as in the file. */
  readonly column: string;
  /** 0 to 1; below {@link CONFIDENCE_THRESHOLD} the field is left out and asked for. */
  readonly confidence: number;
  /** The header words and value tests that chose it ("header word 'antal'", "12 of 12 numbers"). */
  readonly evidence: string[];
}

/**
 * A test of what a mapping's import would leave in the ledger (see `checkMapping`): its `id`
 * (`readable`, `widths`, `skipped-units`, `instruments`, `units-in-cash-rows`, `signs`, `sides`,
 * `counted-twice`, `quantity-price-amount`, `fractional-quantity`, `positions`), whether it
 * passed, what it found, and the lines of the file it doubts.
 */
export interface MappingCheck {
  readonly id: string;
  readonly passed: boolean;
  readonly detail: string;
  readonly lines: number[];
}

/**
 * A question the proposal asks instead of guessing: about a field, or an action value; `check`
 * names the failed check it settles.
 */
export interface MappingQuestion {
  readonly field?: MappedField | 'dateOrder' | 'decimal' | 'currency';
  readonly check?: string;
  /** The action value asked about. */
  readonly value?: string;
  readonly question: string;
  /** Columns, orders or kinds to choose from, best first. */
  readonly candidates: string[];
}

/** The confidence below which a field is asked for rather than proposed. */
export const CONFIDENCE_THRESHOLD = 0.5;

/** A proposed mapping with what the importer is unsure of. */
export interface MappingProposal {
  readonly mapping: ColumnMapping;
  /** Action values with no meaning found (mapped to `skip` until the user says otherwise). */
  readonly unmappedActions: string[];
  /** Fields no column was found for. */
  readonly missing: MappedField[];
  /** Per mapped field: its confidence and the evidence. */
  readonly confidence: Partial<Record<MappedField, FieldConfidence>>;
  /** What the proposal needs from the user before it can be accepted as is; empty when sure. */
  readonly needs: MappingQuestion[];
  /** How the header row was found (after a preamble, with which delimiter). */
  readonly structure: string;
  /**
   * The checks of the import the mapping would make (simulated before it is offered), passed or
   * not; a failed check's question is in `needs`.
   */
  readonly checks: MappingCheck[];
  /**
   * Whether the mapping may be imported unchanged: every check passed. When false, an import with
   * it unchanged is refused until the questions are answered or the result is confirmed.
   */
  readonly acceptable: boolean;
}
