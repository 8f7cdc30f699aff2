import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import { StoreError } from './errors.js';
import { migrateToLatest, pendingMigrations } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { createRepositories } from './repositories/index.js';
import { backends, migratorOf, type TestDatabase } from './test-support/backends.js';

const TABLES = [
  'advisor_proposals',
  'cash_positions',
  'evaluation_as_of_cache',
  'evaluation_cache',
  'evaluation_events',
  'evaluation_history',
  'event_outbox',
  'fx_rates',
  'holdings',
  'import_mappings',
  'instrument_resolutions',
  'moat_reports',
  'personal_access_tokens',
  'portfolio_change_rows',
  'portfolio_changes',
  'portfolios',
  'quota_usage',
  'quotes',
  'rate_limits',
  'sec_filings',
  'sec_index_days',
  'sec_rate',
  'sessions',
  'token_activity',
  'transactions',
  'users',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_messages',
];

describe.each(backends)('migrations on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('creates every table in the current schema', async () => {
    // only the test's own schema: other schemas of the server (public included) may hold anything
    const { rows } = await sql<{ schema: string; name: string }>`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'
        and table_name not like 'kysely_%'
      order by table_name`.execute(database.db);
    expect(rows.map((t) => t.name)).toEqual(TABLES);
    expect(new Set(rows.map((t) => t.schema))).toEqual(new Set([database.schema ?? 'public']));
  });

  it('has no pending migrations once migrated', async () => {
    expect(await pendingMigrations(database.db)).toEqual([]);
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

describe.each(backends)('migration 0002 (transaction amount and ratio) on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('moves amounts out of price and ratios out of quantity, and back on down', async () => {
    const migrator = migratorOf(database);
    expect((await migrator.migrateTo('0001-initial-schema')).error).toBeUndefined();
    expect(await pendingMigrations(database.db)).toEqual(Object.keys(MIGRATIONS).slice(1));
    const { rows } = await sql<{ id: string }>`
      insert into users (email) values ('ledger@example.test') returning id`.execute(database.db);
    const userId = rows[0]?.id;
    const portfolio = await sql<{ id: string }>`
      insert into portfolios (user_id, name) values (${userId}, 'P') returning id`.execute(
      database.db,
    );
    const portfolioId = portfolio.rows[0]?.id;
    // rows as the use-case layer encoded them before 0002: amount in price, ratio in quantity
    await sql`
      insert into transactions (user_id, portfolio_id, type, symbol, quantity, price, currency, executed_at)
      values
        (${userId}, ${portfolioId}, 'buy', 'AAPL', 10, 150.5, 'USD', '2024-01-02T00:00:00Z'),
        (${userId}, ${portfolioId}, 'dividend', 'AAPL', null, 2.4, 'USD', '2024-02-02T00:00:00Z'),
        (${userId}, ${portfolioId}, 'deposit', null, null, 1000, 'EUR', '2024-01-01T00:00:00Z'),
        (${userId}, ${portfolioId}, 'split', 'AAPL', 4, null, 'USD', '2024-03-02T00:00:00Z')
    `.execute(database.db);

    await migrateToLatest(database.db);
    const after = await database.db
      .selectFrom('transactions')
      .select(['type', 'quantity', 'price', 'amount', 'ratio'])
      .orderBy('executed_at')
      .execute();
    expect(after.map((r) => [r.type, r.quantity, r.price, r.amount, r.ratio])).toEqual([
      ['deposit', null, null, '1000', null],
      ['buy', '10', '150.5', null, null],
      ['dividend', null, null, '2.4', null],
      ['split', null, null, null, '4'],
    ]);

    expect((await migrator.migrateTo('0001-initial-schema')).error).toBeUndefined();
    const before = await sql<{ type: string; quantity: string | null; price: string | null }>`
      select type, quantity, price from transactions order by executed_at`.execute(database.db);
    expect(before.rows.map((r) => [r.type, r.quantity, r.price])).toEqual([
      ['deposit', null, '1000'],
      ['buy', '10', '150.5'],
      ['dividend', null, '2.4'],
      ['split', '4', null],
    ]);
    await migrateToLatest(database.db);
  });
});

