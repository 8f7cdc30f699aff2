import multipart from '@fastify/multipart';
import type { SwaggerTransform } from '@fastify/swagger';
import { badText } from '@svc/service';
import {
  BROKER_FORMAT_LABELS,
  DEFAULT_IMPORT_LIMITS,
  decodeBrokerFile,
  ImportResult,
} from '@svc/use-cases';
import type { FastifyRequest } from 'fastify';
import { type FastifyPluginAsyncZod, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { ApiError, errorResponses } from '../../problem.js';
import { CsvUpload, ImportQuery, MultipartUpload, PortfolioParams } from './schemas.js';

/**
 * Largest broker CSV accepted, bytes: the importer's own limit (`DEFAULT_IMPORT_LIMITS.maxBytes`
 * of `@svc/portfolio`, 2 000 000 bytes; it also stops at 10 000 rows). Beyond it the import
 * answers 413 `payload_too_large`, for a `text/csv` body and for a multipart `file` alike.
 */
export const IMPORT_LIMIT_BYTES = DEFAULT_IMPORT_LIMITS.maxBytes;

/**
 * The media types of an import body, each with the zod schema that documents it. Fastify
 * validates the `text/csv` body with its schema; a multipart body is not parsed into fields, so
 * {@link readUpload} enforces its schema (one non-empty part named `file`).
 */
const UPLOAD_MEDIA = {
  'text/csv': CsvUpload,
  'application/json': CsvUpload,
  'multipart/form-data': MultipartUpload,
} as const;

/**
 * OpenAPI of the import: the zod transform for params, query and responses, plus a request body
 * with one schema per media type (the zod transform only knows single-schema bodies).
 */
const documentUpload: SwaggerTransform = (document) => {
  const { body: _body, ...schema } = document.schema;
  const transformed = (jsonSchemaTransform as unknown as SwaggerTransform)({ ...document, schema });
  const content = Object.fromEntries(
    Object.entries(UPLOAD_MEDIA).map(([media, zodSchema]) => {
      const { $schema: _, ...json } = z.toJSONSchema(zodSchema, { io: 'input' });
      return [media, { schema: json }];
    }),
  );
  return { ...transformed, schema: { ...transformed.schema, body: { content } } };
};

/**
 * `POST /portfolios/{id}/import`: a broker export (every format of `BROKER_FORMATS`), sent as a
 * `text/csv` or `application/json` body or as `multipart/form-data` with a part named `file`
 * (`@fastify/multipart`, one file, size-limited). All rows or none are stored, with the derived
 * holdings and cash, in one database transaction; a failing row answers 400 `validation_failed`
 * with `errors: [{ path: 'line N', message }]`. Answers 201 ImportResult, or 200 with
 * `?dryRun=1` (nothing stored). The body parsers and the multipart plugin are registered in this
 * plugin's scope only.
 */
export const brokerImportRoute: FastifyPluginAsyncZod = async (app) => {
  const limit = IMPORT_LIMIT_BYTES;
  // read as bytes: a broker's CSV may be UTF-16 or Windows-1252 (decodeBrokerFile)
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'buffer', bodyLimit: limit },
    (_request, body, done) => done(null, decodeBrokerFile(body as Buffer)),
  );
  // a Ghostfolio JSON export is read as text by the importer (lines are reported), in this
  // plugin's scope only: every other route keeps Fastify's JSON parser
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: limit },
    (_request, body, done) => done(null, body),
  );
  await app.register(multipart, {
    limits: { fileSize: limit, files: 1, fields: 10, parts: 11 },
    throwFileSizeLimit: true,
  });

  app.post('/portfolios/:id/import', {
    config: { auth: 'session', swaggerTransform: documentUpload },
    bodyLimit: limit,
    schema: {
      tags: ['portfolio'],
      summary: 'Import a broker export (all rows or none, idempotent); holdings are re-derived',
      description: `Send the file as \`text/csv\` (a Ghostfolio JSON export as \`application/json\`) or as \`multipart/form-data\` with a part named \`file\`, at most ${limit} bytes (413 beyond) and 10 000 rows. The layout is detected from the content unless \`format\` says otherwise (${Object.values(BROKER_FORMAT_LABELS).join(', ')}); each format is a definition of the catalogue (\`definition\` names the one used). A file no definition recognises is never imported on a guess: its dry run previews a \`proposal\` (a column mapping: header row below a preamble, columns chosen by header words of eleven languages and by their values, with each field's confidence and evidence and the questions it asks, \`needs\`), with the holdings, cash, \`counts\` per type and skipped rows that confirming it would produce, and a \`previewToken\`; a real import sends the mapping back as \`mapping\` with that \`previewToken\` (400 without it, or when the file, mapping, options or the portfolio's ledger changed since). The proposal's own import is checked (\`proposal.checks\`, \`mappingChecks\`: rows it cannot read, rows skipped or read as cash that move units, mixed signs, trades counted twice, quantity × price against the amount, positions below 0); a failed check stays a question: 400 naming it until the mapping is corrected or \`confirmMapping=1\`. \`saveMapping=1\` keeps the confirmed mapping as the user's own definition. UTF-8, UTF-16 and Windows-1252 files are read. Rows apply in execution order. A failing row rejects the file: 400 with \`errors: [{ path: "line N", message }]\` and nothing stored. Transactions already imported (same fingerprint) are not stored again and are counted in \`alreadyPresent\`. Rows left out are listed in \`skipped\`, rows adjusted (a sale of units not held) in \`warnings\`. With \`dryRun=1\` the answer is 200 and nothing is stored; failing rows are then listed in \`failed\`.`,
      params: PortfolioParams,
      querystring: ImportQuery,
      body: { content: { 'text/csv': { schema: CsvUpload } } },
      response: {
        200: jsonResponse('What the import would store (dryRun)', ImportResult),
        201: jsonResponse('What the import stored', ImportResult),
        ...errorResponses(404, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const text = await readUpload(request);
      const {
        format,
        dryRun,
        oversell,
        accountCurrency,
        mapping,
        saveMapping,
        confirmMapping,
        previewToken,
      } = request.query;
      const result = await app.portfolio.portfolios.importBrokerCsv(
        currentUser(request).id,
        request.params.id,
        text,
        {
          ...(format === undefined ? {} : { format }),
          ...(dryRun === undefined ? {} : { dryRun }),
          ...(oversell === undefined ? {} : { oversell }),
          ...(accountCurrency === undefined ? {} : { accountCurrency }),
          ...(mapping === undefined ? {} : { mapping }),
          ...(saveMapping === undefined ? {} : { saveMapping }),
          ...(confirmMapping === undefined ? {} : { confirmMapping }),
          ...(previewToken === undefined ? {} : { previewToken }),
        },
      );
      return reply.code(result.dryRun ? 200 : 201).send(result);
    },
  });
};

/**
 * The CSV text of an import request: the `file` part of a multipart body, or a `text/csv` body.
 * @throws {ApiError} `validation_failed` without a non-empty `file` part, `unsupported_media_type`
 *   for any other body; the multipart plugin throws 413 beyond the size limit.
 */
async function readUpload(request: FastifyRequest): Promise<string> {
  if (typeof request.body === 'string') return request.body;
  if (!request.isMultipart()) {
    throw new ApiError(
      'unsupported_media_type',
      'Send the CSV as text/csv or as multipart/form-data with a part named "file".',
    );
  }
  const part = await request.file();
  if (part?.fieldname !== 'file') {
    part?.file.resume();
    throw missingFile('a part named "file" is required');
  }
  const text = decodeBrokerFile(await part.toBuffer());
  if (text.length === 0) throw missingFile('the file is empty');
  // The same refusal as every other text input (input-guard): a NUL would reach PostgreSQL.
  const bad = badText(text);
  if (bad !== undefined) {
    throw new ApiError('validation_failed', `The file holds text that is refused: ${bad}.`, {
      errors: [{ path: 'body.file', message: bad }],
    });
  }
  return text;
}

function missingFile(message: string): ApiError {
  return new ApiError('validation_failed', 'The upload has no CSV file.', {
    errors: [{ path: 'body.file', message }],
  });
}
