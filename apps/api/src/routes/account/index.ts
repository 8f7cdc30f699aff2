import { DEFAULT_TOKEN_SCOPES, READ_ONLY_TOKEN_SCOPES } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import {
  MintedToken,
  MintTokenBody,
  TokenActivityPage,
  TokenActivityQuery,
  TokenSummary,
  UpdateTokenBody,
} from '../../schemas/account.js';

const TokenParams = z.object({ id: z.uuid().describe('Token id') });

/**
 * Personal access tokens of the signed-in user (CONTRACT §2): list, mint, change scopes, revoke,
 * and read a token's activity (its audit log).
 */
export const accountTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/tokens', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: "List the user's personal access tokens (never the secrets)",
      response: { 200: jsonResponse('The tokens, newest first', z.array(TokenSummary)) },
    },
    handler: async (request) => app.personalAccessTokens.list(currentUser(request).id),
  });

  app.post('/tokens', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Mint a personal access token (shown only in this answer)',
      description:
        'The token starts with `svc_pat_`; use it as `Authorization: Bearer` for MCP. `scopes` ' +
        'choose what it may do; without `scopes` (the body CONTRACT §2 gives) the token gets ' +
        `every scope the interface spec's eight MCP tools need (\`${DEFAULT_TOKEN_SCOPES.join(' ')}\`), ` +
        `so a client written against the spec works as the spec says. Name fewer for least privilege, ` +
        `e.g. \`${READ_ONLY_TOKEN_SCOPES.join(' ')}\` (read-only, no money amounts, no quota spent). ` +
        'The scopes they need are added and the answer names them all.',
      body: MintTokenBody,
      response: {
        201: jsonResponse('The new token, with its secret', MintedToken),
        ...errorResponses(413, 415),
      },
    },
    handler: async (request, reply) => {
      const minted = await app.personalAccessTokens.mint(currentUser(request).id, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(minted);
    },
  });

  app.patch('/tokens/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: "Change a personal access token's scopes; the change acts at once",
      description:
        'Replaces the scopes (the needed ones added). Every server process applies the change ' +
        'to the next request made with the token.',
      params: TokenParams,
      body: UpdateTokenBody,
      response: { 200: jsonResponse('The token', TokenSummary), ...errorResponses(404, 413, 415) },
    },
    handler: async (request) =>
      app.personalAccessTokens.updateScopes(
        currentUser(request).id,
        request.params.id,
        request.body.scopes,
      ),
  });

  app.get('/tokens/:id/activity', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: "A personal access token's recorded calls, newest first",
      description:
        'Every MCP tool call made with the token (tool, time, outcome, quota spent, duration, ' +
        'arguments), and every REST call made with it (the route as the tool, e.g. ' +
        '`GET /api/portfolios/:id/xray`, its path parameters and query as the arguments): ' +
        'secrets redacted, bounded. Kept `AUDIT_RETENTION_DAYS` days. Paged as the ' +
        "screener (`page`, `limit` 1–100, default 20). Another user's token answers 404.",
      params: TokenParams,
      querystring: TokenActivityQuery,
      response: {
        200: jsonResponse('A page of calls', TokenActivityPage),
        ...errorResponses(404),
      },
    },
    handler: async (request, reply) => {
      const page = await app.tokenActivity.page(
        currentUser(request).id,
        request.params.id,
        request.query,
      );
      return reply.header('cache-control', 'no-store').send(page);
    },
  });

  app.delete('/tokens/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Revoke a personal access token; it stops working at once',
      params: TokenParams,
      response: { 204: z.undefined().describe('Revoked'), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await app.personalAccessTokens.revoke(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  });
};
