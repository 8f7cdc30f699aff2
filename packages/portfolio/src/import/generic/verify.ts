import { normalizeNewlines, readTable } from '../csv-records.js';
import type { BrokerCsvResult, ImportLimits } from '../import-result.js';
import { mappedFormat } from '../mapped-row.js';
import type { ColumnMapping, MappingCheck, MappingQuestion } from '../mapping.js';
import { readWith } from '../read-rows.js';
import type { RowContext } from '../row.js';
import { positions, productChecks } from './check-ledger.js';
import { instruments, readable, skippedUnits, unitsInCashRows, widths } from './check-rows.js';
import { FileView, type Finding, list } from './check-support.js';
import { countedTwice, sides, signs } from './check-trades.js';
import { fromLine } from './sniff.js';

/** What the checks of a mapping found: whether its result may be imported unchanged, and why not. */
export interface MappingVerdict {
  /** Every check run, passed or not. */
  readonly checks: MappingCheck[];
  /** Whether every check passed: the mapping's holdings can be imported as they are. */
  readonly acceptable: boolean;
  /** One question per failed check, the one that settles it. */
  readonly questions: MappingQuestion[];
  /** The file read with the mapping (what an import of it would store). */
  readonly parsed: BrokerCsvResult;
}

/**
 * {@link verifyMapping} of a file as uploaded (any line ends, a byte-order mark): what importing
 * it with `mapping` would leave in the ledger, checked. `accountCurrency` as for the import.
 */
export function checkMapping(
  text: string,
  mapping: ColumnMapping,
  options: { readonly accountCurrency?: string } = {},
): MappingVerdict {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const context = options.accountCurrency
    ? { accountCurrency: options.accountCurrency.toUpperCase() }
    : {};
  return verifyMapping(normalized, mapping, context);
}

const LIMITS: ImportLimits = {
  maxBytes: Number.MAX_SAFE_INTEGER,
  maxRows: Number.MAX_SAFE_INTEGER,
};

/**
 * Simulates the import `mapping` makes of `normalized` (LF line ends, no BOM) and tests what the
 * ledger says, before anyone relies on it:
 * - `readable`: every row is read, or the rows skipped as unreadable are a minority and hold no
 *   units of an instrument;
 * - `widths`: no row that is read has more (filled) cells than the header (values shifted right);
 * - `skipped-units`: no row whose action is skipped (or unknown) moves units of an instrument,
 *   unless it repeats a trade the mapping reads (a second row of one order);
 * - `instruments`: the mapping reads an instrument column (a trade with an empty instrument cell
 *   is a currency trade, skipped);
 * - `units-in-cash-rows`: no row recorded as cash (deposit, withdrawal, interest, fee, transfer)
 *   carries units of an instrument;
 * - `signs`: the rows of one buy (or sell) action do not mix signs of quantity or amount (a sell
 *   written as a negative buy);
 * - `sides`: without an action, side or text column, some sign tells buys from sells (else every
 *   row would be read as a purchase);
 * - `counted-twice`: no trade appears twice (two rows of one order under two actions, every trade
 *   twice, or a trade and a cash leg of the same amount in the same direction);
 * - `quantity-price-amount`: quantity × price matches the amount (up to fees, or at a steady
 *   exchange rate), on whole and on fractional quantities alike;
 * - `positions`: no sale sells more than is held when the file itself bought the instrument
 *   earlier, no dividend is paid on a position the file bought and emptied, and not every trade is
 *   a sale.
 * A failed check comes with the question that settles it.
 */
export function verifyMapping(
  normalized: string,
  mapping: ColumnMapping,
  context: RowContext = {},
): MappingVerdict {
  const body = fromLine(normalized, mapping.headerLine ?? 1);
  const parsed = readWith(
    mappedFormat(mapping),
    'mapped',
    body,
    LIMITS,
    context,
    mapping.skipUnreadable,
  );
  const table = readTable(body, mapping.delimiter);
  const checks: Finding[] = [];
  if (!parsed.ok || 'message' in table) {
    const errors = parsed.ok ? [] : parsed.errors;
    checks.push({
      id: 'readable',
      passed: false,
      detail: `${errors.length} rows cannot be read: ${errors
        .slice(0, 3)
        .map((e) => `line ${e.line}: ${e.message}`)
        .join('; ')}`,
      lines: errors.map((e) => e.line),
      question: {
        question: `Lines ${list(errors.map((e) => e.line))} cannot be read with this mapping: skip them (set skipUnreadable) or correct the mapping?`,
        candidates: ['skip', 'correct the mapping'],
      },
    });
    return verdict(checks, parsed);
  }
  const file = new FileView(table.rows, mapping, parsed.rows, table.rawHeader);
  checks.push(
    readable(file, parsed),
    widths(file),
    skippedUnits(file),
    instruments(file, parsed),
    unitsInCashRows(file),
    signs(file),
    sides(file, parsed.rows),
    countedTwice(file, parsed.rows),
    ...productChecks(file, parsed.rows),
    positions(parsed.rows),
  );
  return verdict(checks, parsed);
}

function verdict(findings: readonly Finding[], parsed: BrokerCsvResult): MappingVerdict {
  const checks = findings.map(({ question: _q, ...check }) => check);
  const questions = findings.flatMap((f) =>
    !f.passed && f.question ? [{ ...f.question, check: f.id }] : [],
  );
  return { checks, acceptable: checks.every((c) => c.passed), questions, parsed };
}
