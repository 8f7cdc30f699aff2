import { createHash } from 'node:crypto';
import { z } from 'zod';
import { normalizeNewlines, readHeader } from '../csv-records.js';
import { mappedFormat } from '../mapped-row.js';
import { ColumnMapping } from '../mapping.js';
import type { BrokerFormatSpec } from '../row.js';

/**
 * A header name folded for comparison: accents removed (NFKD), lower case, letters and digits
 * only (`"Quantità"` → `quantita`, `"Price / share"` → `priceshare`), as Portfolio Performance
 * normalises column names before it matches them (`CSVImporter.normalizeColumnName`).
 */
export function fold(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]/g, '');
}

const Name = z.string().min(1).max(120);

/** Where a definition's knowledge of the format comes from (shown in the catalogue). */
export const DefinitionSource = z
  .object({
    kind: z
      .enum(['broker-documentation', 'open-source-importer', 'sample-file', 'user', 'draft'])
      .describe(
        'broker-documentation: the broker documents the export; open-source-importer: a public importer read as documentation (its code not copied); sample-file: a public sample export; user: confirmed by a user on their own file; draft: proposed from a file, not confirmed',
      ),
    reference: z.string().min(1).max(500).describe('Where the layout is documented'),
    licence: z.string().max(100).optional().describe('Licence of the reference read'),
    note: z.string().max(500).optional(),
  })
  .meta({ id: 'DefinitionSource' });
export type DefinitionSource = z.infer<typeof DefinitionSource>;

/**
 * How a format is recognised from its header row: every name of `headers` (folded, see
 * {@link fold}; an array lists alternatives, any one of which is enough) is a column of the
 * header row, no name of `excludes` is, and `positions` (0-based) hold one of their names. The
 * header row is the first line, or with `preamble` the first of the first 40 lines that fits.
 */
export const Recognition = z
  .object({
    headers: z
      .array(z.union([Name, z.array(Name).min(1).max(10)]))
      .min(2)
      .max(40)
      .describe('Columns the header row must have (folded names; an array: any one of them)'),
    excludes: z.array(Name).max(20).optional().describe('Columns the header row must not have'),
    positions: z
      .record(z.string().regex(/^\d{1,2}$/), z.array(Name).min(1).max(10))
      .optional()
      .describe('0-based positions and the folded names one of which stands there'),
    minColumns: z.number().int().min(1).max(200).optional(),
    delimiters: z
      .array(z.enum([',', ';', '\t', '|']))
      .max(4)
      .optional()
      .describe(
        'Other delimiters the broker writes besides `read.delimiter` (by locale or version)',
      ),
    preamble: z
      .boolean()
      .optional()
      .describe('Lines (an account name, a period) may come before the header row'),
    encoding: z
      .enum(['utf-8', 'windows-1252', 'utf-16'])
      .optional()
      .describe('Encoding the broker writes (informational: files are decoded by their bytes)'),
  })
  .meta({ id: 'FormatRecognition' });
export type Recognition = z.infer<typeof Recognition>;

/**
 * A broker export format as data: how it is recognised, where the knowledge comes from, and how
 * its rows read (a {@link ColumnMapping}: columns for date, time, action, instrument — ISIN and
 * ticker both —, quantity, price, amount, fee, tax, currency and FX rate; date order and decimal
 * mark; action values and patterns → transaction kinds; rows to skip; continuation lines
 * joined). One engine (`mappedFormat`) reads every definition. Column names in `read` are
 * matched folded (see {@link fold}); `read.headerLine` is set by recognition.
 */
export const FormatDefinition = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,40}$/)
      .describe('Stable id: lower-case letters, digits and dashes'),
    label: z.string().min(1).max(120).describe('Broker and export, as a user names them'),
    version: z.literal(1),
    source: DefinitionSource,
    recognise: Recognition,
    read: ColumnMapping,
  })
  .meta({ id: 'FormatDefinition' });
export type FormatDefinition = z.infer<typeof FormatDefinition>;

/**
 * What a user's saved import mapping may hold (the `mapping` of `import_mappings`): a
 * {@link FormatDefinition} (issue 40), or a {@link ColumnMapping} saved before definitions
 * existed. Checked at every entry (a saved import, an account import) and on every read, where
 * a stored row that is neither is reported, never fatal (issue 41).
 */
