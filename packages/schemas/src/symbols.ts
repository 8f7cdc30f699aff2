import { z } from 'zod';

/** The rule of a ticker: A–Z, 0–9, `.` or `-`, at least one letter or digit (case-insensitive). */
const TICKER_PATTERN = /^[A-Za-z0-9.-]*[A-Za-z0-9][A-Za-z0-9.-]*$/;

/** Why a string is not a {@link TickerSymbol}: the field error message every surface gives. */
export const TICKER_SYMBOL_RULE =
  'expected 1–10 characters of A–Z, 0–9, "." or "-", at least one a letter or digit';

/**
 * A ticker symbol as every interface accepts it for an evaluation, a quote or a saved report
 * (REST query and body fields, MCP tool arguments, the advisor's tools): 1–10 characters of A–Z,
 * 0–9, `.` or `-` with at least one letter or digit, case-insensitive, surrounding blanks trimmed.
 * Ten characters cover the exchanges' tickers (NYSE and Nasdaq use at most five letters plus a
 * class suffix). Anything else is `validation_failed` at the boundary, before any provider or
 * quota is touched.
 *
 * The schema validates only (it is used for answers too); the one normalisation is
 * {@link normaliseTicker}, which the flows apply once per request (`BRK.B` and `brk-b` name the
 * same share class, `BRK-B`).
 */
export const TickerSymbol = z
  .string()
  .trim()
  .min(1)
  .max(10)
  .regex(TICKER_PATTERN, TICKER_SYMBOL_RULE)
  .describe('Ticker symbol: 1–10 characters of A–Z, 0–9, "." or "-" (case-insensitive), e.g. AAPL');

/** A ticker symbol as accepted (see {@link TickerSymbol}). */
export type TickerSymbol = z.infer<typeof TickerSymbol>;

/**
 * The one normalisation of a ticker: trimmed, upper-cased, share-class separators written as `-`
 * (SEC's `company_tickers.json` spelling), so `bf.b`, `BF.B` and `BF-B` all become `BF-B`.
 * Returns `undefined` unless the input is a {@link TickerSymbol}.
 *
 * @example
 * ```ts
 * normaliseTicker(' brk.b ') // 'BRK-B'
 * normaliseTicker('../x')    // undefined
 * ```
 */
export function normaliseTicker(raw: unknown): string | undefined {
  const parsed = TickerSymbol.safeParse(raw);
  return parsed.success ? parsed.data.toUpperCase().replaceAll('.', '-') : undefined;
}

/**
 * An instrument as a portfolio holding or transaction names it: a ticker (`AAPL`, `NOVN.SW`), an
 * ISIN (`US0378331005`), or a broker's or the user's name for a manual asset (`Gold bar 100 g`).
 * 1–64 characters after trimming; kept as given (no case or separator change). It differs from a
 * {@link TickerSymbol} on purpose: a holding need not be an evaluable listed share.
 */
export const InstrumentSymbol = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .describe('Instrument identifier: ticker (AAPL), ISIN, or name of a manual asset');

/** An instrument symbol (see {@link InstrumentSymbol}). */
export type InstrumentSymbol = z.infer<typeof InstrumentSymbol>;

/**
 * An instrument symbol the quote providers can price (their file and URL key): 1–15 characters of
 * A–Z, 0–9, `.` or `-`, starting with a letter or digit, upper-cased (`NOVN.SW`, `BRK-B`). A
 * holding whose symbol is not one (an ISIN, a manual asset's name) simply has no quote.
 */
export const QuoteSymbol = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9.-]{0,14}$/, 'expected 1–15 characters of A–Z, 0–9, "." or "-"')
  .describe('Symbol as the quote providers key prices: 1–15 characters of A–Z, 0–9, "." or "-"');
