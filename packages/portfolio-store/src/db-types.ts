import type { Instrument, Plan } from '@svc/schemas';
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/**
 * A `timestamptz` column: read as a `Date` (node-postgres parses it), written as a `Date` or an
 * ISO-8601 string.
 */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A `timestamptz` column with a database default (`now()`), optional on insert. */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * A `numeric` column. node-postgres returns `numeric` as a decimal string and the store keeps it
 * that way: money and quantities are never parsed into floats here. Written as a decimal string.
 */
export type Numeric = ColumnType<string, string, string>;

/** A `date` column, read and written as `YYYY-MM-DD` (the store installs a string parser). */
export type DateColumn = ColumnType<string, string, string>;

/** Subscription plans of a user (CONTRACT §3): the one `Plan` of `@svc/schemas`. */
export type { Plan };

/** Transaction types (CONTRACT §4). */
export type TransactionType =
  | 'buy'
  | 'sell'
  | 'dividend'
  | 'deposit'
  | 'withdrawal'
  | 'fee'
  | 'split';

/** Lifecycle of an advisor proposal: made `pending`, then `applied` or `rejected` at most once. */
export type ProposalStatus = 'pending' | 'applied' | 'rejected';

/** `users`: one row per account; `password_hash` is null for OIDC-only users. */
export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string | null;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  created_at: GeneratedTimestamp;
}

/** `sessions`: server-side session rows; a JWT carries the row id as `sid`. */
export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  user_agent: string | null;
  ip: string | null;
}

/** `personal_access_tokens`: only the SHA-256 hash of a token is stored. */
export interface PersonalAccessTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: GeneratedTimestamp;
  last_used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The token's scopes (migration 0010); tokens older than it have every scope. */
  scopes: string[];
}

/**
 * `token_activity` (migration 0010): one row per call made with a token, an MCP call or a REST call
 * of a route that takes one (`tool` is then the route, `GET /api/portfolios/:id/xray`).
 */
export interface TokenActivityTable {
  id: ColumnType<string | number | bigint, never, never>;
  token_id: string;
  user_id: string;
  at: ColumnType<Date, Date | string, never>;
  tool: string;
  /** `ok`, `error` or `denied` (a scope was missing). */
  outcome: string;
  error_code: string | null;
  /** Units spent per quota name. */
  quota_spent: ColumnType<Record<string, number>, string, never>;
  duration_ms: number;
  /** The call's arguments, secrets redacted and size bounded; null without arguments. */
  arguments: ColumnType<unknown, string | null, never>;
}

/**
 * `rate_limits`: shared fixed-window counters (migration 0006), in `rate-limiter-flexible`'s
 * PostgreSQL layout: `key` (prefixed by the limiter), `points` used in the window, `expire` (epoch
 * milliseconds, as a `bigint` string) when the window ends.
 */
export interface RateLimitsTable {
  key: string;
  points: Generated<number>;
  expire: string | null;
}

/** `quota_usage`: units used per user, quota and period; primary key (user_id, quota, period_start). */
export interface QuotaUsageTable {
  user_id: string;
  quota: string;
  period_start: Timestamp;
  used: ColumnType<number, number | undefined, number>;
}

/** `portfolios`. */
export interface PortfoliosTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  base_currency: ColumnType<string, string | undefined, string>;
  created_at: GeneratedTimestamp;
  /** Realised P&L in EUR of every sale, closed positions included (migration 0008). */
  realized_pnl_eur: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Bumped by triggers in the transaction of every insert, update or delete of the portfolio's
   * `transactions` (migration 0012); bigint, read as a decimal string.
   */
  ledger_version: ColumnType<string, never, never>;
  /**
   * Bumped by triggers in the transaction of every insert, update or delete of the portfolio's
   * `holdings` or `cash_positions` (migration 0013); bigint, read as a decimal string.
   */
  positions_version: ColumnType<string, never, never>;
}

