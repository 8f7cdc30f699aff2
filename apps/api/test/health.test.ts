import { MIGRATIONS, migrateToLatest, staticMigrationProvider } from '@svc/service/testing';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from './helpers.js';

/** Hooks open databases and build apps: slow on a busy machine. */
const SLOW_HOOK_MS = 180_000;

describe.each(ENGINES)('GET /healthz and /readyz on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ engine, env: { RATE_LIMIT_PER_MINUTE: '2' } });
  }, SLOW_HOOK_MS);
  afterAll(() => ctx.close(), SLOW_HOOK_MS);

  it('answer 200 without a session, and are not rate-limited', async () => {
    for (let i = 0; i < 5; i++) {
      const live = await ctx.app.inject({ url: '/healthz' });
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok' });
      const ready = await ctx.app.inject({ url: '/readyz' });
      expect(ready.statusCode, ready.body).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'current' },
      });
    }
  });

  it(
    '/readyz answers 503 with Retry-After while a migration is pending, 200 once applied',
    async () => {
      const migrator = new Migrator({
        db: ctx.db,
        provider: staticMigrationProvider,
        migrationTableSchema: (
          await ctx.db
            .selectNoFrom((eb) => eb.fn<string>('current_schema').as('s'))
            .executeTakeFirstOrThrow()
        ).s,
      });
      const [first] = Object.keys(MIGRATIONS);
      expect((await migrator.migrateTo(first ?? '')).error).toBeUndefined();
      const res = await ctx.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ code: 'upstream_unavailable' });
      expect(res.json().detail).toContain(Object.keys(MIGRATIONS)[1]);
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);

      await migrateToLatest(ctx.db);
      expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    },
    SLOW_HOOK_MS,
  );
});
