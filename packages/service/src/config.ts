import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  FUNDAMENTALS_PROVIDER_NAMES,
  FX_PROVIDER_NAMES,
  QUOTE_PROVIDER_NAMES,
  RECONCILE_PROVIDER_NAMES,
} from '@svc/providers';
import { type QuotaLimitOverrides, QuotaLimitOverridesSchema } from '@svc/quota';
import type { OidcConfig } from '@svc/use-cases';
import { z } from 'zod';

// The service's configuration, declared once. Each environment variable is one line of
// `EnvSchema`: its zod schema (type, check, default) and, through `v`, its meaning (plus what an
// unset variable means when the schema's default does not say it). The rules between variables
// ("X needs Y") are the rows of `CONFIG_RULES`. The typed configuration is `toConfig`'s answer,
// its type inferred (`BaseConfig`). The README's configuration table is generated from this file
// (`node scripts/generated-docs.mjs --write`; CI runs `--check`).

/** Log levels accepted by `LOG_LEVEL` (pino's names). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Log formats accepted by `LOG_FORMAT`: `auto` is `pretty` when stdout is a terminal. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** Fundamentals providers the server may select (CONTRACT §5; chosen in `@svc/use-cases`). */
export const FUNDAMENTALS_PROVIDERS = FUNDAMENTALS_PROVIDER_NAMES;

/** Quote sources for the valuation's share price (`QUOTES_PROVIDER`; `@svc/use-cases`). */
export const QUOTES_PROVIDERS = QUOTE_PROVIDER_NAMES;

/** FX (EUR reference rate) sources (`FX_PROVIDER`; `@svc/use-cases`). */
export const FX_PROVIDERS = FX_PROVIDER_NAMES;

/** Name of the file under `DATA_DIR` that keeps the generated session secret. */
export const SESSION_SECRET_FILE = 'session-secret';

/** What the documentation says about one environment variable (recorded by `v`). */
export interface VariableDoc {
  /** Its meaning: the README table's "Meaning" column (markdown). */
  readonly description: string;
  /**
   * The "Default" column when the schema's own default does not say it: a default derived from
   * other variables, or what happens while it is unset (markdown). Without it the column shows
   * the schema's default, or "none".
   */
  readonly unset?: string;
  /** The command line tools read it too (`parseCommandConfig`, `COMMAND_ENV_KEYS`). */
  readonly command?: true;
}

/** The registry of every variable's {@link VariableDoc}, keyed by its schema in `EnvSchema`. */
const ENV_DOCS = z.registry<VariableDoc>();