describe.each(backends)('migration 0018 (the event outbox) on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.cleanup());

  it('moves the events made before 0018 into the outbox, with their cause, and back on down', async () => {
    const migrator = migratorOf(database);
    const at16 = '0016-evaluation-events-and-webhooks';
    expect((await migrator.migrateTo(at16)).error).toBeUndefined();
    const { rows } = await sql<{ id: string }>`
      insert into users (email) values ('outbox@example.test') returning id`.execute(database.db);
    const userId = rows[0]?.id;
    const side = {
      totalScore: 50,
      maxScore: 100,
      verdict: 'x',
      evaluatedAt: '2025-01-01',
      fiscalYears: [],
    };
    const filing = { accession: 'a-1', form: '10-K', filed: '2025-10-31' };
    const made = await sql<{ event: string; endpoint: string }>`
      with h as (insert into evaluation_history (symbol, evaluation, total_score, max_score, verdict,
          trigger, evaluated_at) values ('OLD', '{}', 50, 100, 'x', 'filing', now()) returning id),
        e as (insert into evaluation_events (type, symbol, history_id, data)
          select 'evaluation.changed', 'OLD', h.id, ${JSON.stringify({ symbol: 'OLD', previous: side, current: side, changes: [], filing })}::jsonb
          from h returning id),
        w as (insert into webhook_endpoints (user_id, url, events, secret)
          values (${userId}, 'https://hooks.example/old', '{evaluation.changed}', 'whsec_o') returning id)
      insert into webhook_messages (endpoint_id, event_id) select w.id, e.id from w, e
      returning event_id as event, endpoint_id as endpoint`.execute(database.db);
    const old = made.rows[0];

    await migrateToLatest(database.db);
    const event = await database.db
      .selectFrom('evaluation_events')
      .where('id', '=', old?.event as string)
      .select('data')
      .executeTakeFirstOrThrow();
    expect(event.data).toMatchObject({
      cause: 'filing',
      previous: { methodologyVersion: '1' },
      current: { methodologyVersion: '1' },
      filing,
    });
    const outbox = await database.db
      .selectFrom('event_outbox')
      .where('id', '=', old?.event as string)
      .select(['type', 'symbol', 'data', 'relayed_at'])
      .executeTakeFirstOrThrow();
    expect(outbox).toMatchObject({ type: 'evaluation.changed', symbol: 'OLD', data: event.data });
    // already relayed: its message exists and is delivered from the outbox row
    expect(outbox.relayed_at).not.toBeNull();
    const claimed = await createRepositories(database.db).webhooks.claimDue(
      new Date(Date.now() + 60_000),
      10,
      1000,
    );
    expect(claimed.map((m) => [m.eventId, m.endpointId, m.data])).toEqual([
      [old?.event, old?.endpoint, event.data],
    ]);

    expect((await migrator.migrateTo(at16)).error).toBeUndefined();
    const kept = await sql<{ n: string }>`select count(*) as n from webhook_messages`.execute(
      database.db,
    );
    expect(Number(kept.rows[0]?.n)).toBe(1);
    expect((await migrateToLatest(database.db)).applied).toContain('0018-event-outbox');
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
    // one owner at a time: a second opening of the folder is refused until the first closes
    const refused = await createDatabase({ dataDir: dir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({ code: 'locked', message: expect.stringContaining(dir) });
    expect((await migrateToLatest(second.db)).applied).toEqual([]);
    const user = await second.db.selectFrom('users').select('email').executeTakeFirst();
    expect(user?.email).toBe('persist@example.test');
    await second.close();
  }, 120_000); // PGlite starts from disk twice: slow on a busy machine
});

describe('createDatabase', () => {
  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(createDatabase({ schema: 'x"; drop table users; --' })).rejects.toBeInstanceOf(
      StoreError,
    );
  });
});

describe.each(backends.filter((b) => b.name === 'postgres'))(
  'migrations while another session drops schemas, on $name',
  (backend) => {
    let database: TestDatabase;
    let other: Awaited<ReturnType<typeof database.connectAgain>>;
    beforeAll(async () => {
      database = await backend.open();
      other = await database.connectAgain({ max: 1 });
    });
    afterAll(async () => {
      await other.close();
      await database.cleanup();
    });

    // Kysely's migrator lists the tables of every schema first (has_schema_privilege per schema):
    // a schema dropped meanwhile by another session (another suite's cleanup) failed the call
    it('keeps answering when schemas of other sessions come and go', async () => {
      let churning = true;
      const prefix = `${database.schema}_churn`;
      const churn = (async () => {
        for (let i = 0; churning; i += 1) {
          const name = sql.id(`${prefix}_${i % 20}`);
          await sql`create schema if not exists ${name}`.execute(other.db);
          await sql`create table if not exists ${name}.t (x int)`.execute(other.db);
          await sql`drop schema ${name} cascade`.execute(other.db);
        }
      })();
      try {
        for (let i = 0; i < 150; i += 1) {
          expect(await pendingMigrations(database.db)).toEqual([]);
          expect((await migrateToLatest(database.db)).applied).toEqual([]);
        }
      } finally {
        churning = false;
        await churn;
      }
    }, 120_000);
  },
);
