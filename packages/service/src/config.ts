import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type QuotaLimitOverrides, QuotaLimitOverridesSchema } from '@svc/quota';
import type { OidcConfig } from '@svc/use-cases';
import { z } from 'zod';

/** Log levels accepted by `LOG_LEVEL` (pino's names). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Log formats accepted by `LOG_FORMAT`: `auto` is `pretty` when stdout is a terminal. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** Fundamentals providers the server may select (CONTRACT §5); the client never chooses one. */
export const FUNDAMENTALS_PROVIDERS = ['sec-edgar', 'snapshot', 'simfin'] as const;

/** Quote sources the server may use for the valuation's share price (`QUOTES_PROVIDER`). */
export const QUOTES_PROVIDERS = ['csv', 'http', 'none'] as const;

/** FX (EUR reference rate) sources (`FX_PROVIDER`): ECB live daily XML, an ECB CSV file, none. */
export const FX_PROVIDERS = ['ecb', 'ecb-file', 'none'] as const;

/** Name of the file under `DATA_DIR` that keeps the generated session secret. */
export const SESSION_SECRET_FILE = 'session-secret';

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
 * session lifetime, quote and FX sources, and the in-process session/evaluation memo lifetimes). Every value is a string in the environment; this schema coerces them.
 */
export const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    BASE_URL: optionalUrl,
    ACCOUNT_URL: optionalUrl,
    DATABASE_URL: optionalText,
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
    DATA_DIR: z.string().min(1).default('./.data'),
    SESSION_SECRET: optionalText.pipe(
      z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    ),
    SESSION_TTL_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24 * 7),
    FUNDAMENTALS_PROVIDER: z.enum(FUNDAMENTALS_PROVIDERS).default('sec-edgar'),
    SEC_USER_AGENT: optionalText,
    SEC_DATA_URL: z.url().default('https://data.sec.gov'),
    SEC_WWW_URL: z.url().default('https://www.sec.gov'),
    REFRESH_SCHEDULE: z
      .string()
      .trim()
      .refine((v) => v === 'off' || /^(\S+\s+){4}\S+$/.test(v), {
        message: 'REFRESH_SCHEDULE is a 5-field cron expression (UTC) or off',
      })
      .default('30 6 * * *'),
    WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
    FUNDAMENTALS_SNAPSHOT_DIR: optionalText,
    SIMFIN_DIR: optionalText,
    QUOTES_PROVIDER: z.enum(QUOTES_PROVIDERS).default('none'),
    PRICES_DIR: optionalText,
    QUOTES_API_URL: optionalUrl,
    QUOTES_API_KEY: optionalText,
    PRICE_HISTORY_URL: optionalUrl,
    FX_PROVIDER: z.enum(FX_PROVIDERS).default('ecb'),
    ECB_FX_FILE: optionalText,
    ISIN_SYMBOLS_FILE: optionalText,
    SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    EVALUATION_CACHE_MEMO_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_API_KEY: optionalText,
    ADVISOR_MODEL: optionalText,
    NARRATIVE_MODEL: optionalText,
    OPENAI_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
    OPENAI_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
    OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
    OPENAI_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).max(100_000).default(1500),
    AI_MAX_ANSWER_CHARS: z.coerce.number().int().min(100).max(1_000_000).default(20_000),
    AI_ANSWER_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
    ADVISOR_ACCEPTS_IMAGES: booleanFlag.default(false),
    SSE_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(15),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(1).max(600).default(10),
    OIDC_ISSUER_URL: optionalUrl,
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OIDC_REDIRECT_URL: optionalUrl,
    SIGNUP_ENABLED: booleanFlag.default(true),
    COOKIE_SECURE: booleanFlag.optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    LOG_FORMAT: z.enum(LOG_FORMATS).default('auto'),
    METRICS_TOKEN: optionalText.pipe(
      z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    ),
    TRUST_PROXY: booleanFlag.default(false),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(300),
    QUOTA_LIMITS: optionalText.pipe(z.string().optional()),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    const set = oidc.filter((value) => value !== undefined).length;
    if (set !== 0 && set !== oidc.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER_URL'],
        message: 'set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none',
      });
    }
    if (env.FUNDAMENTALS_PROVIDER === 'snapshot' && env.FUNDAMENTALS_SNAPSHOT_DIR === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['FUNDAMENTALS_SNAPSHOT_DIR'],
        message: 'FUNDAMENTALS_PROVIDER=snapshot needs FUNDAMENTALS_SNAPSHOT_DIR',
      });
    }
    if (env.FUNDAMENTALS_PROVIDER === 'simfin' && env.SIMFIN_DIR === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['SIMFIN_DIR'],
        message: 'FUNDAMENTALS_PROVIDER=simfin needs SIMFIN_DIR',
      });
    }
    requireFor(
      ctx,
      env.QUOTES_PROVIDER === 'csv',
      env.PRICES_DIR,
      'PRICES_DIR',
      'QUOTES_PROVIDER=csv',
    );
    if (env.PRICE_HISTORY_URL !== undefined && !env.PRICE_HISTORY_URL.includes('{symbol}')) {
      ctx.addIssue({
        code: 'custom',
        path: ['PRICE_HISTORY_URL'],
        message:
          'PRICE_HISTORY_URL needs the placeholder {symbol} (e.g. https://stooq.com/q/d/l/?s={symbol}.us&i=d)',
      });
    }
    requireFor(
      ctx,
      env.QUOTES_PROVIDER === 'http',
      env.QUOTES_API_URL,
      'QUOTES_API_URL',
      'QUOTES_PROVIDER=http',
    );
    const modelSet = env.NARRATIVE_MODEL !== undefined || env.ADVISOR_MODEL !== undefined;
    const endpointSet = env.OPENAI_BASE_URL !== undefined || env.OPENAI_API_KEY !== undefined;
    if (modelSet && !endpointSet) {
      ctx.addIssue({
        code: 'custom',
        path: ['OPENAI_API_KEY'],
        message:
          'a model is named: set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server)',
      });
    }
    if (endpointSet && !modelSet) {
      ctx.addIssue({
        code: 'custom',
        path: ['NARRATIVE_MODEL'],
        message: 'an endpoint is set: name NARRATIVE_MODEL and/or ADVISOR_MODEL',
      });
    }
    requireFor(
      ctx,
      env.FX_PROVIDER === 'ecb-file',
      env.ECB_FX_FILE,
      'ECB_FX_FILE',
      'FX_PROVIDER=ecb-file',
    );
  });