/** `transactions`: the ledger that holdings and cash positions follow from. */
export interface TransactionsTable {
  id: Generated<string>;
  user_id: string;
  portfolio_id: string;
  type: TransactionType;
  symbol: string | null;
  quantity: Numeric | null;
  price: Numeric | null;
  fee: Numeric | null;
  /** Cash amount of a dividend, deposit, withdrawal or fee (migration 0002). */
  amount: Numeric | null;
  /** New units per old unit of a split (migration 0002). */
  ratio: Numeric | null;
  currency: string;
  executed_at: Timestamp;
  note: string | null;
  import_batch_id: string | null;
  /** Import fingerprint, unique per portfolio when set (migration 0003). */
  fingerprint: ColumnType<string | null, string | null | undefined, string | null>;
  /** Instrument name the import gave (migration 0003). */
  name: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
  /** The instrument resolved when the row was written; null before (migration 0019). */
  instrument: InstrumentColumn;
}

/** A jsonb `Instrument` column (migration 0019): read parsed, written as JSON text. */
export type InstrumentColumn = ColumnType<
  Instrument | null,
  string | null | undefined,
  string | null
>;

/** `instrument_resolutions` (migration 0019): identifier services' answers, global. */
export interface InstrumentResolutionsTable {
  /** `isin:<ISIN>` or `ticker:<TICKER>`. */
  key: string;
  /** The answer; null when the service knew nothing. */
  instrument: InstrumentColumn;
  /** The service (`openfigi`). */
  source: string;
  resolved_at: GeneratedTimestamp;
}

/** `holdings`: derived rows with stored EUR values and the instant they were valued. */
export interface HoldingsTable {
  id: Generated<string>;
  user_id: string;
  portfolio_id: string;
  symbol: string;
  name: string | null;
  quantity: Numeric;
  average_cost: Numeric | null;
  currency: string;
  last_price: Numeric | null;
  market_value: Numeric | null;
  market_value_eur: Numeric | null;
  cost_basis_eur: Numeric | null;
  unrealized_pnl_eur: Numeric | null;
  weight: Numeric | null;
  valued_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Instant of the quote behind `last_price` (migration 0003). */
  price_as_of: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Day of the ECB rate behind the EUR values (migration 0003). */
  fx_as_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** The quote is older than the allowed age (migration 0003). */
  stale: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** Realised P&L in EUR of the sales of this holding (migration 0003). */
  realized_pnl_eur: ColumnType<string | null, string | null | undefined, string | null>;
  /** The holding's instrument (migration 0019). */
  instrument: InstrumentColumn;
}

/** `cash_positions`: derived rows with stored EUR values. */
export interface CashPositionsTable {
  id: Generated<string>;
  user_id: string;
  portfolio_id: string;
  currency: string;
  amount: Numeric;
  amount_eur: Numeric | null;
  valued_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Day of the ECB rate behind `amount_eur` (migration 0003). */
  fx_as_of: ColumnType<string | null, string | null | undefined, string | null>;
}

/** `fx_rates`: 1 `base` = `rate` `quote` on `date`; primary key (base, quote, date). */
export interface FxRatesTable {
  base: string;
  quote: string;
  date: DateColumn;
  rate: Numeric;
  source: string | null;
  fetched_at: GeneratedTimestamp;
}

/** `quotes`: one price per symbol and `as_of` instant; primary key (symbol, as_of). */
export interface QuotesTable {
  symbol: string;
  price: Numeric;
  currency: string;
  as_of: Timestamp;
  source: string;
  fetched_at: GeneratedTimestamp;
}

/** `evaluation_cache`: the latest evaluation per symbol plus indexed screener columns. */
export interface EvaluationCacheTable {
  symbol: string;
  evaluation: JSONColumnType<Record<string, unknown>>;
  total_score: number;
  max_score: number;
  /** Generated: `total_score / max_score × 100`, null when `max_score` is 0. */
  score_percent: ColumnType<number | null, never, never>;
  verdict: string;
  sector: string | null;
  industry: string | null;
  company_name: string;
  pe_ratio: number | null;
  market_cap: Numeric | null;
  cached_at: Timestamp;
  /** Total score minus the previous cached total of the symbol; null without one (migration 0011). */
  score_change: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many data-quality flags the evaluation carries (`dataQuality`; migration 0022). */
  data_quality_flags: ColumnType<number, number | undefined, number>;
  /** The distinct codes of those flags, in order, a JSON array of strings (migration 0022). */
  data_quality_codes: ColumnType<unknown, string | undefined, string>;
}