/** Records a variable's meaning (and optional `unset` text, `command` flag) on its schema. */
function v<S extends z.ZodType>(
  schema: S,
  description: string,
  more: Omit<VariableDoc, 'description'> = {},
): S {
  // A copy of its own: schemas such as `optionalText` are shared by several variables.
  const own = schema.clone() as S;
  ENV_DOCS.add(own as z.ZodType, { description, ...more });
  return own;
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const optionalUrl = optionalText.pipe(z.url().optional());
/**
 * The environment variables the service reads (CONTRACT §5 plus OIDC, sign-up, cookies, logging,
 * session lifetime, quote and FX sources, the model endpoint and the in-process memo lifetimes),
 * each with its meaning. Every value is a string in the environment; this schema coerces them,
 * and the rules of {@link CONFIG_RULES} tie them together.
 */
const EnvObject = z.object({
  PORT: v(z.coerce.number().int().min(0).max(65_535).default(3000), 'port the service listens on'),
  HOST: v(z.string().min(1).default('127.0.0.1'), 'address the service listens on'),
  BASE_URL: v(
    optionalUrl,
    'public address for links, discovery, the JWT issuer and the Origin check',
    { unset: '`http://{HOST}:{PORT}`' },
  ),
  ACCOUNT_URL: v(optionalUrl, 'address of the account site (`/account/developer`)', {
    unset: '`BASE_URL`',
  }),
  DATABASE_URL: v(optionalText, 'PostgreSQL connection string', {
    unset: 'embedded PGlite in `DATA_DIR`',
    command: true,
  }),
  DATABASE_POOL_MAX: v(
    z.coerce.number().int().min(1).max(1000).default(10),
    'PostgreSQL connections per process',
    { command: true },
  ),
  DATABASE_CONNECT_TIMEOUT_MS: v(
    z.coerce.number().int().min(100).max(600_000).default(5_000),
    'how long a request waits for a database connection before it answers 503 `upstream_unavailable` (with `Retry-After`)',
    { command: true },
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: v(
    z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    'PostgreSQL `statement_timeout` of every connection (`0`: none); the client gives up 5 s later',
    { command: true },
  ),
  DATA_DIR: v(
    z.string().min(1).default('./.data'),
    'embedded database and local secrets (made absolute); the embedded database has one owner process at a time (a second one is refused at start-up: use `DATABASE_URL` for several processes)',
    { command: true },
  ),
  SESSION_SECRET: v(
    optionalText.pipe(
      z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    ),
    'JWT signing secret, at least 32 characters; never logged',
    { unset: 'generated once into `DATA_DIR/session-secret`' },
  ),
  SESSION_TTL_HOURS: v(
    z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24 * 7),
    'session lifetime (JWT `exp` and the session row)',
  ),
  SESSION_CACHE_SECONDS: v(
    z.coerce.number().int().min(0).max(300).optional(),
    'in-process reuse of a verified session (`0`: check the session row on every request); a logout or revocation anywhere acts at once (with `DATABASE_URL` every process hears of it through PostgreSQL `LISTEN/NOTIFY`, and remembers nothing while it cannot)',
    { unset: '`5`' },
  ),
  AUDIT_RETENTION_DAYS: v(
    z.coerce.number().int().min(1).max(3650).default(90),
    'days the activity (audit log) of personal access tokens is kept: each call made with a token (MCP, and REST routes that take one, such as the X-ray): its tool or route, time, outcome, quota spent, duration and redacted arguments; older rows are hidden at once and deleted by an hourly purge (1–3650)',
  ),
  SIGNUP_ENABLED: v(
    booleanFlag.default(true),
    'password sign-up on or off (`POST /api/auth/register` answers 403 `forbidden` when off)',
  ),
  COOKIE_SECURE: v(booleanFlag.optional(), '`Secure` flag of the session cookie', {
    unset: '`true` when `BASE_URL` is https',
  }),
  TRUST_PROXY: v(booleanFlag.default(false), 'trust `X-Forwarded-For` for the client IP'),
  RATE_LIMIT_PER_MINUTE: v(
    z.coerce.number().int().positive().default(300),
    'requests per user and minute on session routes (429 `rate_limited` beyond), counted in the database (shared by every process, like the failed-login throttle)',
  ),
  QUOTA_LIMITS: v(
    optionalText.pipe(z.string().optional()),
    'JSON over the quota defaults, e.g. `{"free":{"stock_evaluation":{"limit":20}}}` (plans `free`/`pro`; quotas `stock_evaluation`/`ai_consult`; `limit` and `period` `day`|`month`)',
    { unset: 'free: 10 evaluations, 5 AI answers a month; pro: 500 and 200', command: true },
  ),
  OIDC_ISSUER_URL: v(optionalUrl, 'OpenID Connect sign-in: the issuer', { unset: 'unset: off' }),
  OIDC_CLIENT_ID: v(optionalText, 'OpenID Connect sign-in: the client id', {
    unset: 'unset: off',
  }),
  OIDC_CLIENT_SECRET: v(optionalText, 'OpenID Connect sign-in: the client secret', {
    unset: 'unset: off',
  }),
  OIDC_REDIRECT_URL: v(optionalUrl, 'redirect URI registered at the OpenID Connect provider', {
    unset: '`{BASE_URL}/api/auth/oidc/callback`',
  }),
  FUNDAMENTALS_PROVIDER: v(
    z.enum(FUNDAMENTALS_PROVIDERS).default('sec-edgar'),
    '`sec-edgar`, `snapshot` or `simfin`; chosen by the server, never by the client',
    { command: true },
  ),
  SEC_USER_AGENT: v(
    optionalText,
    'contact SEC requires, e.g. `Acme Research admin@acme.example` (needed for `sec-edgar`; the server warns at start-up without it)',
    { command: true },
  ),
  SEC_DATA_URL: v(
    z.url().default('https://data.sec.gov'),
    "SEC's data API origin, for every SEC request there (companyfacts, submissions)",
    { command: true },
  ),
  SEC_WWW_URL: v(
    z.url().default('https://www.sec.gov'),
    "SEC's web origin, for every SEC request there (`/files/company_tickers.json`, the daily form index under `/Archives/`)",
    { command: true },
  ),
  REFRESH_SCHEDULE: v(
    z
      .string()
      .trim()
      .refine((value) => value === 'off' || /^(\S+\s+){4}\S+$/.test(value), {
        message: 'REFRESH_SCHEDULE is a 5-field cron expression (UTC) or off',
      })
      .default('30 6 * * *'),
    "when the servers queue a refresh pass (new annual filings in SEC's daily index re-evaluated), a cron expression in UTC on the job queue (pg-boss), once however many processes run; `off`: never on a schedule (`pnpm refresh` still runs one)",
    { command: true },
  ),
  WEBHOOK_ALLOW_PRIVATE: v(
    booleanFlag.default(false),
    'accept webhook URLs that resolve to loopback, private or link-local addresses (otherwise 400, and not delivered to)',
  ),
  FUNDAMENTALS_SNAPSHOT_DIR: v(
    optionalText,
    'folder of companyfacts JSON (`CIK##########.json` or `TICKER_CIK##########.json`), for `snapshot`',
    { command: true },
  ),
  SIMFIN_DIR: v(optionalText, 'folder of SimFin bulk annual CSVs, for `simfin`', {
    command: true,
  }),
  RECONCILE_PROVIDER: v(
    z.enum(RECONCILE_PROVIDER_NAMES).default('off'),
    'a second fundamentals provider every evaluation is reconciled with (issue 39): `simfin`, `sec-edgar`, `snapshot` or `off`; it reads the same ticker and `asOf` with the settings above (`SIMFIN_DIR`, …), and a criterion resting on a series the two disagree on (capex, total debt, net income, equity) carries a `provider_mismatch` flag and earns no points from the gap. A company it lacks, or its failure, leaves the evaluation on the first provider with a `reconcile_unavailable` flag and a warning in the log. A cached evaluation reconciled otherwise is served as it is (its `_reconciliation` says how it was made) and computed again by the refresh pass (`REFRESH_SCHEDULE`, `pnpm refresh`), up to its batch of stale evaluations each pass, with change events whose cause is `methodology`',
    { command: true },
  ),
  EVALUATION_CACHE_MEMO_SECONDS: v(
    z.coerce.number().int().min(0).max(3600).default(10),
    'in-process reuse of a row read from the shared evaluation cache (`0`: off); one stored by this process replaces it at once, one stored by another process is seen within this many seconds',
  ),
  QUOTES_PROVIDER: v(
    z.enum(QUOTES_PROVIDERS).default('none'),
    "the valuation's share price: `csv` (offline daily price files, split-aware), `http` (JSON quote API, `GET {QUOTES_API_URL}/quote?symbol=`) or `none` (price-based fields null)",
    { command: true },
  ),
  PRICES_DIR: v(optionalText, 'folder of price series, for `csv` (made absolute)', {
    command: true,
  }),
  QUOTES_API_URL: v(optionalUrl, 'quote API root, for `http`', { command: true }),
  QUOTES_API_KEY: v(optionalText, 'quote API key (sent as `x-api-key`), for `http`; never logged', {
    command: true,
  }),
  PRICE_HISTORY_URL: v(
    optionalUrl,
    "daily closes for performance figures from a service in Stooq's CSV format, `{listing}` replaced by Stooq's listing of the holding (`aapl.us` in USD, `sap.de`, `asml.nl` in EUR, `nesn.ch` in CHF; London listings are not asked: Stooq mixes pence and pounds) or `{symbol}` by the lower-case ticker (USD closes), e.g. `https://stooq.com/q/d/l/?s={listing}&i=d`; timeouts, retries, past days cached",
    {
      unset:
        'unset: the price files of `PRICES_DIR` when `QUOTES_PROVIDER=csv`, else none (returns `unavailable`)',
    },
  ),
  FX_PROVIDER: v(
    z.enum(FX_PROVIDERS).default('ecb'),
    "EUR reference rates: `ecb` (live: the daily XML for today; past days from the ECB's 90-day XML and, older, its full-history zip `eurofxref-hist.zip`, fetched once when first needed and kept in memory; 5 s / 30 s timeouts, 2 retries with backoff), `ecb-file` (`ECB_FX_FILE`, offline) or `none`. Returns in EUR of non-EUR holdings need past rates: `ecb` or `ecb-file`",
  ),
  ECB_FX_FILE: v(
    optionalText,
    'ECB history CSV (`eurofxref-hist.csv`), for `ecb-file` (made absolute)',
  ),
  ISIN_SYMBOLS_FILE: v(
    optionalText,
    'JSON object `{ "<ISIN>": "<quote symbol>" }`: broker imports that name instruments by ISIN (Trading 212, Saxo, DEGIRO) store the quote symbol instead, keeping the export\'s name, so those holdings get prices and EUR values; unknown ISINs stay the symbol',
  ),
  OPENFIGI_URL: v(
    z
      .string()
      .trim()
      .pipe(z.union([z.literal('off'), z.url()]))
      .default('https://api.openfigi.com'),
    "OpenFIGI's API root, the identifier service that maps an ISIN (or a ticker) to the listing's ticker, exchange and kind when the export, the user's own assignment and SEC's ticker list did not (`POST /v3/mapping`, batched within its limits, answers cached 30 days); `off`: resolve offline only (the bundled resolver file). `scripts/run.sh` sets `off` on its offline defaults",
  ),
  OPENFIGI_API_KEY: v(
    optionalText,
    'OpenFIGI API key (sent as `X-OPENFIGI-APIKEY`): 100 instead of 10 jobs a request, 25 requests per 6 s instead of per minute; never logged',
  ),
  OPENAI_BASE_URL: v(
    optionalUrl,
    'the OpenAI-compatible model endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp…; see `apps/api/README.md`)',
    { unset: 'unset: the OpenAI API' },
  ),
  OPENAI_API_KEY: v(
    optionalText,
    "the model endpoint's key; never logged (local servers that need none get a placeholder)",
  ),
  ADVISOR_MODEL: v(optionalText, "the advisor chat's model", {
    unset: 'unset: the offline advisor rules answer',
  }),
  NARRATIVE_MODEL: v(optionalText, "the moat narrative's model", {
    unset: 'unset: the offline template answers',
  }),
  OPENAI_TIMEOUT_SECONDS: v(
    z.coerce.number().positive().max(600).default(60),
    'timeout of one model request',
  ),
  OPENAI_IDLE_TIMEOUT_SECONDS: v(
    z.coerce.number().positive().max(600).default(30),
    'no chunk for this long aborts the answer',
  ),
  OPENAI_MAX_RETRIES: v(
    z.coerce.number().int().min(0).max(5).default(2),
    "the SDK's retries, which only happen before the first token",
  ),
  OPENAI_MAX_OUTPUT_TOKENS: v(
    z.coerce.number().int().min(64).max(100_000).default(1500),
    'the token budget of one answer (sent as `max_tokens`)',
  ),
  AI_MAX_ANSWER_CHARS: v(
    z.coerce.number().int().min(100).max(1_000_000).default(20_000),
    'the most characters of one AI answer (narrative, advisor turn) the server passes on, whatever the model sends; then `finishReason: "length"`',
  ),
  AI_MAX_LINE_BYTES: v(
    z.coerce
      .number()
      .int()
      .min(4096)
      .max(64 * 1024 * 1024)
      .default(256 * 1024),
    'the most bytes of one line of a model endpoint\'s raw answer, bounded before the SDK decodes it; past it the answer ends with `finishReason: "length"`',
  ),
  AI_MAX_ANSWER_BYTES: v(
    z.coerce
      .number()
      .int()
      .min(65_536)
      .max(1024 * 1024 * 1024)
      .default(16 * 1024 * 1024),
    'the most bytes of one model endpoint answer (tool-call arguments included), bounded before the SDK decodes it; past it the answer ends with `finishReason: "length"`',
  ),
  AI_ANSWER_TIMEOUT_SECONDS: v(
    z.coerce.number().positive().max(3600).default(120),
    'the total time of one AI answer over all its model calls; then `finishReason: "timeout"`, or `upstream_unavailable` before any output',
  ),
  ADVISOR_ACCEPTS_IMAGES: v(
    booleanFlag.default(false),
    'PNG/JPEG attachments go to the advisor model as images (else 415)',
  ),
  SSE_HEARTBEAT_SECONDS: v(
    z.coerce.number().positive().max(300).default(15),
    'heartbeat comment on a silent stream',
  ),
  SHUTDOWN_GRACE_SECONDS: v(
    z.coerce.number().min(1).max(600).default(10),
    'on SIGTERM/SIGINT: stop accepting, let requests in flight finish for this long (streams still open 1 s before the end get a terminal `upstream_unavailable` error event), then exit',
  ),
  LOG_LEVEL: v(z.enum(LOG_LEVELS).default('info'), 'pino level'),
  LOG_FORMAT: v(
    z.enum(LOG_FORMATS).default('auto'),
    '`json` (one object per line), `pretty` (readable, `pino-pretty`) or `auto`: pretty when stdout is a terminal, JSON otherwise',
  ),
  METRICS_TOKEN: v(
    optionalText.pipe(
      z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    ),
    'bearer token (16+ characters) a Prometheus scraper sends to `GET /metrics`',
    { unset: 'unset: no `/metrics` endpoint' },
  ),
});

/** The environment after {@link EnvSchema}: every variable typed, defaults applied. */
export type Env = z.output<typeof EnvObject>;

/** The name of an environment variable the service reads. */
export type EnvName = keyof Env;

/**
 * A rule between variables: while `applies(env)` holds, `holds(env)` must too, else the
 * configuration is refused with `message`, reported on `variable`.
 */
export interface ConfigRule {
  readonly variable: EnvName;
  readonly message: string;
  readonly applies: (env: Env) => boolean;
  readonly holds: (env: Env) => boolean;
}

const isSet = (value: unknown): boolean => value !== undefined;

/** A rule "when `applies`, `variable` must be set", with the message `{because} needs {variable}`. */
const needs = (variable: EnvName, because: string, applies: (env: Env) => boolean): ConfigRule => ({
  variable,
  message: `${because} needs ${variable}`,
  applies,
  holds: (env) => isSet(env[variable]),
});

/** Every rule between variables, in one table (checked by {@link EnvSchema}, listed in the README). */
export const CONFIG_RULES: readonly ConfigRule[] = [
  {
    variable: 'OIDC_ISSUER_URL',
    message: 'set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none',
    applies: (env) =>
      isSet(env.OIDC_ISSUER_URL) || isSet(env.OIDC_CLIENT_ID) || isSet(env.OIDC_CLIENT_SECRET),
    holds: (env) =>
      isSet(env.OIDC_ISSUER_URL) && isSet(env.OIDC_CLIENT_ID) && isSet(env.OIDC_CLIENT_SECRET),
  },
  needs(
    'FUNDAMENTALS_SNAPSHOT_DIR',
    'FUNDAMENTALS_PROVIDER=snapshot',
    (env) => env.FUNDAMENTALS_PROVIDER === 'snapshot',
  ),
  needs(
    'SIMFIN_DIR',
    'FUNDAMENTALS_PROVIDER=simfin',
    (env) => env.FUNDAMENTALS_PROVIDER === 'simfin',
  ),
  needs(
    'FUNDAMENTALS_SNAPSHOT_DIR',
    'RECONCILE_PROVIDER=snapshot',
    (env) => env.RECONCILE_PROVIDER === 'snapshot',
  ),
  needs('SIMFIN_DIR', 'RECONCILE_PROVIDER=simfin', (env) => env.RECONCILE_PROVIDER === 'simfin'),
  {
    variable: 'RECONCILE_PROVIDER',
    message:
      'RECONCILE_PROVIDER names the provider FUNDAMENTALS_PROVIDER already reads: set another, or off',
    applies: (env) => env.RECONCILE_PROVIDER !== 'off',
    holds: (env) => env.RECONCILE_PROVIDER !== env.FUNDAMENTALS_PROVIDER,
  },
  needs('PRICES_DIR', 'QUOTES_PROVIDER=csv', (env) => env.QUOTES_PROVIDER === 'csv'),
  {
    variable: 'PRICE_HISTORY_URL',
    message:
      'PRICE_HISTORY_URL needs the placeholder {listing} or {symbol} (e.g. https://stooq.com/q/d/l/?s={listing}&i=d)',
    applies: (env) => isSet(env.PRICE_HISTORY_URL),
    holds: (env) =>
      env.PRICE_HISTORY_URL?.includes('{symbol}') === true ||
      env.PRICE_HISTORY_URL?.includes('{listing}') === true,
  },
  needs('QUOTES_API_URL', 'QUOTES_PROVIDER=http', (env) => env.QUOTES_PROVIDER === 'http'),
  {
    variable: 'OPENAI_API_KEY',
    message:
      'a model is named: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server)',
    applies: (env) => isSet(env.NARRATIVE_MODEL) || isSet(env.ADVISOR_MODEL),
    holds: (env) => isSet(env.OPENAI_BASE_URL) || isSet(env.OPENAI_API_KEY),
  },
  {
    variable: 'NARRATIVE_MODEL',
    message: 'an endpoint is set: name NARRATIVE_MODEL and/or ADVISOR_MODEL',
    applies: (env) => isSet(env.OPENAI_BASE_URL) || isSet(env.OPENAI_API_KEY),
    holds: (env) => isSet(env.NARRATIVE_MODEL) || isSet(env.ADVISOR_MODEL),
  },
  needs('ECB_FX_FILE', 'FX_PROVIDER=ecb-file', (env) => env.FX_PROVIDER === 'ecb-file'),
];

/**
 * The environment variables the service reads, each with its type, check, default and meaning,
 * and the rules between them ({@link CONFIG_RULES}). Every value is a string in the environment;
 * this schema coerces them.
 */
export const EnvSchema = EnvObject.superRefine((env, ctx) => {
  for (const rule of CONFIG_RULES) {
    if (rule.applies(env) && !rule.holds(env)) {
      ctx.addIssue({ code: 'custom', path: [rule.variable], message: rule.message });
    }
  }
});

/** One variable as the README's configuration table shows it ({@link describeEnvironment}). */
export interface VariableDescription extends VariableDoc {
  readonly name: EnvName;
  /** The schema's default as the environment would spell it (`3000`, `sec-edgar`, `true`), if any. */
  readonly default: string | undefined;
}

/** Every variable of {@link EnvSchema} with its meaning and default, in the schema's order. */
export function describeEnvironment(): VariableDescription[] {
  return (Object.keys(EnvObject.shape) as EnvName[]).map((name) => {
    const schema = EnvObject.shape[name];
    const doc = ENV_DOCS.get(schema);
    if (doc === undefined) throw new Error(`${name} has no description: declare it with v()`);
    const fallback = schema.safeParse(undefined);
    const value = fallback.success ? fallback.data : undefined;
    return { name, ...doc, default: value === undefined ? undefined : String(value) };
  });
}

/** The variables whose {@link VariableDoc} says `command`: what the command line tools read. */
export function commandEnvNames(): EnvName[] {
  return describeEnvironment()
    .filter((variable) => variable.command === true)
    .map((variable) => variable.name);
}

export type { OidcConfig } from '@svc/use-cases';

/** Thrown by {@link parseConfig} when the environment is invalid; `issues` lists every problem. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly issues: readonly string[];

  constructor(issues: readonly string[]) {
    super(`invalid configuration:\n  ${issues.join('\n  ')}`);
    this.issues = issues;
  }
}

/**
 * Parses `QUOTA_LIMITS`, e.g. `{"free":{"stock_evaluation":{"limit":20}}}`, against
 * `@svc/quota`'s override schema (plans free/pro; quotas stock_evaluation/ai_consult; limit and
 * period day|month).
 */
function parseQuotaLimits(raw: string | undefined): QuotaLimitOverrides {
  if (raw === undefined) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError(['QUOTA_LIMITS: not valid JSON']);
  }
  const parsed = QuotaLimitOverridesSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `QUOTA_LIMITS.${i.path.join('.')}: ${i.message}`),
    );
  }
  return parsed.data;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');
