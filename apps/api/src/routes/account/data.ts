import {
  ACCOUNT_EXPORT_FORMATS,
  AccountExport,
  AccountImportInput,
  AccountImportResult,
  GhostfolioExport,
  MAX_IMPORTED_TRANSACTIONS,
  MAX_PORTFOLIOS_PER_ACCOUNT,
} from '@svc/use-cases';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie } from '../../auth/cookies.js';
import { jsonResponse, OPENAPI_VERSION } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { ApiError, errorResponses } from '../../problem.js';
import { EraseAccountBody } from '../../schemas/account.js';

/**
 * Largest accepted body of `POST /api/account/import`, bytes (64 MiB; 413 `payload_too_large`
 * beyond): room for the most transactions an import takes (100,000 at ~300 bytes each) and the
 * reports (~10 kB each).
 */
export const ACCOUNT_IMPORT_BODY_LIMIT_BYTES = 67_108_864;

const ExportQuery = z.object({
  format: z
    .enum(ACCOUNT_EXPORT_FORMATS)
    .default('native')
    .describe(
      "`native` (default): this service's own document, which the import reads; `ghostfolio`: Ghostfolio's export shape",
    ),
});

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * The signed-in user's whole account (CONTRACT §6), registered under `/api/account`: export it
 * (`GET /export`), import a native export (`POST /import`), erase it (`DELETE`).
 */
export const accountDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accountData } = app.portfolio;

  app.get('/export', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Export the whole account as a JSON download',
      description:
        'CONTRACT §6. `format=native` (default): `AccountExport`, every portfolio with every ' +
        'transaction (oldest first), saved reports with their evaluations, saved column mappings ' +
        'and the metadata of the personal access tokens (never a secret or hash), taken as one ' +
        'consistent snapshot; `POST /api/account/import` reads it back into any account. ' +
        "`format=ghostfolio`: `GhostfolioExport`, Ghostfolio's own export shape (`meta`, " +
        '`accounts`, `activities`, …) for its import: one account per portfolio, buys, sells, ' +
        'dividends and fees as activities; deposits and withdrawals only as the account balance ' +
        'and splits left out (Ghostfolio has no activity types for them). Answered with ' +
        '`Content-Disposition: attachment`.',
      querystring: ExportQuery,
      response: {
        200: jsonResponse(
          'The export (AccountExport or GhostfolioExport by `format`)',
          z.union([AccountExport, GhostfolioExport]),
        ),
      },
    },
    handler: async (request, reply) => {
      const { format } = request.query;
      const document = await accountData.exportAccount(currentUser(request), {
        format,
        version: OPENAPI_VERSION,
      });
      const day = app.clock().toISOString().slice(0, 10);
      const name = format === 'native' ? 'moat-portfolio-export' : 'ghostfolio-export';
      return reply
        .header('content-disposition', `attachment; filename="${name}-${day}.json"`)
        .header('cache-control', 'no-store')
        .send(document);
    },
  });

  app.post('/import', {
    config: { auth: 'session' },
    bodyLimit: ACCOUNT_IMPORT_BODY_LIMIT_BYTES,
    schema: {
      tags: ['account'],
      summary: 'Import a native export into this account',
      description:
        'CONTRACT §6. Reads an `AccountExport` (`format=native`; its `user` and `tokens` are ' +
        'ignored: no token is created, a secret is never exported) into the signed-in account, ' +
        'beside what is there: every portfolio, transaction, report and column mapping is created ' +
        'anew with new ids (portfolios and reports keep their `createdAt`; a mapping replaces ' +
        'this account’s mapping of the same header set). Holdings and cash are derived from the ' +
        'transactions and valued now, so holdings, cash, returns and reports equal the exported ' +
        'account’s. All or nothing, in one database transaction: every transaction is checked ' +
        'as when it is recorded (a sale beyond the units held is refused), every report must be ' +
        'a MoatEvaluation, and a failure names its path in the document (400 ' +
        `\`validation_failed\`). At most ${MAX_IMPORTED_TRANSACTIONS.toLocaleString('en')} ` +
        'transactions; bodies above 64 MiB answer 413. An account holds at most ' +
        `${MAX_PORTFOLIOS_PER_ACCOUNT} portfolios: an import that would pass it answers 409 ` +
        '`conflict`, nothing written. Importing the same export twice creates nothing the second ' +
        'time: a portfolio of the document that this account already holds (same name, base ' +
        'currency and creation instant) answers 409 `conflict` naming it.',
      body: AccountImportInput,
      response: {
        201: jsonResponse(
          'How many portfolios, transactions and reports were created',
          AccountImportResult,
        ),
        ...errorResponses(409, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const counts = await accountData.importAccount(currentUser(request).id, request.body);
      return reply.code(201).send(counts);
    },
  });

  app.delete('', {
    config: { auth: 'session' },
    preValidation: requireEraseBody,
    schema: {
      tags: ['account'],
      summary: 'Erase the account and everything in it',
      description:
        'CONTRACT §6. Deletes the user and every row that names them (sessions, personal access ' +
        'tokens and their recorded calls, portfolios with their transactions, positions and ' +
        'changes, saved reports, advisor proposals, quota usage, column mappings) in one database ' +
        'transaction, and the rate-limit counters kept for them; every session and token stops ' +
        'working at once on every server process. Take an export first: it is the last copy. ' +
        'An account with a password confirms with `password` (403 `forbidden` when wrong, 400 when ' +
        'absent; a request without a body is 400 saying which body to send); ' +
        'an account without one (OIDC) sends `{}` and needs a sign-in in the last 10 minutes, else 403 ' +
        '`reauthentication_required`: sign in again and repeat. The session cookie is cleared.',
      body: EraseAccountBody,
      response: {
        204: z.undefined().describe('Erased'),
        ...errorResponses(401, 403, 413, 415, 429),
      },
    },
    handler: async (request, reply) => {
      const auth = request.account;
      if (!auth) throw new ApiError('unauthorized', 'Sign in first: no valid session.');
      await app.accountLifecycle.erase(auth, request.body, clientOf(request));
      clearSessionCookie(reply, app.config.cookieSecure);
      return reply.code(204).send();
    },
  });
};

/** What `DELETE /api/account` wants as its body, said when it has none. */
const ERASE_BODY_HINT =
  'Send a JSON body (Content-Type: application/json): {"password": "…"} for an account with a ' +
  'password, {} for one that signs in with an identity provider.';

/**
 * `DELETE /api/account` without a body: 400 naming the body to send, rather than the schema's
 * "expected object, received null".
 */
async function requireEraseBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) {
    throw new ApiError('validation_failed', ERASE_BODY_HINT, {
      errors: [{ path: 'body', message: 'required: {"password": "…"} or {}' }],
    });
  }
}