export const StoredMapping = z.union([FormatDefinition, ColumnMapping]);
export type StoredMapping = z.infer<typeof StoredMapping>;

/** Where a recognised format's header row is, and the header as read. */
export interface Recognised {
  /** 1-based line of the header row. */
  readonly headerLine: number;
  /** The delimiter the header row was read with. */
  readonly delimiter: ',' | ';' | '\t' | '|';
  /** The header row's cells as written (trimmed). */
  readonly header: readonly string[];
}

/** Lines a header row may be preceded by, with `preamble` (the header is among the first 40). */
const PREAMBLE_LINES = 40;

/** A line of a file's head read as a header row with one delimiter. */
interface HeadRow {
  /** The cells as read (trimmed). */
  readonly cells: readonly string[];
  /** The cells folded ({@link fold}), by position. */
  readonly folded: readonly string[];
  readonly present: ReadonlySet<string>;
}

/**
 * The head of a file as recognition reads it: its first {@link PREAMBLE_LINES} lines (a header row
 * lies there or nowhere), each read as a header row at most once per delimiter however many
 * definitions ask. Built by {@link fileHead}; its cost does not depend on the file's size.
 */
export interface FileHead {
  /** The first lines of the file (LF line ends), at most 40. */
  readonly lines: readonly string[];
  /** Line `index` (0-based) read as a header row with `delimiter`; `undefined` when blank or not CSV. */
  row(index: number, delimiter: string): HeadRow | undefined;
}

/** The {@link FileHead} of `text` (LF line ends, no BOM): only its first 40 lines are read. */
export function fileHead(text: string): FileHead {
  const lines: string[] = [];
  let start = 0;
  while (lines.length < PREAMBLE_LINES) {
    const end = text.indexOf('\n', start);
    lines.push(end === -1 ? text.slice(start) : text.slice(start, end));
    if (end === -1) break;
    start = end + 1;
  }
  const rows = new Map<string, HeadRow | null>();
  return {
    lines,
    row(index, delimiter) {
      const key = `${index}${delimiter}`;
      let row = rows.get(key);
      if (row === undefined) {
        const line = lines[index] ?? '';
        const cells = line.trim() === '' ? undefined : readHeader(line, delimiter);
        const folded = cells?.map(fold);
        row =
          cells && folded
            ? { cells: cells.map((c) => c.trim()), folded, present: new Set(folded) }
            : null;
        rows.set(key, row);
      }
      return row ?? undefined;
    },
  };
}

/**
 * Whether `text` (LF line ends, no BOM; or its {@link FileHead}, to share one head between
 * definitions) is in the layout `recognise` describes with `delimiter`, and where its header row
 * is. Only the file's first 40 lines are read. Never throws.
 */
export function recognise(
  text: string | FileHead,
  recognition: Recognition,
  delimiter: ',' | ';' | '\t' | '|',
): Recognised | undefined {
  const head = typeof text === 'string' ? fileHead(text) : text;
  const candidates = recognition.preamble ? head.lines.length : 1;
  for (const d of [delimiter, ...(recognition.delimiters ?? [])]) {
    for (let i = 0; i < candidates; i++) {
      const row = head.row(i, d);
      if (row !== undefined && fits(row, recognition)) {
        return { headerLine: i + 1, delimiter: d, header: row.cells };
      }
    }
  }
  return undefined;
}

/** The names of a recognition folded once (definitions are immutable data). */
const foldedRecognitions = new WeakMap<
  Recognition,
  {
    readonly headers: readonly (readonly string[])[];
    readonly excludes: readonly string[];
    readonly positions: readonly (readonly [number, readonly string[]])[];
  }
>();

function foldedRecognition(recognition: Recognition) {
  let folded = foldedRecognitions.get(recognition);
  if (folded === undefined) {
    folded = {
      headers: recognition.headers.map((h) => (Array.isArray(h) ? h : [h]).map(fold)),
      excludes: (recognition.excludes ?? []).map(fold),
      positions: Object.entries(recognition.positions ?? {}).map(
        ([position, names]) => [Number(position), names.map(fold)] as const,
      ),
    };
    foldedRecognitions.set(recognition, folded);
  }
  return folded;
}

