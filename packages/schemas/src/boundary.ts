import { z } from 'zod';
import { MoatEvaluation } from './moat-evaluation.js';

/**
 * A portfolio id as every interface accepts it: a UUID (the store's primary key). Another user's
 * portfolio answers `not_found`; anything that is not a UUID is `validation_failed`.
 */
export const PortfolioId = z
  .uuid()
  .describe('Portfolio id (a UUID; another user’s answers not_found)');

/**
 * One character that is not white space: the characters `String.prototype.trim` removes
 * (ECMA-262 WhiteSpace and LineTerminator), spelled out rather than `\S` so that the document's
 * `pattern` means the same in every regular-expression dialect a client or a fuzzer reads it with
 * (Python's `\s`, say, differs from ECMAScript's on U+FEFF and U+001C–U+001F).
 */
export const NOT_BLANK =
  /[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** A portfolio id (see {@link PortfolioId}). */
export type PortfolioId = z.infer<typeof PortfolioId>;

/** A filing behind the figures of an evaluation (extension field `_filings`). */
export const FilingReference = z
  .object({
    form: z.string().describe('SEC form type, e.g. 10-K'),
    accession: z.string().describe('SEC accession number'),
    filed: z.string().describe('Filing date, YYYY-MM-DD'),
    fiscalYears: z.array(z.number().int()).describe('Fiscal years with figures from this filing'),
  })
  .meta({ id: 'FilingReference' });

/**
 * An evaluation as the service serves it (`GET /api/stock-evaluation`, MCP `getMoatEvaluation`):
 * the {@link MoatEvaluation} of interface spec 2.1 with `_cached`/`_cachedAt` always set, and the
 * extension fields the evaluation flow adds. Unknown extension fields (underscore-prefixed) pass
 * through. Named `StockEvaluation` in the OpenAPI document.
 */
export const ServedEvaluation = MoatEvaluation.extend({
  _cached: z.boolean().describe('true when served from the evaluation cache'),
  _cachedAt: z.string().describe('ISO 8601 instant the evaluation was stored in the cache'),
  _evaluatedAt: z.string().optional().describe('ISO 8601 instant the evaluation was computed'),
  _fiscalYears: z
    .array(z.number().int())
    .optional()
    .describe('Fiscal years scored, oldest first (extension)'),
  _provider: z
    .string()
    .optional()
    .describe('Fundamentals provider the server used: sec-edgar, snapshot or simfin (extension)'),
  _filings: z
    .array(FilingReference)
    .optional()
    .describe('Filings behind the figures used, newest first (extension)'),
  _marketCap: z
    .number()
    .nullable()
    .optional()
    .describe('Price × shares outstanding in the reporting currency; null without a price'),
  _currency: z.string().optional().describe('Reporting currency, ISO 4217 (extension)'),
  _reconciliation: z
    .object({
      provider: z.string().describe('The second provider: simfin, sec-edgar or snapshot'),
      status: z
        .enum(['compared', 'unavailable'])
        .describe(
          'compared: its figures were reconciled (disagreements are provider_mismatch flags); unavailable: it had no figures for the company or failed, and the evaluation rests on one provider',
        ),
      detail: z.string().optional().describe('Why it is unavailable'),
    })
    .nullable()
    .optional()
    .describe(
      'The second fundamentals provider the evaluation was reconciled with (RECONCILE_PROVIDER, issue 39); null when none is configured (extension)',
    ),
}).meta({
  id: 'StockEvaluation',
  description:
    'A MoatEvaluation as served by GET /api/stock-evaluation and the MCP tool getMoatEvaluation, with its cache fields and extension fields (underscore-prefixed)',
});

/** An evaluation as served (see {@link ServedEvaluation}). */
export type ServedEvaluation = z.infer<typeof ServedEvaluation>;
