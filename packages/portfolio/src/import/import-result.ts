import type { NewTransaction } from '../transaction.js';
import { CATALOGUE_IDS, type CatalogueId } from './definitions/catalogue/index.js';
import type { MappingProposal } from './mapping.js';

// What reading a broker file answers, apart from the reading itself (parse-broker-csv.ts), so that
// the readers and the proposal's checks share it without importing each other.

/**
 * Broker export layouts `parseBrokerCsv` reads: every format of the catalogue
 * (`definitions/catalogue/`, in its order), Ghostfolio's JSON export (`ghostfolio-json`), and
 * `mapped` (a column mapping or a user's own definition).
 */
export const BROKER_FORMATS = [
  ...CATALOGUE_IDS,
  'ghostfolio-json',
  'mapped',
] as unknown as readonly [
  CatalogueId | 'ghostfolio-json' | 'mapped',
  ...(CatalogueId | 'ghostfolio-json' | 'mapped')[],
];
/** One of {@link BROKER_FORMATS}. */
export type BrokerFormat = (typeof BROKER_FORMATS)[number];

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

/**
 * One transaction read from the file: the validated transaction, the 1-based `line` of its row,
 * its position `index` among the transactions of that row, the broker's own id of the row when
 * the file has one (`externalId`), the instrument name the file gives (`name`) and the
 * instrument's ISIN and ticker when the file gives them (`isin`, `ticker`; see `RowMeta`).
 */
export interface ImportedRow {
  readonly line: number;
  readonly index: number;
  readonly transaction: NewTransaction;
  readonly externalId?: string;
  readonly name?: string;
  /** The instrument's ISIN as the file gives it (beside the recorded symbol). */
  readonly isin?: string;
  /** The instrument's ticker as the file gives it (beside the recorded symbol). */
  readonly ticker?: string;
}

/** A problem or note about one line of the file. `line` is 1-based; 0 means the whole file. */
export interface ImportIssue {
  readonly line: number;
  readonly message: string;
}

/**
 * Result of `parseBrokerCsv`. On success, `skipped` lists rows deliberately left out (no
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
      /** The user's own definition the file was read with (format `mapped`), if one was. */
      readonly definitionId?: string;
    }
  | {
      readonly ok: false;
      readonly format?: BrokerFormat;
      readonly errors: ImportIssue[];
      /** When no format matched: a column mapping proposed from the header and values. */
      readonly proposal?: MappingProposal;
    };
