import { publicUser } from '@svc/use-cases';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../../auth/cookies.js';
import { jsonResponse } from '../../openapi.js';
import { currentUser } from '../../plugins/app/session-guard.js';
import { ApiError, errorResponses } from '../../problem.js';
import {
  ChangePasswordBody,
  LoginBody,
  RegisterBody,
  SessionInfo,
  UserEnvelope,
} from '../../schemas/account.js';

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

/**
 * Password accounts and sessions (CONTRACT §2): register, login, logout, session; and the
 * password change of CONTRACT §6.
 */
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

  app.post('/password', {
    config: { auth: 'session' },
    schema: {
      tags: ['auth'],
      summary: 'Change the password; every other session ends at once',
      description:
        'CONTRACT §6. Checks `currentPassword`, stores `newPassword` (the rules of sign-up: 8 to ' +
        '512 characters) and ends every other session of the account at once on every server ' +
        'process; this session stays signed in. Personal access tokens keep working (revoke them ' +
        'on the developer page). 403 `forbidden` for a wrong current password, or for an account without one ' +
        '(it signs in with OIDC); wrong passwords count toward the failed-login limit (429).',
      body: ChangePasswordBody,
      response: {
        204: z.undefined().describe('Changed; the other sessions are ended'),
        ...errorResponses(401, 403, 413, 415, 429),
      },
    },
    handler: async (request, reply) => {
      const auth = request.account;
      if (!auth) throw new ApiError('unauthorized', 'Sign in first: no valid session.');
      await app.accountLifecycle.changePassword(auth, request.body, clientOf(request));
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