/** `evaluation_as_of_cache`: evaluations as of a past day, one per (symbol, day) (migration 0021). */
export interface EvaluationAsOfCacheTable {
  symbol: string;
  /** The as-of day, `YYYY-MM-DD`. */
  as_of: DateColumn;
  evaluation: JSONColumnType<Record<string, unknown>>;
  cached_at: Timestamp;
}

/**
 * What made a fresh evaluation: a user's request (REST or MCP), the CLI's `fill-cache`, or a new
 * annual filing found by the refresh pass (`filing`, migration 0016).
 */
export type EvaluationTrigger = 'request' | 'fill-cache' | 'filing';

/** `evaluation_history`: every fresh evaluation, append-only, global (migration 0011). */
export interface EvaluationHistoryTable {
  id: Generated<string>;
  /** Insertion order; orders rows of one instant. */
  seq: ColumnType<string, never, never>;
  symbol: string;
  evaluation: JSONColumnType<Record<string, unknown>>;
  total_score: number;
  max_score: number;
  verdict: string;
  /** Total score minus the symbol's previous row's; null for the first. */
  score_change: number | null;
  provider: string | null;
  fiscal_years: ColumnType<number[], number[] | undefined, number[]>;
  filings: JSONColumnType<Record<string, unknown>[]>;
  trigger: EvaluationTrigger;
  evaluated_at: Timestamp;
  /** The filing that caused a `filing` evaluation (migration 0016); null otherwise. */
  cause: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
}

/** `evaluation_events`: `evaluation.changed` events, one per differing kept evaluation (0016). */
export interface EvaluationEventsTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  type: string;
  symbol: string;
  history_id: string;
  data: JSONColumnType<Record<string, unknown>>;
  created_at: GeneratedTimestamp;
}

/**
 * `event_outbox`: every event to deliver, of any type, written with what it describes; relayed
 * once into `webhook_messages` (migration 0018).
 */
export interface EventOutboxTable {
  id: string;
  seq: ColumnType<string, never, never>;
  type: string;
  /** The company the event is about; null for none. */
  symbol: string | null;
  /** Only this user's endpoints may receive it; null: any endpoint. */
  user_id: string | null;
  data: JSONColumnType<Record<string, unknown>>;
  created_at: Timestamp;
  relayed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** `webhook_endpoints`: a user's webhook endpoints (migration 0016). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  events: string[];
  symbols: string[] | null;
  /** Only events of symbols this portfolio holds (migration 0018); null for any. */
  portfolio_id: ColumnType<string | null, string | null | undefined, string | null>;
  secret: string;
  created_at: GeneratedTimestamp;
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  disabled_reason: string | null;
}

/** State of a webhook message: still to deliver, delivered, out of retries, endpoint disabled. */
export type WebhookMessageState = 'pending' | 'delivered' | 'failed' | 'dropped';

/** `webhook_messages`: one event to deliver to one endpoint (migration 0016). */
export interface WebhookMessagesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  state: ColumnType<WebhookMessageState, WebhookMessageState | undefined, WebhookMessageState>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  locked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: GeneratedTimestamp;
}

