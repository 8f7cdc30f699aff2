import { createHash } from 'node:crypto';
import { NewTransaction } from '../transaction.js';
import { normalizeNewlines, readHeader, readTable } from './csv-records.js';
import { mapGhostfolioJson } from './formats/ghostfolio-json.js';
import { CSV_FORMATS } from './formats/index.js';
import { proposeMapping } from './generic/propose.js';
import { findTableStart, fromLine } from './generic/sniff.js';
import { mappedFormat } from './mapped-row.js';
import type { ColumnMapping, MappingProposal } from './mapping.js';
import type { BrokerFormatSpec, LineOutcome, RowContext } from './row.js';

/**
 * Broker export layouts {@link parseBrokerCsv} reads: the CSV formats of `formats/index.ts` and
 * Ghostfolio's JSON export (`ghostfolio-json`).
 */
export const BROKER_FORMATS = [
  'ghostfolio',
  'ghostfolio-json',
  'revolut',
  'ibkr-trades',
  'ibkr-cash',
  'degiro',
  'etoro',
  'saxo',
  'schwab',
  'trade-republic',
  'trading212',
  'xtb',
  'mapped',
] as const;
/** One of {@link BROKER_FORMATS}. */
export type BrokerFormat = (typeof BROKER_FORMATS)[number];
type CsvFormat = Exclude<BrokerFormat, 'ghostfolio-json' | 'mapped'>;
const CSV_FORMAT_IDS = Object.keys(CSV_FORMATS) as CsvFormat[];

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
  /**
   * The account's currency, for exports that do not name it (XTB); default EUR. ISO 4217.
   */
  readonly accountCurrency?: string;
  /**
   * A confirmed column mapping for a broker without a module (see `proposeMapping`): the file is
   * read with it, as format `mapped`, whatever `format` says.
   */
  readonly mapping?: ColumnMapping;
}

/**
 * One transaction read from the file: the validated transaction, the 1-based `line` of its row,
 * its position `index` among the transactions of that row, the broker's own id of the row when
 * the file has one (`externalId`) and the instrument name the file gives (`name`).
 */
export interface ImportedRow {
  readonly line: number;
  readonly index: number;
  readonly transaction: NewTransaction;
  readonly externalId?: string;
  readonly name?: string;
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
      /** The transactions, in file order (`rows[i].transaction`). */
      readonly transactions: NewTransaction[];
      /** The same transactions with their line, broker id and instrument name. */
      readonly rows: ImportedRow[];
      readonly skipped: ImportIssue[];
    }
  | {
      readonly ok: false;
      readonly format?: BrokerFormat;
      readonly errors: ImportIssue[];
      /** When no format matched: a column mapping proposed from the header and values. */
      readonly proposal?: MappingProposal;
    };

/**
 * Parses a broker's transaction export into validated {@link NewTransaction}s, all or nothing:
 * when any row is bad the result is `{ ok: false, errors }` listing every bad row with its 1-based
 * line in the file, and no transaction is returned.
 *
 * Formats (`BROKER_FORMATS`): Ghostfolio CSV and JSON, Revolut, Interactive Brokers (trades and
 * cash transactions), DEGIRO, eToro, Saxo, Schwab, Trade Republic, Trading 212, XTB; each
 * format's mapping is documented on its module in `formats/`. With `format: 'auto'` a JSON
 * document is Ghostfolio's export and a CSV's header row decides (each format's own delimiter). CSV syntax is read by
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
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const requested = options.format ?? 'auto';
  const context: RowContext = options.accountCurrency
    ? { accountCurrency: options.accountCurrency.toUpperCase() }
    : {};
  if (requested === 'ghostfolio-json' || (requested === 'auto' && /^\s*\{/.test(normalized))) {
    const mapped = mapGhostfolioJson(normalized);
    if (!Array.isArray(mapped)) return fail(mapped.line, mapped.message, 'ghostfolio-json');
    if (mapped.length > limits.maxRows) {
      const message = `file has ${mapped.length} activities; the limit is ${limits.maxRows}`;
      return fail(0, message, 'ghostfolio-json');
    }
    return collect('ghostfolio-json', mapped);
  }
  if (options.mapping !== undefined || requested === 'mapped') {
    if (options.mapping === undefined) return fail(0, 'format "mapped" needs a mapping', 'mapped');
    const body = fromLine(normalized, options.mapping.headerLine ?? 1);
    return readWith(mappedFormat(options.mapping), 'mapped', body, limits, context);
  }
  const format = resolveFormat(normalized, requested);
  if (format === undefined) {
    const names = BROKER_FORMATS.filter((f) => f !== 'mapped').join(', ');
    const failure = fail(1, `header row matches no supported format (${names})`);
    const proposal =
      requested === 'auto'
        ? proposeMapping(normalized, { accountCurrency: context.accountCurrency ?? 'EUR' })
        : undefined;
    return proposal && !failure.ok ? { ...failure, proposal } : failure;
  }
  return readWith(CSV_FORMATS[format], format, normalized, limits, context);
}

function readWith(
  spec: BrokerFormatSpec,
  format: BrokerFormat,
  normalized: string,
  limits: ImportLimits,
  context: RowContext,
): BrokerCsvResult {
  const table = readTable(normalized, spec.delimiter);
  if ('message' in table) return fail(table.line, table.message, format);
  if (table.rows.length > limits.maxRows) {
    const message = `file has ${table.rows.length} data rows; the limit is ${limits.maxRows}`;
    return fail(0, message, format);
  }
  const outcomes = spec.mapTable
    ? spec.mapTable(table.rows, context)
    : table.rows.map((row) => ({ line: row.line, outcome: spec.mapRow(row, context) }));
  return collect(format, outcomes);
}

/** The delimiter that splits the first line into the most fields. */
function likelyDelimiter(text: string): ',' | ';' | '\t' | '|' {
  const firstLine = text.split('\n', 1)[0] ?? '';
  const delimiters = [',', ';', '\t', '|'] as const;
  return delimiters.reduce((best, d) =>
    firstLine.split(d).length > firstLine.split(best).length ? d : best,
  );
}