const absolute = (path: string | undefined): string | undefined =>
  path === undefined ? undefined : resolve(path);

/**
 * The typed configuration of a validated environment: the variables grouped by what reads them,
 * durations in ms or s as named, paths absolute, URLs without trailing slash, and the defaults
 * derived from other variables (`BASE_URL`, `ACCOUNT_URL`, `COOKIE_SECURE`, `OIDC_REDIRECT_URL`,
 * `SESSION_CACHE_SECONDS`). The meaning of each field is its variable's description in
 * {@link EnvSchema}.
 */
function toConfig(e: Env) {
  const hostForUrl = e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST;
  const baseUrl = trimSlash(e.BASE_URL ?? `http://${hostForUrl}:${e.PORT}`);
  const oidc: OidcConfig | undefined =
    e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
      ? {
          issuerUrl: e.OIDC_ISSUER_URL,
          clientId: e.OIDC_CLIENT_ID,
          clientSecret: e.OIDC_CLIENT_SECRET,
          redirectUrl: e.OIDC_REDIRECT_URL ?? `${baseUrl}/api/auth/oidc/callback`,
        }
      : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    /** Public origin + path prefix used in links and discovery documents, no trailing slash. */
    baseUrl,
    accountUrl: trimSlash(e.ACCOUNT_URL ?? baseUrl),
    /** `undefined` selects the embedded PGlite database in `dataDir`. */
    databaseUrl: e.DATABASE_URL,
    /** PostgreSQL pool settings (ignored by the embedded database). */
    databasePool: {
      max: e.DATABASE_POOL_MAX,
      connectionTimeoutMillis: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMillis: e.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    dataDir: resolve(e.DATA_DIR),
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    fundamentals: {
      provider: e.FUNDAMENTALS_PROVIDER,
      secUserAgent: e.SEC_USER_AGENT,
      /** No trailing slash. */
      secDataUrl: trimSlash(e.SEC_DATA_URL),
      /** No trailing slash. */
      secWwwUrl: trimSlash(e.SEC_WWW_URL),
      snapshotDir: e.FUNDAMENTALS_SNAPSHOT_DIR,
      simfinDir: e.SIMFIN_DIR,
      reconcileProvider: e.RECONCILE_PROVIDER,
    },
    quotes: {
      provider: e.QUOTES_PROVIDER,
      pricesDir: absolute(e.PRICES_DIR),
      apiUrl: e.QUOTES_API_URL === undefined ? undefined : trimSlash(e.QUOTES_API_URL),
      apiKey: e.QUOTES_API_KEY,
    },
    fx: { provider: e.FX_PROVIDER, file: absolute(e.ECB_FX_FILE) },
    isinSymbolsFile: absolute(e.ISIN_SYMBOLS_FILE),
    /** Null for `off`. */
    openFigi:
      e.OPENFIGI_URL === 'off'
        ? null
        : { url: trimSlash(e.OPENFIGI_URL), apiKey: e.OPENFIGI_API_KEY },
    priceHistoryUrl: e.PRICE_HISTORY_URL,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS ?? 5,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    evaluationMemoSeconds: e.EVALUATION_CACHE_MEMO_SECONDS,
    /** Null for `off`. */
    refreshSchedule: e.REFRESH_SCHEDULE === 'off' ? null : e.REFRESH_SCHEDULE,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    openai: {
      baseUrl: e.OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      advisorModel: e.ADVISOR_MODEL,
      narrativeModel: e.NARRATIVE_MODEL,
      timeoutMs: e.OPENAI_TIMEOUT_SECONDS * 1000,
      idleTimeoutMs: e.OPENAI_IDLE_TIMEOUT_SECONDS * 1000,
      maxRetries: e.OPENAI_MAX_RETRIES,
      maxOutputTokens: e.OPENAI_MAX_OUTPUT_TOKENS,
      maxAnswerChars: e.AI_MAX_ANSWER_CHARS,
      maxLineBytes: e.AI_MAX_LINE_BYTES,
      maxAnswerBytes: e.AI_MAX_ANSWER_BYTES,
      answerTimeoutMs: e.AI_ANSWER_TIMEOUT_SECONDS * 1000,
      acceptsImages: e.ADVISOR_ACCEPTS_IMAGES,
    },
    sseHeartbeatMs: e.SSE_HEARTBEAT_SECONDS * 1000,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    oidc,
    signupEnabled: e.SIGNUP_ENABLED,
    cookieSecure: e.COOKIE_SECURE ?? baseUrl.startsWith('https:'),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    /** Unset: `GET /metrics` does not exist. */
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    quotaLimits: parseQuotaLimits(e.QUOTA_LIMITS),
    /** `SESSION_SECRET`, or `undefined` to load/generate one ({@link loadConfig}). */
    sessionSecretFromEnv: e.SESSION_SECRET,
  } as const;
}

