import { z } from 'zod';

/** The shape of an ISIN (ISO 6166): two letters, nine letters or digits, one check digit. */
export const ISIN_PATTERN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/**
 * Whether `text` is an ISIN whose check digit is right. ISO 6166: letters become two digits
 * (A = 10 … Z = 35), then the Luhn algorithm over the digit string (doubling every second digit
 * from the right, the check digit excluded) gives the last digit. `US0378331005` (Apple) passes,
 * `US0378331006` does not.
 */
export function isValidIsin(text: string): boolean {
  if (!ISIN_PATTERN.test(text)) return false;
  const digits = [...text].map((c) => (c >= 'A' ? String(c.charCodeAt(0) - 55) : c)).join('');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * An ISIN's shape (ISO 6166: 2 letters, 9 letters or digits, a digit); blanks trimmed,
 * upper-cased. The check digit is not verified at the boundary (a pattern is what the OpenAPI
 * document can state); the resolution reads as an ISIN only what passes {@link isValidIsin}.
 */
export const Isin = z
  .string()
  .trim()
  .toUpperCase()
  .regex(ISIN_PATTERN, 'expected an ISIN: 2 letters, 9 letters or digits, a digit')
  .describe('ISIN (ISO 6166), e.g. US0378331005');

/** Kinds of instrument (CONTRACT §9): `fund` covers ETFs and mutual funds, `cash` cash-like ones. */
export const INSTRUMENT_KINDS = ['share', 'fund', 'bond', 'cash', 'other'] as const;

/** One of {@link INSTRUMENT_KINDS}. */
export const InstrumentKind = z
  .enum(INSTRUMENT_KINDS)
  .describe('share | fund (ETF, mutual fund) | bond | cash (cash-like) | other');
export type InstrumentKind = z.infer<typeof InstrumentKind>;

/**
 * Where an instrument's identity came from, in the order the service tries them (CONTRACT §9):
 * the broker's export, the user's own assignment, OpenFIGI's mapping API, SEC's ticker list, the
 * offline resolver file; `unresolved` when none knew it.
 */
export const INSTRUMENT_RESOLUTIONS = [
  'export',
  'user',
  'openfigi',
  'sec',
  'file',
  'unresolved',
] as const;

/** One of {@link INSTRUMENT_RESOLUTIONS}. */
export const InstrumentResolution = z
  .enum(INSTRUMENT_RESOLUTIONS)
  .describe('export | user | openfigi | sec | file | unresolved');
export type InstrumentResolution = z.infer<typeof InstrumentResolution>;

/**
 * What a holding or a transaction refers to (CONTRACT §9): the ISIN, the ticker and exchange
 * (ISO 10383 MIC) of the listing it resolved to, its trading currency, name, kind, the SEC CIK
 * (10 digits, zero-padded) where it has one, and where that came from (`resolution`). An
 * unresolved instrument is still usable (its quantity, cost and cash count); `unresolvedReason`
 * says why it could not be identified.
 */
export const Instrument = z
  .object({
    isin: Isin.optional(),
    ticker: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .describe('Ticker of the listing (AAPL, VWRL), without an exchange suffix'),
    mic: z
      .string()
      .regex(/^[A-Z0-9]{4}$/, 'expected an ISO 10383 MIC of four letters or digits')
      .optional()
      .describe('ISO 10383 market identifier code of the listing (XNAS, XETR, XAMS)'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')
      .describe('Trading currency (ISO 4217)'),
    name: z.string().min(1).max(200).optional().describe('Display name'),
    kind: InstrumentKind,
    cik: z
      .string()
      .regex(/^[0-9]{10}$/, 'expected 10 digits')
      .optional()
      .describe('SEC Central Index Key, 10 digits zero-padded'),
    resolution: InstrumentResolution,
    unresolvedReason: z
      .string()
      .max(300)
      .optional()
      .describe('Why the instrument is unresolved (only with resolution unresolved)'),
  })
  .meta({ id: 'Instrument' })
  .describe('The instrument a holding or transaction refers to, and where its identity came from');
export type Instrument = z.infer<typeof Instrument>;

const assignmentTicker = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9.-]{0,19}$/, 'expected 1–20 characters of A–Z, 0–9, "." or "-"')
  .describe('Ticker of the listing, without an exchange suffix');
const assignmentFields = {
  isin: Isin.optional(),
  ticker: assignmentTicker.optional(),
  mic: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{4}$/, 'expected an ISO 10383 MIC')
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code')
    .optional(),
  name: z.string().trim().min(1).max(200).optional(),
  kind: InstrumentKind.optional(),
  cik: z
    .string()
    .regex(/^[0-9]{1,10}$/, 'expected up to 10 digits')
    .optional(),
};
/**
 * A user's correction of an instrument's resolution (`PUT
 * /api/portfolios/{id}/instruments/{symbol}`): the identifiers to assign. At least a `ticker` or
 * an `isin`; the result is stored with resolution `user`.
 */
export const InstrumentAssignment = z
  .union([
    z.strictObject({ ...assignmentFields, ticker: assignmentTicker }),
    z.strictObject({ ...assignmentFields, isin: Isin }),
  ])
  .meta({ id: 'InstrumentAssignment' })
  .describe("The user's own identification of an instrument: a ticker or an ISIN, or both");
export type InstrumentAssignment = z.infer<typeof InstrumentAssignment>;

/**
 * The answer of an instrument assignment: the symbol the instrument's transactions now carry, the
 * instrument (resolution `user`), how many transactions were reassigned and the journal's change
 * (revert it to undo the assignment).
 */
export const InstrumentAssignmentResult = z
  .object({
    symbol: z.string().min(1).describe('The symbol the transactions and the holding now carry'),
    instrument: Instrument,
    transactionCount: z.number().int().min(1).describe('Transactions reassigned'),
    changeId: z.string().min(1).describe('The journal change (revertible)'),
  })
  .meta({ id: 'InstrumentAssignmentResult' })
  .describe('What an instrument assignment changed');
export type InstrumentAssignmentResult = z.infer<typeof InstrumentAssignmentResult>;
