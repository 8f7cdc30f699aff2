import {
  InstrumentAssignment,
  InstrumentAssignmentResult,
  InstrumentSymbol,
  PortfolioId,
} from '@svc/schemas';
import {
  ChangeListQuery,
  PortfolioChange,
  PortfolioChangePage,
  Transaction,
  TransactionPatch,
  transactionTag,
} from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { ETAG_NOTE, IfMatchHeaders, PortfolioParams } from './schemas.js';

const TAGS = ['portfolio'];
const TransactionParams = PortfolioParams.extend({
  transactionId: PortfolioId.describe('A transaction id of the portfolio'),
});
const ChangeParams = PortfolioParams.extend({
  changeId: PortfolioId.describe('A change id of the portfolio'),
});
const InstrumentParams = PortfolioParams.extend({
  symbol: InstrumentSymbol.describe('The symbol the portfolio holds the instrument under'),
});
/** `ChangeListQuery` without its schema id: OpenAPI query parameters cannot be a `$ref`. */
const Query = z.object(ChangeListQuery.shape);
const LEDGER_RULE =
  'Checked as recording is: a sale beyond the units held at its moment answers 409 `conflict` with `transactions` (the sale) and changes nothing. Holdings and cash are re-derived and revalued before the answer; every read sees the change at once, on every process.';

/**
 * The corrections of a portfolio's ledger (CONTRACT §6), registered under `/api`; every route
 * needs the session cookie; another user's portfolio, transaction or change answers 404.
 *
 * - `GET /portfolios/{id}/transactions/{transactionId}` (200 the transaction, with its `ETag`),
 * - `PATCH /portfolios/{id}/transactions/{transactionId}` (200 the transaction, `ETag`;
 *   `If-Match` honoured: 412),
 * - `DELETE /portfolios/{id}/transactions/{transactionId}` (204; `If-Match` honoured: 412),
 * - `GET /portfolios/{id}/changes?cursor=&limit=` (newest first),
 * - `POST /portfolios/{id}/changes/{changeId}/revert` (201 the new `revert` change),
 * - `PUT /portfolios/{id}/instruments/{symbol}` (200: the user's correction of an instrument's
 *   resolution, issue 38; an `edit` change of every transaction of the symbol).
 */
export const changeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { portfolios } = app.portfolio;
  app.get('/portfolios/:id/transactions/:transactionId', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'One transaction of a portfolio, with its ETag',
      description: ETAG_NOTE,
      params: TransactionParams,
      response: { 200: jsonResponse('The transaction', Transaction), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      const { id, transactionId } = request.params;
      const found = await portfolios.getTransaction(currentUser(request).id, id, transactionId);
      return reply.header('etag', transactionTag(found)).send(found);
    },
  });

  app.patch('/portfolios/:id/transactions/:transactionId', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Edit a transaction (journalled; a revert restores the old values)',
      description: `Any fields of the transaction; null removes an optional one (\`note\`, \`fee\`). The result must be a valid transaction of its type (400 otherwise). ${LEDGER_RULE} ${ETAG_NOTE}`,
      params: TransactionParams,
      headers: IfMatchHeaders,
      body: TransactionPatch,
      response: {
        200: jsonResponse('The edited transaction', Transaction),
        ...errorResponses(404, 409, 412, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const { id, transactionId } = request.params;
      const ifMatch = request.headers['if-match'];
      const edited = await portfolios.editTransaction(
        currentUser(request).id,
        id,
        transactionId,
        request.body,
        ifMatch === undefined ? {} : { ifMatch },
      );
      return reply.header('etag', transactionTag(edited)).send(edited);
    },
  });

  app.delete('/portfolios/:id/transactions/:transactionId', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Delete a transaction (journalled; a revert brings it back with its id)',
      description: `${LEDGER_RULE} With \`If-Match\`, only while the transaction still has that \`ETag\` (412 otherwise).`,
      params: TransactionParams,
      headers: IfMatchHeaders,
      response: { 204: z.undefined().describe('Deleted'), ...errorResponses(404, 409, 412) },
    },
    handler: async (request, reply) => {
      const { id, transactionId } = request.params;
      const ifMatch = request.headers['if-match'];
      await portfolios.deleteTransaction(
        currentUser(request).id,
        id,
        transactionId,
        ifMatch === undefined ? {} : { ifMatch },
      );
      return reply.code(204).send();
    },
  });

  app.get('/portfolios/:id/changes', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'The changes of a portfolio’s ledger, newest first',
      description:
        'Every write to the ledger is a change: `record`, `edit`, `delete`, `import`, `revert` (more may follow), with its `source` (`rest`, `advisor`, `account-import`). Pass `nextCursor` as `cursor` for the next page.',
      params: PortfolioParams,
      querystring: Query,
      response: {
        200: jsonResponse('A page of changes', PortfolioChangePage),
        ...errorResponses(404),
      },
    },
    handler: async (request) =>
      portfolios.listChanges(currentUser(request).id, request.params.id, request.query),
  });

  app.post('/portfolios/:id/changes/:changeId/revert', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Revert a change; the revert is a new change',
      description:
        'Puts back every transaction the change touched as it was before it: an import’s rows (only those) are removed, an edit’s old values return, a deleted transaction comes back with its id. 409 `conflict` when it was already reverted, or when later changes depend on it (`changes` lists them, `transactions` the rows), or when the ledger would break (a later sale needs the units: `transactions` the sale, `changes` what wrote it); nothing changes then.',
      params: ChangeParams,
      response: {
        201: jsonResponse('The new revert change', PortfolioChange),
        ...errorResponses(404, 409),
      },
    },
    handler: async (request, reply) => {
      const { id, changeId } = request.params;
      const change = await portfolios.revertChange(currentUser(request).id, id, changeId);
      return reply.code(201).send(change);
    },
  });

  app.put('/portfolios/:id/instruments/:symbol', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Correct what an instrument is (journalled; a revert undoes it)',
      description: `Assigns the instrument the portfolio holds under \`symbol\` to the listing the body names (a \`ticker\` and/or an \`isin\`; \`mic\`, \`currency\`, \`name\`, \`kind\`, \`cik\` optional, the rest kept): every transaction of the symbol gets the instrument (resolution \`user\`) and its symbol (the ticker when given), so a holding the user says is another one merges with it. One \`edit\` change in the journal. The user's later imports and records of the same ISIN or symbol take the assignment. ${LEDGER_RULE}`,
      params: InstrumentParams,
      body: InstrumentAssignment,
      response: {
        200: jsonResponse('What the assignment changed', InstrumentAssignmentResult),
        ...errorResponses(404, 409, 413, 415),
      },
    },
    handler: async (request) => {
      const { id, symbol } = request.params;
      return portfolios.assignInstrument(currentUser(request).id, id, symbol, request.body);
    },
  });
};