/**
 * The identity of a CSV's header set, under which a confirmed column mapping is saved: the
 * header names of the first record (read with the delimiter that splits it into the most fields),
 * trimmed, lower-cased and sorted (so the order of the columns does not matter), hashed
 * (SHA-256, hex). `undefined` when the text has no readable header.
 */
export function headerSetKey(text: string): string | undefined {
  return headerSet(text)?.key;
}

/** {@link headerSetKey} with the header names it was computed from (trimmed, lower-cased, in file order). */
export function headerSet(text: string): { key: string; names: string[] } | undefined {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  // below a preamble, the header row the mapper finds; else the first line, as always
  const start = findTableStart(normalized);
  const header =
    start !== undefined && start.headerLine > 1
      ? readHeader(
          normalized
            .split('\n')
            .slice(start.headerLine - 1)
            .join('\n'),
          start.delimiter,
        )
      : readHeader(normalized, likelyDelimiter(normalized));
  if (!header || header.every((name) => name === '')) return undefined;
  const sorted = [...header].sort(); // readHeader trims and lower-cases
  return { key: createHash('sha256').update(sorted.join('\u001f')).digest('hex'), names: header };
}

function resolveFormat(text: string, requested: 'auto' | BrokerFormat): CsvFormat | undefined {
  if (requested === 'ghostfolio-json' || requested === 'mapped') return undefined;
  const candidates = requested === 'auto' ? CSV_FORMAT_IDS : [requested];
  return candidates.find((id) => {
    const spec: BrokerFormatSpec = CSV_FORMATS[id];
    const header = readHeader(text, spec.delimiter);
    return header !== undefined && spec.matches(header);
  });
}

function collect(format: BrokerFormat, outcomes: readonly LineOutcome[]): BrokerCsvResult {
  const rows: ImportedRow[] = [];
  const skipped: ImportIssue[] = [];
  const errors: ImportIssue[] = [];
  for (const { line, outcome: result } of outcomes) {
    if (result.kind === 'error') errors.push({ line, message: result.message });
    if (result.kind === 'skip') skipped.push({ line, message: result.reason });
    if (result.kind !== 'transactions') continue;
    result.transactions.forEach((tx, index) => {
      const checked = NewTransaction.safeParse(tx);
      if (!checked.success) {
        errors.push({ line, message: describeIssues(checked.error.issues) });
        return;
      }
      rows.push({ line, index, transaction: checked.data, ...result.meta });
    });
  }
  if (errors.length > 0) return { ok: false, format, errors };
  return { ok: true, format, transactions: rows.map((r) => r.transaction), rows, skipped };
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'row'}: ${i.message}`).join('; ');
}

function fail(line: number, message: string, format?: BrokerFormat): BrokerCsvResult {
  return format === undefined
    ? { ok: false, errors: [{ line, message }] }
    : { ok: false, format, errors: [{ line, message }] };
}
