import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';

/** An ISIN (ISO 6166): two letters, nine letters or digits, one check digit. */
export const ISIN_PATTERN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

/**
 * Maps the ISIN of an instrument to the symbol quotes are asked for (the quote provider's own
 * symbol, e.g. `US17275R1023` → `CSCO`). Brokers that identify instruments by ISIN (Trading 212,
 * Saxo's ISIN column, DEGIRO) give holdings an ISIN where a quote needs a symbol; with a resolver
 * the import stores the quote symbol instead (the export's name is kept), so the holding gets a
 * price and an EUR value. Pluggable: any object with `symbolOf` (a table from a file, a
 * reference-data service…).
 */
export interface IsinResolver {
  /** The quote symbol of `isin`, or `undefined` when unknown (the ISIN stays the symbol). */
  symbolOf(isin: string): string | undefined;
}

const IsinTable = z.record(
  z.string().regex(ISIN_PATTERN, 'not an ISIN'),
  z.string().trim().min(1).max(20),
);

/**
 * A resolver from a table `{ "<ISIN>": "<symbol>" }` (symbols upper-cased).
 * @throws UseCaseError `validation_failed` for a key that is not an ISIN or an empty symbol.
 */
export function createIsinTable(table: Record<string, string>): IsinResolver {
  const parsed = IsinTable.safeParse(table);
  if (!parsed.success) {
    throw new UseCaseError('validation_failed', 'the ISIN table is malformed', {
      errors: parsed.error.issues.map((i) => ({
        path: i.path.map(String).join('.'),
        message: i.message,
      })),
    });
  }
  const symbols = new Map(
    Object.entries(parsed.data).map(([isin, symbol]) => [isin, symbol.toUpperCase()]),
  );
  return { symbolOf: (isin) => symbols.get(isin.toUpperCase()) };
}

/**
 * The resolver of the `ISIN_SYMBOLS_FILE` setting: a JSON file holding one object
 * `{ "<ISIN>": "<symbol>", … }`.
 * @throws UseCaseError `validation_failed` when the file is not such JSON; the read's error when
 *   it cannot be read.
 */
export async function loadIsinTable(file: string): Promise<IsinResolver> {
  let table: unknown;
  try {
    table = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new UseCaseError('validation_failed', `${file} is not JSON`, { cause: error });
    }
    throw error;
  }
  if (table === null || typeof table !== 'object' || Array.isArray(table)) {
    throw new UseCaseError(
      'validation_failed',
      `${file} must hold one JSON object of ISIN → symbol`,
    );
  }
  return createIsinTable(table as Record<string, string>);
}
