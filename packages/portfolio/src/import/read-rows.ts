import { NewTransaction } from '../transaction.js';
import { readTable } from './csv-records.js';
import type {
  BrokerCsvResult,
  BrokerFormat,
  ImportedRow,
  ImportIssue,
  ImportLimits,
} from './import-result.js';
import type { BrokerFormatSpec, LineOutcome, RowContext } from './row.js';

/** The reason of a row a mapping with `skipUnreadable` skips instead of failing on. */
export const UNREADABLE = 'unreadable';

/**
 * Reads `normalized` (LF line ends, no BOM) with one format, all or nothing: every row's outcome is
 * collected, and any failing row (a format's error, or a transaction the schema refuses) makes the
 * result fail, listing them all; with `skipInvalid` failing rows are skipped instead, their reason
 * prefixed `unreadable:`.
 */
export function readWith(
  spec: BrokerFormatSpec,
  format: BrokerFormat,
  normalized: string,
  limits: ImportLimits,
  context: RowContext,
  skipInvalid = false,
): BrokerCsvResult {
  const table = readTable(normalized, spec.delimiter);
  if ('message' in table) return failWith(table.line, table.message, format);
  if (table.rows.length > limits.maxRows) {
    const message = `file has ${table.rows.length} data rows; the limit is ${limits.maxRows}`;
    return failWith(0, message, format);
  }
  const outcomes = spec.mapTable
    ? spec.mapTable(table.rows, context)
    : table.rows.map((row) => ({ line: row.line, outcome: spec.mapRow(row, context) }));
  return collect(format, outcomes, skipInvalid);
}

/** Collects rows' outcomes (see {@link readWith}). */
export function collect(
  format: BrokerFormat,
  outcomes: readonly LineOutcome[],
  skipInvalid = false,
): BrokerCsvResult {
  const rows: ImportedRow[] = [];
  const skipped: ImportIssue[] = [];
  const errors: ImportIssue[] = [];
  const bad = (line: number, message: string) =>
    skipInvalid
      ? skipped.push({ line, message: `${UNREADABLE}: ${message}` })
      : errors.push({ line, message });
  for (const { line, outcome: result } of outcomes) {
    if (result.kind === 'error') bad(line, result.message);
    if (result.kind === 'skip') skipped.push({ line, message: result.reason });
    if (result.kind !== 'transactions') continue;
    const checked = result.transactions.map((tx) => NewTransaction.safeParse(tx));
    const failures = checked.flatMap((c) => (c.success ? [] : [describeIssues(c.error.issues)]));
    if (skipInvalid && failures.length > 0) {
      bad(line, failures.join('; '));
      continue;
    }
    for (const message of failures) bad(line, message);
    checked.forEach((c, index) => {
      if (c.success) rows.push({ line, index, transaction: c.data, ...result.meta });
    });
  }
  if (errors.length > 0) return { ok: false, format, errors };
  return { ok: true, format, transactions: rows.map((r) => r.transaction), rows, skipped };
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'row'}: ${i.message}`).join('; ');
}

function failWith(line: number, message: string, format: BrokerFormat): BrokerCsvResult {
  return { ok: false, format, errors: [{ line, message }] };
}