/** Adds an issue when `when` holds and the variable `name` is unset. */
function requireFor(
  ctx: z.RefinementCtx,
  when: boolean,
  value: string | undefined,
  name: string,
  because: string,
): void {
  if (when && value === undefined) {
    ctx.addIssue({ code: 'custom', path: [name], message: `${because} needs ${name}` });
  }
}

export type { OidcConfig } from '@svc/use-cases';

/** Configuration without the session secret: the pure result of {@link parseConfig}. */
export interface BaseConfig {
  readonly port: number;
  readonly host: string;
  /** Public origin + path prefix used in links and discovery documents, without trailing slash. */
  readonly baseUrl: string;
  /** Public address of the account site (`/account/developer`), default `baseUrl`. */
  readonly accountUrl: string;
  /** PostgreSQL URL; `undefined` selects the embedded PGlite database in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * PostgreSQL pool settings (ignored by the embedded database): `max` connections
   * (`DATABASE_POOL_MAX`, default 10), milliseconds to wait for a connection before the request
   * answers 503 (`DATABASE_CONNECT_TIMEOUT_MS`, default 5 000), and the server-side
   * `statement_timeout` of every query (`DATABASE_STATEMENT_TIMEOUT_MS`, default 30 000, 0 off).
   */
  readonly databasePool: {
    readonly max: number;
    readonly connectionTimeoutMillis: number;
    readonly statementTimeoutMillis: number;
  };
  /** Absolute path of the data directory (embedded database, generated secrets). */
  readonly dataDir: string;
  /** Session lifetime in seconds (JWT `exp` and the session row's `expires_at`). */
  readonly sessionTtlSeconds: number;
  readonly fundamentals: {
    readonly provider: (typeof FUNDAMENTALS_PROVIDERS)[number];
    readonly secUserAgent: string | undefined;
    /** `SEC_DATA_URL`: companyfacts and submissions (default `https://data.sec.gov`), no trailing slash. */
    readonly secDataUrl: string;
    /** `SEC_WWW_URL`: ticker map and `/Archives/…` (default `https://www.sec.gov`), no trailing slash. */
    readonly secWwwUrl: string;
    readonly snapshotDir: string | undefined;
    readonly simfinDir: string | undefined;
  };
  /**
   * Where the valuation's share price comes from: `csv` reads daily price files under
   * `pricesDir` (offline, split-aware), `http` asks a JSON quote API at `apiUrl`
   * (`GET {apiUrl}/quote?symbol=`, key sent as `x-api-key`), `none` leaves the price-based
   * valuation fields (P/E, PEG, market cap) null.
   */
  readonly quotes: {
    readonly provider: (typeof QUOTES_PROVIDERS)[number];
    /** `PRICES_DIR`: absolute path of the price series folders (csv). */
    readonly pricesDir: string | undefined;
    /** `QUOTES_API_URL`: API root of the quote service (http). */
    readonly apiUrl: string | undefined;
    /** `QUOTES_API_KEY`: the quote API key (http); never logged. */
    readonly apiKey: string | undefined;
  };
  /**
   * Where EUR reference rates come from (portfolio valuation in EUR): `ecb` fetches the ECB's
   * daily XML live, `ecb-file` reads an ECB history CSV (`eurofxref-hist.csv`) at `file`,
   * `none` leaves EUR amounts null.
   */
  readonly fx: {
    readonly provider: (typeof FX_PROVIDERS)[number];
    /** `ECB_FX_FILE`: absolute path of the ECB CSV (ecb-file). */
    readonly file: string | undefined;
  };
  /**
   * `ISIN_SYMBOLS_FILE`: absolute path of a JSON object `{ "<ISIN>": "<quote symbol>" }`; broker
   * imports store the quote symbol for those ISINs (names kept). Unset: ISINs stay symbols.
   */
  readonly isinSymbolsFile: string | undefined;
  /**
   * `PRICE_HISTORY_URL`: a daily-CSV service in Stooq's format for performance figures, `{symbol}`
   * replaced by the lower-case ticker (closes in USD); unset: the price files of `PRICES_DIR`
   * when `QUOTES_PROVIDER=csv`, else no history (returns `unavailable`).
   */
  readonly priceHistoryUrl: string | undefined;
  /**
   * Seconds a verified session (JWT + live session row + user) is kept in process memory
   * (`SESSION_CACHE_SECONDS`, 0 disables; default 5). Revocation stays immediate everywhere:
   * with the embedded database one process owns every session; with `DATABASE_URL` each process
   * listens (PostgreSQL `LISTEN`) for the sessions that database triggers announce as ended, and
   * remembers nothing while it is not listening.
   */
  readonly sessionCacheSeconds: number;
  /**
   * Days a personal access token's recorded MCP calls are kept (`AUDIT_RETENTION_DAYS`, 1 to
   * 3650; default 90): older ones are no longer shown and are deleted by an hourly purge.
   */
  readonly auditRetentionDays: number;
  /**
   * Seconds a row read from the shared evaluation cache is kept in process memory
   * (`EVALUATION_CACHE_MEMO_SECONDS`, 0 disables). Evaluations stored by this process replace
   * it at once; one stored by another process is seen here within this many seconds.
   */
  readonly evaluationMemoSeconds: number;
  /**
   * `REFRESH_SCHEDULE`: when the refresh pass (new annual filings in SEC's daily index) runs, a
   * cron expression in UTC on the job queue, once however many processes run; null (`off`): never
   * on a schedule (`pnpm refresh` still runs one).
   */
  readonly refreshSchedule: string | null;
  /**
   * `WEBHOOK_ALLOW_PRIVATE`: accept webhook URLs that resolve to loopback, private or link-local
   * addresses (default false: refused with 400, and not delivered to).
   */
  readonly webhookAllowPrivate: boolean;
  /**
   * The OpenAI-compatible model endpoint (OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp…). A
   * model name unset: that flow answers offline (the template / the advisor's rules).
   */
  readonly openai: {
    /** `OPENAI_BASE_URL`; unset: the OpenAI API. */
    readonly baseUrl: string | undefined;
    /** `OPENAI_API_KEY`; never logged. Local servers that need none get a placeholder. */
    readonly apiKey: string | undefined;
    /** `ADVISOR_MODEL`: the advisor chat's model. */
    readonly advisorModel: string | undefined;
    /** `NARRATIVE_MODEL`: the moat narrative's model. */
    readonly narrativeModel: string | undefined;
    /** `OPENAI_TIMEOUT_SECONDS` (60) as ms: the SDK's timeout of one model request. */
    readonly timeoutMs: number;
    /** `OPENAI_IDLE_TIMEOUT_SECONDS` (30) as ms: no chunk for this long aborts the answer. */
    readonly idleTimeoutMs: number;
    /** `OPENAI_MAX_RETRIES` (2): the SDK's retries, which only happen before the first token. */
    readonly maxRetries: number;
    /** `OPENAI_MAX_OUTPUT_TOKENS` (1500): the token budget of one answer (sent as `max_tokens`). */
    readonly maxOutputTokens: number;
    /**
     * `AI_MAX_ANSWER_CHARS` (20000): the most characters of one answer (narrative or advisor
     * turn) the server passes on, whatever the model sends; then `finishReason: "length"`.
     */
    readonly maxAnswerChars: number;
    /**
     * `AI_ANSWER_TIMEOUT_SECONDS` (120) as ms: the total time of one answer, over all its model
     * calls (not only idle time); then `finishReason: "timeout"`, or `upstream_unavailable` when
     * nothing was shown.
     */
    readonly answerTimeoutMs: number;
    /** `ADVISOR_ACCEPTS_IMAGES` (false): PNG/JPEG attachments are sent as image parts (else 415). */
    readonly acceptsImages: boolean;
  };
  /** `SSE_HEARTBEAT_SECONDS` (15) as ms: a comment line after this much silence on a stream. */
  readonly sseHeartbeatMs: number;
  /**
   * `SHUTDOWN_GRACE_SECONDS` (10) as ms: on SIGTERM/SIGINT the server stops accepting, lets
   * requests in flight finish for this long, ends event streams still open 1 s before it with a
   * terminal error event (`upstream_unavailable`: retry), then exits.
   */
  readonly shutdownGraceMs: number;
  readonly oidc: OidcConfig | undefined;
  /** Whether `POST /api/auth/register` creates accounts (403 `forbidden` when false). */
  readonly signupEnabled: boolean;
  /** Whether the session cookie carries `Secure`; default: `baseUrl` is https. */
  readonly cookieSecure: boolean;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** `LOG_FORMAT`: `json` lines, `pretty` (pino-pretty), or `auto` (pretty on a terminal). */
  readonly logFormat: (typeof LOG_FORMATS)[number];
  /** `METRICS_TOKEN`: bearer token of `GET /metrics`; unset, the endpoint does not exist. */
  readonly metricsToken: string | undefined;
  /** Whether `X-Forwarded-For` is trusted for the client IP (behind a reverse proxy). */
  readonly trustProxy: boolean;
  /** Requests per user and minute on session routes (429 `rate_limited` beyond). */
  readonly rateLimitPerMinute: number;
  /** Quota limits laid over `@svc/quota`'s defaults (`QUOTA_LIMITS`, JSON). */
  readonly quotaLimits: QuotaLimitOverrides;
  /** The session secret from `SESSION_SECRET`, or `undefined` to load/generate one. */
  readonly sessionSecretFromEnv: string | undefined;
}

