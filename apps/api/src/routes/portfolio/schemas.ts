import { PortfolioId } from '@svc/schemas';
import {
  BROKER_FORMATS,
  BrokerImportOptions,
  ColumnMapping,
  StoredMapping,
  TransactionListQuery,
} from '@svc/use-cases';
import { z } from 'zod';

/** Path parameters of the routes under `/api/portfolios/{id}`. */
export const PortfolioParams = z.object({ id: PortfolioId });

/** Query of `GET /api/holdings` and `GET /api/cash`: one portfolio, or all of the user's. */
export const PortfolioFilterQuery = z.object({
  portfolioId: PortfolioId.optional().describe(
    'Only this portfolio (default: every portfolio of the user); another user’s answers 404',
  ),
});

/**
 * Query of `GET /api/transactions`: the use-case schema (`TransactionListQuery` of
 * `@svc/use-cases`: inclusive `from`/`to`, `limit` 1–100 default 50, `cursor`) with the
 * portfolio id checked as a UUID.
 */
export const TransactionsQuery = TransactionListQuery.extend({
  portfolioId: PortfolioFilterQuery.shape.portfolioId,
});

const Flag = z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true');

/** Query of `POST /api/portfolios/{id}/import` (the options of `BrokerImportOptions`). */
export const ImportQuery = z.object({
  format: z
    .enum(['auto', ...BROKER_FORMATS])
    .optional()
    .describe(
      `Layout of the file: auto (default: detected from the content), ${BROKER_FORMATS.join(', ')}`,
    ),
  dryRun: Flag.optional().describe(
    '1 or true: answer 200 with what the import would do (rows, holdings and cash after, skipped, adjusted and failing lines) and store nothing',
  ),
  oversell: BrokerImportOptions.shape.oversell.unwrap().optional(),
  accountCurrency: BrokerImportOptions.shape.accountCurrency,
  mapping: z
    .string()
    .max(4_000)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'mapping must be JSON (a ColumnMapping)' });
        return z.NEVER;
      }
    })
    .pipe(ColumnMapping)
    .optional()
    .describe(
      'A ColumnMapping as JSON, for a broker without a module: the dry run of such a file answers `proposal.mapping` to confirm or correct and send back here',
    ),
  previewToken: BrokerImportOptions.shape.previewToken,
  confirmMapping: Flag.optional().describe(
    '1 or true, on a real import with a saved definition: import even though a check of its result failed (`mappingChecks`); without it such an import answers 400 naming the failed checks and their questions. A file read with a given `mapping` is confirmed by its `previewToken` instead',
  ),
  saveMapping: Flag.optional().describe(
    '1 or true, with `mapping` on a real import: save the mapping for this header set (same column names, any order, case-insensitive); later files with these columns import without `mapping` (`savedMapping.used` says so). GET /api/import-mappings lists the saved ones.',
  ),
});

/** Path parameters of `DELETE /api/import-mappings/{id}`. */
export const ImportMappingParams = z.object({ id: z.uuid().describe('Saved mapping id') });

/** A saved column mapping, as listed. */
export const SavedImportMapping = z
  .object({
    id: z.string(),
    headers: z
      .array(z.string())
      .describe('The header names of the file it was saved from (trimmed, lower-cased)'),
    mapping: StoredMapping.nullable().describe(
      'The saved FormatDefinition (source `user`), or a ColumnMapping saved before definitions existed; null when the stored row is neither any more (see `unreadable`): delete it and save it again',
    ),
    unreadable: z
      .string()
      .optional()
      .describe('Why a stored mapping could not be read (only when `mapping` is null)'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SavedImportMapping' });

/** A `text/csv` import body: the broker export itself. */
export const CsvUpload = z
  .string()
  .min(1, 'the file is empty')
  .describe('The broker export, UTF-8 CSV with its header row (or Ghostfolio JSON)');

/**
 * A `multipart/form-data` import body: one part named `file` holding the CSV (other text fields
 * are ignored). The route reads the part itself; this schema documents it.
 */
export const MultipartUpload = z.object({
  file: z
    .string()
    .min(1)
    .meta({ format: 'binary', contentMediaType: 'text/csv' })
    .describe('The broker export, UTF-8 CSV with its header row (an empty file answers 400)'),
});

/**
 * The request headers of a conditional write (`PATCH`/`DELETE` of a transaction or a portfolio):
 * `If-Match` (RFC 9110 §13.1.1), optional.
 */
export const IfMatchHeaders = z.object({
  'if-match': z
    .string()
    .max(4096)
    .optional()
    .describe(
      'Optional. The `ETag` the client last read (several, comma-separated, or `*`): the write applies only while the resource still has one of them, else 412 `precondition_failed` and nothing is written',
    ),
});

/** What the description of a route answering an `ETag` says of it. */
export const ETAG_NOTE =
  'The answer carries an `ETag` (RFC 9110, a strong tag of the representation); send it back as `If-Match` on `PATCH`/`DELETE` to write only while it is unchanged.';