function fits(row: HeadRow, recognition: Recognition): boolean {
  if (recognition.minColumns !== undefined && row.cells.length < recognition.minColumns) {
    return false;
  }
  const { headers, excludes, positions } = foldedRecognition(recognition);
  if (!headers.every((alternatives) => alternatives.some((h) => row.present.has(h)))) return false;
  if (excludes.some((h) => row.present.has(h))) return false;
  return positions.every(([position, names]) => names.some((n) => row.folded[position] === n));
}

/**
 * The mapping of a definition with its column names resolved against a file's header (folded
 * match; `#n` positions kept; a name the header lacks is dropped, so its field reads empty) and
 * its header line set.
 */
export function resolveMapping(read: ColumnMapping, found: Recognised): ColumnMapping {
  const byFold = new Map<string, string>();
  for (const name of found.header) if (!byFold.has(fold(name))) byFold.set(fold(name), name);
  // `a|b`: the alternatives the header has (the engine reads the first not empty)
  const resolve = (column: string) => {
    if (/^#\d+$/.test(column)) return column;
    const names = column.split('|').flatMap((alt) => byFold.get(fold(alt)) ?? []);
    return names.length === 0 ? undefined : [...new Set(names)].join('|');
  };
  const columns: ColumnMapping['columns'] = {};
  for (const [field, column] of Object.entries(read.columns)) {
    const name = column === undefined ? undefined : resolve(column);
    if (name !== undefined) columns[field as keyof ColumnMapping['columns']] = name;
  }
  const skipRows = read.skipRows?.flatMap((rule) => {
    const column = resolve(rule.column);
    const and = rule.and?.map((c) => ({ ...c, column: resolve(c.column) }));
    if (column === undefined || and?.some((c) => c.column === undefined)) return [];
    return [
      { ...rule, column, ...(and ? { and: and as { column: string; pattern: string }[] } : {}) },
    ];
  });
  return {
    ...read,
    columns,
    delimiter: found.delimiter,
    headerLine: found.headerLine,
    ...(skipRows ? { skipRows } : {}),
  };
}

/** The reader of a recognised definition (the one engine: `mappedFormat`). */
export function definitionReader(
  definition: FormatDefinition,
  found: Recognised,
): BrokerFormatSpec {
  return mappedFormat(resolveMapping(definition.read, found));
}

/**
 * A draft definition from a confirmed or proposed column mapping of a file: recognised by the
 * file's header names (every non-empty one, folded), `source.kind` `draft` (or `user` once
 * confirmed), id from the header set's hash.
 */
export function draftDefinition(
  mapping: ColumnMapping,
  header: readonly string[],
  options: { label?: string; confirmed?: boolean } = {},
): FormatDefinition {
  const names = [...new Set(header.map((h) => h.trim()).filter((h) => fold(h) !== ''))];
  const digest = createHash('sha256').update(names.map(fold).sort().join('|')).digest('hex');
  const { headerLine, ...read } = mapping;
  return {
    id: `user-${digest.slice(0, 12)}`,
    label:
      options.label ?? `Columns ${names.slice(0, 4).join(', ')}${names.length > 4 ? ', …' : ''}`,
    version: 1,
    source: {
      kind: options.confirmed ? 'user' : 'draft',
      reference: options.confirmed
        ? 'confirmed by the user on a file of theirs'
        : 'proposed by the column mapper from one file; not confirmed',
    },
    recognise: {
      headers: names.length >= 2 ? names.slice(0, 40) : [...names, ...names].slice(0, 2),
      ...(headerLine !== undefined && headerLine > 1 ? { preamble: true } : {}),
    },
    read,
  };
}

/** A catalogue definition, its id kept as a literal type (for the `BrokerFormat` union). */
export function define<const Id extends string>(
  definition: FormatDefinition & { readonly id: Id },
): FormatDefinition & { readonly id: Id } {
  return definition;
}

/**
 * The column mapping a definition reads `text` with (names resolved against the file's header,
 * header line found), or `undefined` when the definition does not recognise the file: what the
 * checks of a user's definition (`checkMapping`) run on.
 */
export function definitionMapping(
  text: string,
  definition: FormatDefinition,
): ColumnMapping | undefined {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const found = recognise(normalized, definition.recognise, definition.read.delimiter);
  return found ? resolveMapping(definition.read, found) : undefined;
}
