import { NewTransaction } from '../transaction.js';
import { normalizeNewlines, readHeader, readTable } from './csv-records.js';
import { ghostfolioFormat } from './formats/ghostfolio.js';
import { ibkrTradesFormat } from './formats/ibkr.js';
import { revolutFormat } from './formats/revolut.js';
import type { BrokerFormatSpec, CsvRow } from './row.js';

/** Broker CSV layouts {@link parseBrokerCsv} reads. */
export const BROKER_FORMATS = ['ghostfolio', 'revolut', 'ibkr-trades'] as const;
/** One of {@link BROKER_FORMATS}. */
export type BrokerFormat = (typeof BROKER_FORMATS)[number];

const SPECS: Record<BrokerFormat, BrokerFormatSpec> = {
  ghostfolio: ghostfolioFormat,
  revolut: revolutFormat,
  'ibkr-trades': ibkrTradesFormat,
};

/**
 * Size limits of one import. Defaults: 2 MB (UTF-8 bytes) and 10,000 data rows: a decade of an
 * active account's transactions is a few thousand rows; larger files are more likely a wrong file
 * (or an attempt to exhaust memory) than an export to import in one request.
 */
export interface ImportLimits {
  readonly maxBytes: number;
  readonly maxRows: number;
}

/** Default {@link ImportLimits}: 2,000,000 bytes, 10,000 data rows. */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = { maxBytes: 2_000_000, maxRows: 10_000 };

/** Options of {@link parseBrokerCsv}. */
export interface ParseBrokerCsvOptions {
  /** The layout; `'auto'` (default) detects it from the header row. */
  readonly format?: 'auto' | BrokerFormat;
  /** Overrides of {@link DEFAULT_IMPORT_LIMITS}. */
  readonly limits?: Partial<ImportLimits>;
}

/** A problem or note about one line of the file. `line` is 1-based; 0 means the whole file. */
export interface ImportIssue {
  readonly line: number;
  readonly message: string;
}

/**
 * Result of {@link parseBrokerCsv}. On success, `skipped` lists rows deliberately left out (no
 * effect on holdings or cash, or not modelled) with the reason, for the user to review.
 */
export type BrokerCsvResult =
  | {
      readonly ok: true;
      readonly format: BrokerFormat;
      readonly transactions: NewTransaction[];
      readonly skipped: ImportIssue[];
    }
  | { readonly ok: false; readonly format?: BrokerFormat; readonly errors: ImportIssue[] };

/**
 * Parses a broker's transaction export into validated {@link NewTransaction}s, all or nothing:
 * when any row is bad the result is `{ ok: false, errors }` listing every bad row with its 1-based
 * line in the file, and no transaction is returned.
 *
 * Formats (`BROKER_FORMATS`): Ghostfolio's activity CSV, Revolut's stocks statement,
 * Interactive Brokers Flex Query trades; each format's mapping is documented on its spec. With
 * `format: 'auto'` the header row decides (`,` then `;` delimited). CSV syntax is read by
 * csv-parse (quotes, embedded newlines, BOM). Every produced transaction is checked against the
 * `NewTransaction` schema. Files over `limits.maxBytes` or `limits.maxRows` are refused.
 * Never throws for bad input.
 *
 * @example
 * ```ts
 * const result = parseBrokerCsv(await readFile('export.csv', 'utf8'));
 * if (result.ok) for (const tx of result.transactions) await record(tx);
 * else for (const e of result.errors) console.error(`line ${e.line}: ${e.message}`);
 * ```
 */
export function parseBrokerCsv(text: string, options: ParseBrokerCsvOptions = {}): BrokerCsvResult {
  const limits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    return fail(0, `file is ${bytes} bytes; the limit is ${limits.maxBytes} bytes`);
  }
  const normalized = normalizeNewlines(text);
  const format = resolveFormat(normalized, options.format ?? 'auto');
  if (format === undefined) {
    const names = BROKER_FORMATS.join(', ');
    return fail(1, `header row matches no supported format (${names})`);
  }
  const table = readTable(normalized, SPECS[format].delimiter);
  if ('message' in table) return fail(table.line, table.message, format);
  if (table.rows.length > limits.maxRows) {
    const message = `file has ${table.rows.length} data rows; the limit is ${limits.maxRows}`;
    return fail(0, message, format);
  }
  return mapRows(SPECS[format], format, table.rows);
}

function resolveFormat(text: string, requested: 'auto' | BrokerFormat): BrokerFormat | undefined {
  const candidates = requested === 'auto' ? BROKER_FORMATS : [requested];
  return candidates.find((id) => {
    const spec = SPECS[id];
    const header = readHeader(text, spec.delimiter);
    return header !== undefined && spec.matches(header);
  });
}

function mapRows(spec: BrokerFormatSpec, format: BrokerFormat, rows: CsvRow[]): BrokerCsvResult {
  const transactions: NewTransaction[] = [];
  const skipped: ImportIssue[] = [];
  const errors: ImportIssue[] = [];
  for (const row of rows) {
    const result = spec.mapRow(row);
    if (result.kind === 'error') errors.push({ line: row.line, message: result.message });
    if (result.kind === 'skip') skipped.push({ line: row.line, message: result.reason });
    if (result.kind !== 'transactions') continue;
    for (const tx of result.transactions) {
      const checked = NewTransaction.safeParse(tx);
      if (checked.success) transactions.push(checked.data);
      else errors.push({ line: row.line, message: describeIssues(checked.error.issues) });
    }
  }
  if (errors.length > 0) return { ok: false, format, errors };
  return { ok: true, format, transactions, skipped };
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'row'}: ${i.message}`).join('; ');
}

function fail(line: number, message: string, format?: BrokerFormat): BrokerCsvResult {
  return format === undefined
    ? { ok: false, errors: [{ line, message }] }
    : { ok: false, format, errors: [{ line, message }] };
}
