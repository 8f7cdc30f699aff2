import { z } from 'zod';

/** `GET /healthz`: the process is up and serving HTTP. */
export const Liveness = z
  .object({ status: z.literal('ok').describe('Always "ok" when the process answers') })
  .meta({ id: 'Liveness', description: 'The process is up' });

/** `GET /readyz`: the database answered and its schema is at the latest migration. */
export const Readiness = z
  .object({
    status: z.literal('ready').describe('Always "ready" on 200; not ready answers 503'),
    checks: z
      .object({
        database: z.literal('ok').describe('The database answered a query'),
        migrations: z.literal('current').describe('Every migration of this version is applied'),
      })
      .describe('The checks that passed'),
  })
  .meta({ id: 'Readiness', description: 'The instance can serve requests' });
