import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import { StoreError } from './errors.js';
import { migrateToLatest } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { backends, type TestDatabase } from './test-support/backends.js';

const TABLES = [
  'advisor_proposals',
  'cash_positions',
  'evaluation_cache',
  'fx_rates',
  'holdings',
  'moat_reports',
  'personal_access_tokens',
  'portfolios',
  'quota_usage',
  'quotes',
  'sessions',
  'transactions',
  'users',
];

describe.each(backends)('migrations on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('creates every table in the current schema', async () => {
    const tables = await database.db.introspection.getTables();
    const names = tables.map((t) => t.name).sort();
    expect(names).toEqual(TABLES);
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([database.schema ?? 'public']));
  });

  it('is idempotent: a second run applies nothing and keeps the data', async () => {
    await database.db.insertInto('users').values({ email: 'kept@example.test' }).execute();
    const again = await migrateToLatest(database.db);
    expect(again.applied).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from users`.execute(
      database.db,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('records every migration once', async () => {
    const rows = await database.db
      .withoutPlugins()
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .execute();
    expect(rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS));
  });
});

describe('embedded database in a data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'store-pglite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('persists rows and migration state across close and reopen', async () => {
    const first = await createDatabase({ dataDir: dir });
    expect(first.dialect).toBe('pglite');
    expect((await migrateToLatest(first.db)).applied).toEqual(Object.keys(MIGRATIONS));
    await first.db.insertInto('users').values({ email: 'persist@example.test' }).execute();
    await first.close();

    const second = await createDatabase({ dataDir: dir });
    expect((await migrateToLatest(second.db)).applied).toEqual([]);
    const user = await second.db.selectFrom('users').select('email').executeTakeFirst();
    expect(user?.email).toBe('persist@example.test');
    await second.close();
  });
});

describe('createDatabase', () => {
  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(createDatabase({ schema: 'x"; drop table users; --' })).rejects.toBeInstanceOf(
      StoreError,
    );
  });
});
