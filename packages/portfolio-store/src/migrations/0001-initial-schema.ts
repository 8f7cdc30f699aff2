import { type Kysely, sql } from 'kysely';

const uuidPk = sql`gen_random_uuid()`;

async function createAccountTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('oidc_issuer', 'text')
    .addColumn('oidc_subject', 'text')
    .addColumn('plan', 'text', (c) =>
      c.notNull().defaultTo('free').check(sql`plan in ('free', 'pro')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('users_oidc_unique', ['oidc_issuer', 'oidc_subject'])
    .execute();
  await db.schema
    .createIndex('users_email_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('personal_access_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('personal_access_tokens_user_idx')
    .on('personal_access_tokens')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('quota_usage')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('quota', 'text', (c) => c.notNull())
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0).check(sql`used >= 0`))
    .addPrimaryKeyConstraint('quota_usage_pk', ['user_id', 'quota', 'period_start'])
    .execute();
}

async function createPortfolioTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portfolios')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('base_currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('portfolios_user_idx').on('portfolios').column('user_id').execute();

  await db.schema
    .createTable('transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('portfolio_id', 'uuid', (c) =>
      c.notNull().references('portfolios.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .check(sql`type in ('buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'split')`),
    )
    .addColumn('symbol', 'text')
    .addColumn('quantity', 'numeric')
    .addColumn('price', 'numeric')
    .addColumn('fee', 'numeric')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('executed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('import_batch_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('transactions_user_portfolio_executed_idx')
    .on('transactions')
    .columns(['user_id', 'portfolio_id', 'executed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('transactions_user_executed_idx')
    .on('transactions')
    .columns(['user_id', 'executed_at', 'id'])
    .execute();

  await db.schema
    .createTable('holdings')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('portfolio_id', 'uuid', (c) =>
      c.notNull().references('portfolios.id').onDelete('cascade'),
    )
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('quantity', 'numeric', (c) => c.notNull())
    .addColumn('average_cost', 'numeric')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('last_price', 'numeric')
    .addColumn('market_value', 'numeric')
    .addColumn('market_value_eur', 'numeric')
    .addColumn('cost_basis_eur', 'numeric')
    .addColumn('unrealized_pnl_eur', 'numeric')
    .addColumn('weight', 'numeric')
    .addColumn('valued_at', 'timestamptz')
    .addUniqueConstraint('holdings_portfolio_symbol_unique', ['portfolio_id', 'symbol'])
    .execute();
  await db.schema.createIndex('holdings_user_idx').on('holdings').column('user_id').execute();

  await db.schema
    .createTable('cash_positions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('portfolio_id', 'uuid', (c) =>
      c.notNull().references('portfolios.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'numeric', (c) => c.notNull())
    .addColumn('amount_eur', 'numeric')
    .addColumn('valued_at', 'timestamptz')
    .addUniqueConstraint('cash_positions_portfolio_currency_unique', ['portfolio_id', 'currency'])
    .execute();
  await db.schema
    .createIndex('cash_positions_user_idx')
    .on('cash_positions')
    .column('user_id')
    .execute();
}

async function createMarketTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fx_rates')
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('rate', 'numeric', (c) => c.notNull().check(sql`rate > 0`))
    .addColumn('source', 'text')
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('fx_rates_pk', ['base', 'quote', 'date'])
    .execute();

  await db.schema
    .createTable('quotes')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('price', 'numeric', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('as_of', 'timestamptz', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('quotes_pk', ['symbol', 'as_of'])
    .execute();
}

async function createEvaluationTables(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evaluation_cache')
    .addColumn('symbol', 'text', (c) => c.primaryKey())
    .addColumn('evaluation', 'jsonb', (c) => c.notNull())
    .addColumn('total_score', 'double precision', (c) => c.notNull())
    .addColumn('max_score', 'double precision', (c) => c.notNull())
    .addColumn('score_percent', 'double precision', (c) =>
      c
        .generatedAlwaysAs(sql`case when max_score > 0 then total_score / max_score * 100 end`)
        .stored(),
    )
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('sector', 'text')
    .addColumn('industry', 'text')
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('pe_ratio', 'double precision')
    .addColumn('market_cap', 'numeric')
    .addColumn('cached_at', 'timestamptz', (c) => c.notNull())
    .execute();
  for (const column of [
    'total_score',
    'score_percent',
    'verdict',
    'sector',
    'industry',
    'pe_ratio',
    'market_cap',
    'cached_at',
  ]) {
    await db.schema
      .createIndex(`evaluation_cache_${column}_idx`)
      .on('evaluation_cache')
      .column(column)
      .execute();
  }

  await db.schema
    .createTable('moat_reports')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('evaluation', 'jsonb', (c) => c.notNull())
    .addColumn('total_score', 'double precision')
    .addColumn('max_score', 'double precision')
    .addColumn('verdict', 'text')
    .addColumn('tags', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('moat_reports_user_created_idx')
    .on('moat_reports')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('moat_reports_tags_gin_idx')
    .on('moat_reports')
    .using('gin')
    .column('tags')
    .execute();

  await db.schema
    .createTable('advisor_proposals')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(uuidPk))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`status in ('pending', 'applied', 'rejected')`),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('applied_at', 'timestamptz')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('advisor_proposals_user_idx')
    .on('advisor_proposals')
    .column('user_id')
    .execute();
}

const TABLES = [
  'advisor_proposals',
  'moat_reports',
  'evaluation_cache',
  'quotes',
  'fx_rates',
  'cash_positions',
  'holdings',
  'transactions',
  'portfolios',
  'quota_usage',
  'personal_access_tokens',
  'sessions',
  'users',
];

/** Migration 0001: every table of the store (see `db-types.ts` for the columns). */
export const initialSchema = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createAccountTables(db);
    await createPortfolioTables(db);
    await createMarketTables(db);
    await createEvaluationTables(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const table of TABLES) await db.schema.dropTable(table).ifExists().execute();
  },
};
