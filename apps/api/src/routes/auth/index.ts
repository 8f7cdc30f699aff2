import { publicUser } from '@svc/use-cases';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../../auth/cookies.js';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { errorResponses } from '../../problem.js';
import { LoginBody, RegisterBody, SessionInfo, UserEnvelope } from '../../schemas/account.js';

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/** Password accounts and sessions (CONTRACT §2): register, login, logout, session. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const secure = app.config.cookieSecure;

  app.post('/register', {
    schema: {
      tags: ['auth'],
      summary: 'Create a password account and sign in',
      description: 'Sets the `service_session` cookie. 403 when sign-up is disabled.',
      body: RegisterBody,
      response: {
        201: jsonResponse('Account created and signed in', UserEnvelope),
        ...errorResponses(403, 409, 413, 415),
      },
    },
    handler: async (request, reply) => {
      const opened = await app.auth.register(request.body, clientOf(request));
      setSessionCookie(reply, opened.jwt, opened.expiresAt, secure);
      return reply.code(201).send({ user: publicUser(opened.user) });
    },
  });

  app.post('/login', {
    schema: {
      tags: ['auth'],
      summary: 'Sign in with e-mail and password',
      description:
        'Sets the `service_session` cookie. The same 401 for an unknown e-mail and a wrong ' +
        'password; 429 with `Retry-After` after repeated failures for one IP and e-mail.',
      body: LoginBody,
      response: {
        200: jsonResponse('Signed in', UserEnvelope),
        ...errorResponses(401, 403, 413, 415, 429),
      },
    },
    handler: async (request, reply) => {
      const opened = await app.auth.login(request.body, clientOf(request));
      setSessionCookie(reply, opened.jwt, opened.expiresAt, secure);
      return { user: publicUser(opened.user) };
    },
  });

  app.post('/logout', {
    config: { auth: 'session' },
    schema: {
      tags: ['auth'],
      summary: 'Sign out: revoke the session and clear the cookie',
      response: { 204: z.undefined().describe('Signed out') },
    },
    handler: async (request, reply) => {
      if (request.account) await app.auth.logout(request.account);
      clearSessionCookie(reply, secure);
      return reply.code(204).send();
    },
  });

  app.get('/session', {
    config: { auth: 'session' },
    schema: {
      tags: ['auth'],
      summary: 'The signed-in user, plan and quota usage',
      response: { 200: jsonResponse('The current session', SessionInfo) },
    },
    handler: async (request) => app.auth.describe(currentUser(request)),
  });
};