/** Configuration without the session secret: the pure result of {@link parseConfig}. */
export type BaseConfig = ReturnType<typeof toConfig>;

/** Where the session secret came from. */
export type SessionSecretSource = 'environment' | 'data-dir' | 'generated';

/** The validated, typed configuration of the service. */
export interface AppConfig extends Omit<BaseConfig, 'sessionSecretFromEnv'> {
  /** HS256 key for session JWTs (at least 32 bytes). Never logged. */
  readonly sessionSecret: Uint8Array;
  readonly sessionSecretSource: SessionSecretSource;
}

/**
 * Validates an environment into a typed configuration, without touching the file system: every
 * variable against {@link EnvSchema} (defaults there, CONTRACT §5), every rule of
 * {@link CONFIG_RULES}, then {@link toConfig}'s derived defaults (`BASE_URL` is
 * `http://{HOST}:{PORT}`, `ACCOUNT_URL` is `BASE_URL`, `COOKIE_SECURE` follows its scheme,
 * `OIDC_REDIRECT_URL` is `{BASE_URL}/api/auth/oidc/callback`, `SESSION_CACHE_SECONDS` is 5).
 *
 * @throws {ConfigError} listing every invalid variable.
 * @example
 * const base = parseConfig({ PORT: '8080', SIGNUP_ENABLED: 'false' });
 * base.baseUrl; // 'http://127.0.0.1:8080'
 */
