import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { MintedToken, MintTokenBody, TokenSummary } from '../../schemas/account.js';

/** Personal access tokens of the signed-in user (CONTRACT §2): list, mint, revoke. */
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
      description: 'The token starts with `svc_pat_`; use it as `Authorization: Bearer` for MCP.',
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

  app.delete('/tokens/:id', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'],
      summary: 'Revoke a personal access token; it stops working at once',
      params: z.object({ id: z.uuid().describe('Token id') }),
      response: { 204: z.undefined().describe('Revoked'), ...errorResponses(404) },
    },
    handler: async (request, reply) => {
      await app.personalAccessTokens.revoke(currentUser(request).id, request.params.id);
      return reply.code(204).send();
    },
  });
};
