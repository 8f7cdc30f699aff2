import { createHash } from 'node:crypto';
import { normalizeNewlines, readHeader } from './csv-records.js';
import { FIRST_DEFINITION_IDS } from './definitions/catalogue/first.js';
import { CATALOGUE, type Recognition, recogniseAll } from './definitions/catalogue/index.js';
import { definitionReader, type FormatDefinition, fileHead } from './definitions/definition.js';
import { mapGhostfolioJson } from './formats/ghostfolio-json.js';
import { proposeMapping } from './generic/propose.js';
import { findTableStart, fromLine } from './generic/sniff.js';
import {
  BROKER_FORMATS,
  type BrokerCsvResult,
  type BrokerFormat,
  DEFAULT_IMPORT_LIMITS,
  type ImportLimits,
} from './import-result.js';
import { mappedFormat } from './mapped-row.js';
import type { ColumnMapping } from './mapping.js';
import { collect, readWith } from './read-rows.js';
import type { RowContext } from './row.js';

export {
  BROKER_FORMATS,
  type BrokerCsvResult,
  type BrokerFormat,
  DEFAULT_IMPORT_LIMITS,
  type ImportedRow,
  type ImportIssue,
  type ImportLimits,
} from './import-result.js';

/**
 * The human name of every format of the catalogue, by format id, in {@link BROKER_FORMATS} order
 * (the catalogue's `label`s and Ghostfolio's JSON export): the one list documentation and help
 * texts name the supported brokers from. `mapped` (a user's column mapping) is not a broker.
 */
export const BROKER_FORMAT_LABELS: Readonly<Record<Exclude<BrokerFormat, 'mapped'>, string>> =
  Object.fromEntries([
    ...CATALOGUE.map((entry) => [entry.id, entry.label]),
    ['ghostfolio-json', 'Ghostfolio JSON'],
  ]) as Record<Exclude<BrokerFormat, 'mapped'>, string>;

/**
 * The catalogue of broker formats as documentation lists it: id, label, and where the layout is
 * documented (`source`). Every format is a declarative definition read by one engine.
 */
export const BROKER_CATALOGUE: readonly {
  readonly id: string;
  readonly label: string;
  readonly source: { readonly kind: string; readonly reference: string; readonly licence?: string };
}[] = CATALOGUE.map((entry) => ({
  id: entry.id,
  label: entry.label,
  source: entry.source,
}));

/**
 * The declarative definition of a catalogue format whose reads are checked at import: what the
 * checks of a catalogue read (`definitionMapping`, `checkMapping`) run on. `undefined` for an
 * unknown id and the definitions that replaced the first modules
 * (`FIRST_DEFINITION_IDS`): each reads exactly what its module read, and imports as the module
 * did, unchecked (the checks would now ask to confirm Revolut's position transfers between
 * entities and Schwab's mergers, which the modules skipped by design).
 */
export function catalogueDefinition(id: string): FormatDefinition | undefined {
  const entry = CATALOGUE.find((e) => e.id === id);
  if (entry === undefined || FIRST_DEFINITION_IDS.has(entry.id)) return undefined;
  return entry;
}

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
  /**
   * The user's own confirmed definitions (saved to their account): a file no catalogue format
   * recognises is read with the first of them that recognises it, as format `mapped`.
   */
  readonly definitions?: readonly FormatDefinition[];
}

/**
 * Parses a broker's transaction export into validated {@link NewTransaction}s, all or nothing:
 * when any row is bad the result is `{ ok: false, errors }` listing every bad row with its 1-based
 * line in the file, and no transaction is returned.
 *
 * Formats (`BROKER_FORMATS`): the catalogue (`definitions/catalogue/`: declarative definitions
 * read by one engine) and Ghostfolio JSON; each format's mapping is documented on its definition. With `format: 'auto'` a JSON
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
    const spec = mappedFormat(options.mapping);
    return readWith(spec, 'mapped', body, limits, context, options.mapping.skipUnreadable);
  }
  if (requested !== 'auto') {
    const entry = CATALOGUE.find((e) => e.id === requested);
    const found = entry ? recogniseAll(normalized, [entry])[0] : undefined;
    if (!found) return fail(1, `header row does not fit the format ${requested}`);
    return readEntry(found, normalized, limits, context);
  }
  const head = fileHead(normalized); // read once for the catalogue and the user's definitions
  const matches = recogniseAll(head);
  if (matches.length > 1) {
    const names = matches.map((m) => m.entry.id).join(', ');
    return fail(1, `header row fits several formats (${names}): choose one with \`format\``);
  }
  const [match] = matches;
  if (match) return readEntry(match, normalized, limits, context);
  const own = recogniseAll(head, options.definitions ?? [])[0];
  if (own) {
    const result = readEntry(own, normalized, limits, context, 'mapped');
    return result.ok ? { ...result, definitionId: own.entry.id } : result;
  }
  const names = BROKER_FORMATS.filter((f) => f !== 'mapped').join(', ');
  const failure = fail(1, `header row matches no supported format (${names})`);
  const proposal = proposeMapping(normalized, {
    accountCurrency: context.accountCurrency ?? 'EUR',
  });
  return proposal && !failure.ok ? { ...failure, proposal } : failure;
}

/** Reads a recognised file with its catalogue entry (a module, or the definition engine). */
function readEntry(
  { entry, found }: Recognition,
  normalized: string,
  limits: ImportLimits,
  context: RowContext,
  format: BrokerFormat = entry.id as BrokerFormat,
): BrokerCsvResult {
  const body = fromLine(normalized, found.headerLine);
  return readWith(definitionReader(entry, found), format, body, limits, context);
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

function fail(line: number, message: string, format?: BrokerFormat): BrokerCsvResult {
  return format === undefined
    ? { ok: false, errors: [{ line, message }] }
    : { ok: false, format, errors: [{ line, message }] };
}