export function parseConfig(env: Record<string, string | undefined>): BaseConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  return toConfig(parsed.data);
}
/** Minimal logger the configuration loader reports to (pino and console both fit). */
export interface ConfigLogger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Returns the session secret kept in `dataDir/session-secret`, generating 32 random bytes
 * (base64url, file mode 0600) on first start. Creation uses an exclusive open, so two processes
 * starting together end up with the same secret.
 */
export async function loadOrCreateSessionSecret(
  dataDir: string,
): Promise<{ secret: Uint8Array; created: boolean; path: string }> {
  const path = join(dataDir, SESSION_SECRET_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const fresh = randomBytes(32).toString('base64url');
  try {
    await writeFile(path, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
    return { secret: Buffer.from(fresh, 'base64url'), created: true, path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stored = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64url');
  if (stored.length < 32) {
    throw new ConfigError([`${path}: the stored session secret is shorter than 32 bytes`]);
  }
  return { secret: stored, created: false, path };
}

/**
 * Reads and validates the configuration once, at the app's edge: {@link parseConfig} plus the
 * session secret (from `SESSION_SECRET`, else kept in / generated into `DATA_DIR`; it says so in
 * the log, and is never hard-coded).
 *
 * @throws {ConfigError} when the environment is invalid.
 * @example
 * const config = await loadConfig(process.env, logger);
 */
export async function loadConfig(
  env: Record<string, string | undefined>,
  logger: ConfigLogger,
): Promise<AppConfig> {
  const { sessionSecretFromEnv, ...base } = parseConfig(env);
  if (base.fundamentals.provider === 'sec-edgar' && base.fundamentals.secUserAgent === undefined) {
    logger.warn('SEC_USER_AGENT is not set: SEC EDGAR requests will be refused until it is');
  }
  if (sessionSecretFromEnv !== undefined) {
    return {
      ...base,
      sessionSecret: new TextEncoder().encode(sessionSecretFromEnv),
      sessionSecretSource: 'environment',
    };
  }
  const { secret, created, path } = await loadOrCreateSessionSecret(base.dataDir);
  if (created) {
    logger.info(`SESSION_SECRET not set: generated a new local session secret in ${path} (0600)`);
  } else {
    logger.info(`SESSION_SECRET not set: using the local session secret kept in ${path}`);
  }
  return {
    ...base,
    sessionSecret: secret,
    sessionSecretSource: created ? 'generated' : 'data-dir',
  };
}