/** Where the session secret came from. */
export type SessionSecretSource = 'environment' | 'data-dir' | 'generated';

/** The validated, typed configuration of the service. */
export interface AppConfig extends Omit<BaseConfig, 'sessionSecretFromEnv'> {
  /** HS256 key for session JWTs (at least 32 bytes). Never logged. */
  readonly sessionSecret: Uint8Array;
  readonly sessionSecretSource: SessionSecretSource;
}

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

/**
 * Validates an environment into a typed configuration, without touching the file system.
 *
 * Defaults follow CONTRACT §5: `BASE_URL` is `http://{HOST}:{PORT}`, `ACCOUNT_URL` is `BASE_URL`,
 * `COOKIE_SECURE` follows the scheme of `BASE_URL`, `OIDC_REDIRECT_URL` is
 * `{BASE_URL}/api/auth/oidc/callback`, `SESSION_TTL_HOURS` is 168 (7 days), `QUOTES_PROVIDER` is
 * `none`, `FX_PROVIDER` is `ecb` (live), `SESSION_CACHE_SECONDS` is 5 on the embedded database
 * and 0 with `DATABASE_URL`,
 * `EVALUATION_CACHE_MEMO_SECONDS` is 10. `PRICES_DIR` (csv quotes), `QUOTES_API_URL` (http quotes)
 * and `ECB_FX_FILE` (ecb-file) are required by the choice that reads them; paths are made absolute.
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
  const e = parsed.data;
  const quotaLimits = parseQuotaLimits(e.QUOTA_LIMITS);
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
    baseUrl,
    accountUrl: trimSlash(e.ACCOUNT_URL ?? baseUrl),
    databaseUrl: e.DATABASE_URL,
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
      secDataUrl: trimSlash(e.SEC_DATA_URL),
      secWwwUrl: trimSlash(e.SEC_WWW_URL),
      snapshotDir: e.FUNDAMENTALS_SNAPSHOT_DIR,
      simfinDir: e.SIMFIN_DIR,
    },
    quotes: {
      provider: e.QUOTES_PROVIDER,
      pricesDir: e.PRICES_DIR === undefined ? undefined : resolve(e.PRICES_DIR),
      apiUrl: e.QUOTES_API_URL === undefined ? undefined : trimSlash(e.QUOTES_API_URL),
      apiKey: e.QUOTES_API_KEY,
    },
    fx: {
      provider: e.FX_PROVIDER,
      file: e.ECB_FX_FILE === undefined ? undefined : resolve(e.ECB_FX_FILE),
    },
    isinSymbolsFile: e.ISIN_SYMBOLS_FILE === undefined ? undefined : resolve(e.ISIN_SYMBOLS_FILE),
    priceHistoryUrl: e.PRICE_HISTORY_URL,
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS ?? 5,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    evaluationMemoSeconds: e.EVALUATION_CACHE_MEMO_SECONDS,
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
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    quotaLimits,
    sessionSecretFromEnv: e.SESSION_SECRET,
  };
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