/** `webhook_deliveries`: the delivery log, one row per attempt (migration 0016). */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  message_id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  attempt: number;
  status: string;
  response_status: number | null;
  error: string | null;
  at: Timestamp;
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** `sec_index_days`: the per-day cursor of SEC's daily form index (migration 0016). */
export interface SecIndexDaysTable {
  day: string;
  state: ColumnType<'pending' | 'done', 'pending' | 'done' | undefined, 'pending' | 'done'>;
  attempts: ColumnType<number, number | undefined, number>;
  filings: ColumnType<number, number | undefined, number>;
  last_status: number | null;
  checked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  done_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** State of a found filing's re-evaluation. */
export type SecFilingState = 'pending' | 'done' | 'failed';

/** `sec_filings`: annual filings of cached companies found in the index (migration 0016). */
export interface SecFilingsTable {
  accession: string;
  day: string;
  cik: string;
  symbol: string;
  form: string;
  filed: string;
  state: ColumnType<SecFilingState, SecFilingState | undefined, SecFilingState>;
  attempts: ColumnType<number, number | undefined, number>;
  history_id: string | null;
  error: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** `sec_rate`: one row, the next free instant of SEC's shared request budget (migration 0016). */
export interface SecRateTable {
  id: number;
  next_at: Date;
}

/** `moat_reports`: evaluations saved to a user's library. */
export interface MoatReportsTable {
  id: Generated<string>;
  user_id: string;
  symbol: string;
  company_name: string | null;
  evaluation: JSONColumnType<Record<string, unknown>>;
  total_score: number | null;
  max_score: number | null;
  verdict: string | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  created_at: GeneratedTimestamp;
}

/** `advisor_proposals`: actions the advisor proposed, applied at most once. */
export interface AdvisorProposalsTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  summary: string;
  payload: JSONColumnType<Record<string, unknown>>;
  status: ColumnType<ProposalStatus, ProposalStatus | undefined, ProposalStatus>;
  expires_at: Timestamp;
  applied_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: GeneratedTimestamp;
}

/** `import_mappings`: column mappings a user confirmed, one per header set (migration 0007). */
export interface ImportMappingsTable {
  id: Generated<string>;
  user_id: string;
  header_key: string;
  headers: JSONColumnType<string[]>;
  mapping: JSONColumnType<Record<string, unknown>>;
  created_at: GeneratedTimestamp;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** What wrote a change to a portfolio's ledger (migrations 0014, 0014b). */
export type ChangeSource = 'rest' | 'advisor' | 'account-import';

/** What a change to a portfolio's ledger did (migrations 0014, 0014b). */
export type ChangeKind = 'record' | 'edit' | 'delete' | 'import' | 'revert';

/** `portfolio_changes`: the journal of every write to a portfolio's ledger (migrations 0014, 0014b). */
export interface PortfolioChangesTable {
  id: Generated<string>;
  /** Insertion order (an identity; bigint read as a decimal string). */
  seq: ColumnType<string, never, never>;
  user_id: string;
  portfolio_id: string;
  kind: ChangeKind;
  source: ChangeSource;
  at: GeneratedTimestamp;
  summary: string;
  /** How many transactions the change touched. */
  transaction_count: ColumnType<number, number | undefined, number>;
  /** The portfolio's `ledger_version` before the change (migration 0014b; bigint as a decimal string). */
  ledger_version_before: ColumnType<string | null, string | null | undefined, string | null>;
  /** The portfolio's `ledger_version` after the change. */
  ledger_version_after: ColumnType<string | null, string | null | undefined, string | null>;
  /** The change a `revert` took back. */
  reverts: ColumnType<string | null, string | null | undefined, string | null>;
  /** The revert that took this change back. */
  reverted_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * `portfolio_change_rows`: each transaction a change touched, its whole `transactions` row as
 * JSON before and after (null: absent), migration 0014.
 */
export interface PortfolioChangeRowsTable {
  change_id: string;
  transaction_id: string;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
}

/** The database: every table, keyed by its SQL name (the Kysely `DB` type). */
export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  token_activity: TokenActivityTable;
  quota_usage: QuotaUsageTable;
  rate_limits: RateLimitsTable;
  portfolios: PortfoliosTable;
  transactions: TransactionsTable;
  holdings: HoldingsTable;
  cash_positions: CashPositionsTable;
  fx_rates: FxRatesTable;
  quotes: QuotesTable;
  evaluation_cache: EvaluationCacheTable;
  evaluation_as_of_cache: EvaluationAsOfCacheTable;
  evaluation_history: EvaluationHistoryTable;
  evaluation_events: EvaluationEventsTable;
  event_outbox: EventOutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  sec_index_days: SecIndexDaysTable;
  sec_filings: SecFilingsTable;
  sec_rate: SecRateTable;
  moat_reports: MoatReportsTable;
  advisor_proposals: AdvisorProposalsTable;
  import_mappings: ImportMappingsTable;
  portfolio_changes: PortfolioChangesTable;
  portfolio_change_rows: PortfolioChangeRowsTable;
  instrument_resolutions: InstrumentResolutionsTable;
}
