import { mapperAnswers } from '@svc/service';
import {
  CashPosition,
  CreatePortfolioInput,
  Holding,
  MAX_PORTFOLIOS_PER_ACCOUNT,
  NewTransaction,
  Portfolio,
  portfolioTag,
  RenamePortfolioInput,
  RevaluationResult,
  Transaction,
  TransactionPage,
  transactionTag,
} from '@svc/use-cases';
import { type FastifyPluginAsyncZod, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { changeRoutes } from './changes.js';
import { brokerImportRoute } from './import.js';
import { performanceRoutes } from './performance.js';
import {
  ETAG_NOTE,
  IfMatchHeaders,
  ImportMappingParams,
  PortfolioFilterQuery,
  PortfolioParams,
  SavedImportMapping,
  TransactionsQuery,
} from './schemas.js';

/**
 * The serializer of the read routes below: their answers come from the flow's mappers, which
 * answer exactly the contract's schemas, so a 200 is written without a second zod pass (most of
 * a holdings read's CPU); problems are serialized as on every other route.
 */
const MAPPER_ANSWERS = mapperAnswers(serializerCompiler);

const TAGS = ['portfolio'];

/**
 * The portfolio REST routes (interface spec 4.4, CONTRACT §4), registered under `/api`; every
 * route needs the session cookie and reads or changes only the signed-in user's rows (another
 * user's portfolio answers 404 like a missing one). Handlers call one flow method each.
 *
 * - `GET /portfolios`, `POST /portfolios`, `PATCH /portfolios/{id}`, `DELETE /portfolios/{id}`;
 * - `GET /holdings?portfolioId=`, `GET /cash?portfolioId=` (stored values, never fetched);
 * - `GET /transactions?portfolioId=&from=&to=&limit=&cursor=` (keyset pages, newest first);
 * - `POST /portfolios/{id}/transactions`, `POST /portfolios/{id}/import` (see
 *   {@link brokerImportRoute}), `POST /portfolios/{id}/revalue`;
 * - `GET /portfolios/{id}/performance`, `GET /portfolios/{id}/holdings/{symbol}/performance`
 *   (see {@link performanceRoutes});
 * - `PATCH`/`DELETE /portfolios/{id}/transactions/{transactionId}`, `GET /portfolios/{id}/changes`,
 *   `POST /portfolios/{id}/changes/{changeId}/revert` (see {@link changeRoutes}).
 */
export const portfolioRoutes: FastifyPluginAsyncZod = async (app) => {
  const { portfolios } = app.portfolio;

  app.get('/portfolios', {
    config: { auth: 'session' },
    serializerCompiler: MAPPER_ANSWERS,
    schema: {
      tags: TAGS,
      summary: "List the user's portfolios, oldest first",
      response: { 200: jsonResponse('The portfolios', z.array(Portfolio)) },
    },
    handler: async (request) => portfolios.listPortfolios(currentUser(request).id),
  });

  app.post('/portfolios', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Create a portfolio',
      description:
        '`baseCurrency` defaults to EUR; stored values are in EUR regardless. An account holds ' +
        `at most ${MAX_PORTFOLIOS_PER_ACCOUNT} portfolios (as many as an account import takes): ` +
        `past it, 409 \`conflict\`. ${ETAG_NOTE}`,
      body: CreatePortfolioInput,
      response: {
        201: jsonResponse('The new portfolio', Portfolio),
        ...errorResponses(409, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const created = await portfolios.createPortfolio(currentUser(request).id, request.body);
      return reply.code(201).header('etag', portfolioTag(created)).send(created);
    },
  });

  app.get('/portfolios/:id', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'One portfolio, with its ETag',
      description: ETAG_NOTE,
      params: PortfolioParams,
      response: { 200: jsonResponse('The portfolio', Portfolio), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      const found = await portfolios.getPortfolio(currentUser(request).id, request.params.id);
      return reply.header('etag', portfolioTag(found)).send(found);
    },
  });

  app.patch('/portfolios/:id', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Rename a portfolio',
      description: ETAG_NOTE,
      params: PortfolioParams,
      headers: IfMatchHeaders,
      body: RenamePortfolioInput,
      response: {
        200: jsonResponse('The renamed portfolio', Portfolio),
        ...errorResponses(404, 412, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const ifMatch = request.headers['if-match'];
      const renamed = await portfolios.renamePortfolio(
        currentUser(request).id,
        request.params.id,
        request.body.name,
        ifMatch === undefined ? {} : { ifMatch },
      );
      return reply.header('etag', portfolioTag(renamed)).send(renamed);
    },
  });

  app.delete('/portfolios/:id', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Delete a portfolio with its transactions, positions and changes',
      description:
        'CONTRACT §6. Everything that follows from the portfolio or hangs off it goes with it, at ' +
        'once for every reader on every process: transactions, holdings, cash positions and its ' +
        'change journal. Column mappings saved for broker files belong to the account (they are ' +
        "keyed by a file's header set, not by a portfolio) and stay; delete them with " +
        '`DELETE /api/import-mappings/{id}`. A write in progress on the portfolio (an ' +
        "import) finishes first. Another user's portfolio answers 404. With `If-Match`, only " +
        'while the portfolio still has that `ETag` (412 otherwise).',
      params: PortfolioParams,
      headers: IfMatchHeaders,
      response: { 204: z.undefined().describe('Deleted'), ...errorResponses(404, 412) },
    },
    handler: async (request, reply) => {
      const ifMatch = request.headers['if-match'];
      await portfolios.deletePortfolio(
        currentUser(request).id,
        request.params.id,
        ifMatch === undefined ? {} : { ifMatch },
      );
      return reply.code(204).send();
    },
  });

  app.get('/holdings', {
    config: { auth: 'session' },
    serializerCompiler: MAPPER_ANSWERS,
    schema: {
      tags: TAGS,
      summary: 'List holdings with their stored EUR values',
      description:
        'Values as of the last revaluation (`valuedAt`); reading never fetches prices. Value fields are null, never 0, when a quote or FX rate was missing. `weight` is a fraction of the portfolio’s gross EUR value (valued holdings + positive cash).',
      querystring: PortfolioFilterQuery,
      response: {
        200: jsonResponse('The holdings, by portfolio then symbol', z.array(Holding)),
        ...errorResponses(404),
      },
    },
    handler: async (request) => portfolios.listHoldings(currentUser(request).id, request.query),
  });

  app.get('/cash', {
    config: { auth: 'session' },
    serializerCompiler: MAPPER_ANSWERS,
    schema: {
      tags: TAGS,
      summary: 'List cash positions with their stored EUR values',
      description:
        'Not in the interface spec’s route list: the REST twin of the MCP tool `listCash`, served by the same flow. Balances follow from the transactions and may be negative.',
      querystring: PortfolioFilterQuery,
      response: {
        200: jsonResponse('The cash positions', z.array(CashPosition)),
        ...errorResponses(404),
      },
    },
    handler: async (request) => portfolios.listCash(currentUser(request).id, request.query),
  });

  app.get('/transactions', {
    config: { auth: 'session' },
    serializerCompiler: MAPPER_ANSWERS,
    schema: {
      tags: TAGS,
      summary: 'List transactions, newest first, one keyset page at a time',
      description:
        '`from` and `to` are inclusive (a bare day covers the whole UTC day); pass `nextCursor` as `cursor` for the next page.',
      querystring: TransactionsQuery,
      response: {
        200: jsonResponse('A page of transactions', TransactionPage),
        ...errorResponses(404),
      },
    },
    handler: async (request) => portfolios.listTransactions(currentUser(request).id, request.query),
  });

  app.post('/portfolios/:id/transactions', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Record a transaction; holdings and cash are re-derived and revalued',
      description:
        'Required fields depend on `type`. A sell of more units than held at that moment, or a symbol already held in another currency, answers 400 and stores nothing.',
      params: PortfolioParams,
      body: NewTransaction,
      response: {
        201: jsonResponse('The recorded transaction', Transaction),
        ...errorResponses(404, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const recorded = await portfolios.recordTransaction(
        currentUser(request).id,
        id,
        request.body,
      );
      return reply.code(201).header('etag', transactionTag(recorded)).send(recorded);
    },
  });

  app.post('/portfolios/:id/revalue', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Re-derive and revalue a portfolio in EUR now, and store the values',
      description:
        'Quotes for today (UTC) and ECB reference rates; a cached value up to 7 days old stands in when a provider fails. Positions that cannot be valued are stored with null values and listed in `issues`.',
      params: PortfolioParams,
      response: {
        200: jsonResponse('The values now stored', RevaluationResult),
        ...errorResponses(404),
      },
    },
    handler: async (request) => portfolios.revalue(currentUser(request).id, request.params.id),
  });

  await app.register(brokerImportRoute);
  await app.register(performanceRoutes);
  await app.register(changeRoutes);

  app.get('/import-mappings', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'The column mappings the user saved for broker files, newest first',
      description:
        'Saved by an import with `mapping` and `saveMapping=1`; a later file with the same header set (column names, any order, case-insensitive) that no built-in format reads is imported with its saved mapping. A stored mapping that is no longer valid is listed with `mapping: null` and `unreadable` (and never used): delete it.',
      response: { 200: jsonResponse('The saved mappings', z.array(SavedImportMapping)) },
    },
    handler: async (request) =>
      (await portfolios.listImportMappings(currentUser(request).id)).map(
        ({ headerKey: _key, ...saved }) => saved,
      ),
  });

  app.delete('/import-mappings/:id', {
    config: { auth: 'session' },
    schema: {
      tags: TAGS,
      summary: 'Delete a saved column mapping',
      params: ImportMappingParams,
      response: { 204: z.undefined().describe('Deleted'), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await portfolios.deleteImportMapping(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  });
};
