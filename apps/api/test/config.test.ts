import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMMAND_ENV_KEYS,
  CONFIG_RULES,
  ConfigError,
  createModelEndpoints,
  describeEnvironment,
  EnvSchema,
  loadConfig,
  openReconcileProvider,
  parseConfig,
} from '@svc/service';
import { afterEach, describe, expect, it } from 'vitest';

describe('parseConfig', () => {
  it('reads the model endpoint settings, with defaults, and builds endpoints only for named models', () => {
    const offline = parseConfig({});
    expect(offline.openai).toMatchObject({
      timeoutMs: 60_000,
      idleTimeoutMs: 30_000,
      maxRetries: 2,
      maxOutputTokens: 1500,
      maxAnswerChars: 20_000,
      answerTimeoutMs: 120_000,
      acceptsImages: false,
    });
    expect(offline.sseHeartbeatMs).toBe(15_000);
    expect(createModelEndpoints(offline.openai)).toEqual({ narrative: null, advisor: null });

    const ollama = parseConfig({
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      ADVISOR_MODEL: 'llama3.1:8b',
      ADVISOR_ACCEPTS_IMAGES: 'true',
      OPENAI_TIMEOUT_SECONDS: '120',
    });
    const endpoints = createModelEndpoints(ollama.openai);
    expect(endpoints.narrative).toBeNull();
    expect(endpoints.advisor).toMatchObject({ model: 'llama3.1:8b', acceptsImages: true });
    expect(endpoints.advisor?.client.baseURL).toBe('http://127.0.0.1:11434/v1');
    expect(endpoints.advisor?.client.apiKey).toBe('unused');
    expect(endpoints.advisor?.client.timeout).toBe(120_000);
  });

  it('refuses a model without an endpoint, an endpoint without a model, and bad numbers', () => {
    expect(() => parseConfig({ NARRATIVE_MODEL: 'gpt-4o-mini' })).toThrow(/OPENAI_API_KEY/);
    expect(() => parseConfig({ OPENAI_API_KEY: 'sk-x' })).toThrow(/NARRATIVE_MODEL/);
    expect(() =>
      parseConfig({ OPENAI_API_KEY: 'sk-x', NARRATIVE_MODEL: 'm', OPENAI_MAX_OUTPUT_TOKENS: '0' }),
    ).toThrow(ConfigError);
    expect(() => parseConfig({ ADVISOR_ACCEPTS_IMAGES: 'maybe' })).toThrow(ConfigError);
  });

  it('describes every variable once, from the schema, with the defaults the parser applies', () => {
    const described = describeEnvironment();
    expect(described.map((variable) => variable.name)).toEqual(Object.keys(EnvSchema.shape));
    expect(new Set(described.map((variable) => variable.description)).size).toBe(described.length);
    const byName = new Map(described.map((variable) => [variable.name, variable]));
    expect(byName.get('PORT')?.default).toBe('3000');
    expect(byName.get('SIGNUP_ENABLED')?.default).toBe('true');
    expect(byName.get('FUNDAMENTALS_PROVIDER')?.default).toBe('sec-edgar');
    expect(byName.get('BASE_URL')).toMatchObject({
      default: undefined,
      unset: '`http://{HOST}:{PORT}`',
    });
    expect(COMMAND_ENV_KEYS).toEqual([
      'DATABASE_URL',
      'DATABASE_POOL_MAX',
      'DATABASE_CONNECT_TIMEOUT_MS',
      'DATABASE_STATEMENT_TIMEOUT_MS',
      'DATA_DIR',
      'QUOTA_LIMITS',
      'FUNDAMENTALS_PROVIDER',
      'SEC_USER_AGENT',
      'SEC_DATA_URL',
      'SEC_WWW_URL',
      'REFRESH_SCHEDULE',
      'FUNDAMENTALS_SNAPSHOT_DIR',
      'SIMFIN_DIR',
      'RECONCILE_PROVIDER',
      'QUOTES_PROVIDER',
      'PRICES_DIR',
      'QUOTES_API_URL',
      'QUOTES_API_KEY',
    ]);
    // every rule names a variable of the schema and is what parseConfig reports
    for (const rule of CONFIG_RULES) expect(Object.keys(EnvSchema.shape)).toContain(rule.variable);
    expect(() => parseConfig({ FX_PROVIDER: 'ecb-file' })).toThrow(
      CONFIG_RULES.find((rule) => rule.variable === 'ECB_FX_FILE')?.message,
    );
  });

  it('reads the SEC origins, the refresh schedule and the webhook address rule (CONTRACT §7)', () => {
    expect(parseConfig({})).toMatchObject({
      fundamentals: { secDataUrl: 'https://data.sec.gov', secWwwUrl: 'https://www.sec.gov' },
      refreshSchedule: '30 6 * * *',
      webhookAllowPrivate: false,
    });
    expect(
      parseConfig({
        SEC_DATA_URL: 'http://127.0.0.1:9000/',
        SEC_WWW_URL: 'http://127.0.0.1:9001',
        REFRESH_SCHEDULE: 'off',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
    ).toMatchObject({
      fundamentals: { secDataUrl: 'http://127.0.0.1:9000', secWwwUrl: 'http://127.0.0.1:9001' },
      refreshSchedule: null,
      webhookAllowPrivate: true,
    });
    expect(() => parseConfig({ REFRESH_SCHEDULE: 'daily' })).toThrow(/REFRESH_SCHEDULE/);
    expect(() => parseConfig({ SEC_WWW_URL: 'not a url' })).toThrow(/SEC_WWW_URL/);
  });

  it('applies the CONTRACT §5 defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1:3000',
      accountUrl: 'http://127.0.0.1:3000',
      databaseUrl: undefined,
      signupEnabled: true,
      cookieSecure: false,
      sessionTtlSeconds: 7 * 24 * 3600,
      fundamentals: { provider: 'sec-edgar' },
      oidc: undefined,
    });
    expect(config.dataDir).toBe(join(process.cwd(), '.data'));
  });

  it('derives ACCOUNT_URL, Secure cookies and the OIDC redirect from BASE_URL', () => {
    const config = parseConfig({
      BASE_URL: 'https://svc.example.com/',
      OIDC_ISSUER_URL: 'https://idp.example.com',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      SIGNUP_ENABLED: 'false',
    });
    expect(config.baseUrl).toBe('https://svc.example.com');
    expect(config.accountUrl).toBe('https://svc.example.com');
    expect(config.cookieSecure).toBe(true);
    expect(config.signupEnabled).toBe(false);
    expect(config.oidc?.redirectUrl).toBe('https://svc.example.com/api/auth/oidc/callback');
    expect(
      parseConfig({ BASE_URL: 'https://x.example', COOKIE_SECURE: 'false' }).cookieSecure,
    ).toBe(false);
  });

  it('lists every invalid variable in one ConfigError', () => {
    const attempt = () =>
      parseConfig({ PORT: 'eighty', SESSION_SECRET: 'short', FUNDAMENTALS_PROVIDER: 'yahoo' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const issues = (error as ConfigError).issues.join('\n');
      for (const name of ['PORT', 'SESSION_SECRET', 'FUNDAMENTALS_PROVIDER']) {
        expect(issues).toContain(name);
      }
    }
  });

  it('refuses a partial OIDC configuration and a provider without its directory', () => {
    expect(() => parseConfig({ OIDC_CLIENT_ID: 'only-one' })).toThrow(/OIDC_ISSUER_URL/);
    expect(() => parseConfig({ FUNDAMENTALS_PROVIDER: 'snapshot' })).toThrow(
      /FUNDAMENTALS_SNAPSHOT_DIR/,
    );
  });

  it('reads RECONCILE_PROVIDER: off by default, a second provider with the settings it needs (issue 39)', () => {
    expect(parseConfig({}).fundamentals.reconcileProvider).toBe('off');
    const reconciled = parseConfig({
      FUNDAMENTALS_PROVIDER: 'snapshot',
      FUNDAMENTALS_SNAPSHOT_DIR: '/data/companyfacts',
      RECONCILE_PROVIDER: 'simfin',
      SIMFIN_DIR: '/data/simfin',
    }).fundamentals;
    expect(reconciled).toMatchObject({
      provider: 'snapshot',
      reconcileProvider: 'simfin',
      snapshotDir: '/data/companyfacts',
      simfinDir: '/data/simfin',
    });
    expect(() => parseConfig({ RECONCILE_PROVIDER: 'simfin' })).toThrow(
      'RECONCILE_PROVIDER=simfin needs SIMFIN_DIR',
    );
    expect(() => parseConfig({ RECONCILE_PROVIDER: 'snapshot' })).toThrow(
      'RECONCILE_PROVIDER=snapshot needs FUNDAMENTALS_SNAPSHOT_DIR',
    );
    expect(() => parseConfig({ RECONCILE_PROVIDER: 'sec-edgar' })).toThrow(
      /RECONCILE_PROVIDER names the provider FUNDAMENTALS_PROVIDER already reads/,
    );
    expect(() => parseConfig({ RECONCILE_PROVIDER: 'yahoo' })).toThrow(/RECONCILE_PROVIDER/);
  });

  it('opens the second provider, logging a read it cannot serve, and none for off (issue 39)', async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    expect(openReconcileProvider({ provider: 'sec-edgar' }, logger)).toBeNull();
    expect(
      openReconcileProvider({ provider: 'snapshot', reconcileProvider: 'sec-edgar' }, logger),
    ).toBeNull();
    expect(warnings).toEqual([
      'RECONCILE_PROVIDER=sec-edgar is not configured (SEC_USER_AGENT is not set): evaluations are not reconciled',
    ]);
    warnings.length = 0;
    const dir = await mkdtemp(join(tmpdir(), 'reconcile-'));
    try {
      const provider = openReconcileProvider(
        { provider: 'sec-edgar', reconcileProvider: 'snapshot', snapshotDir: dir },
        logger,
      );
      expect(provider?.name).toBe('snapshot');
      await expect(provider?.getFundamentals('DAL', { asOf: '2020-06-30' })).rejects.toThrow();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^reconcile: snapshot gave no figures for DAL as of 2020-06-30 \(\w+: .+\); evaluated without reconciliation$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('validates QUOTA_LIMITS against the quota package schema', () => {
    expect(
      parseConfig({ QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":20}}}' }).quotaLimits,
    ).toEqual({
      free: { stock_evaluation: { limit: 20 } },
    });
    expect(() => parseConfig({ QUOTA_LIMITS: '{"gold":{}}' })).toThrow(ConfigError);
    expect(() => parseConfig({ QUOTA_LIMITS: 'not json' })).toThrow(/QUOTA_LIMITS/);
  });

  it('reads the quote and FX sources: defaults none / ecb, each choice with what it needs', () => {
    const defaults = parseConfig({});
    expect(defaults.quotes).toEqual({
      provider: 'none',
      pricesDir: undefined,
      apiUrl: undefined,
      apiKey: undefined,
    });
    expect(defaults.fx).toEqual({ provider: 'ecb', file: undefined });
    expect(defaults.sessionCacheSeconds).toBe(5);
    expect(defaults.evaluationMemoSeconds).toBe(10);
    // With a shared PostgreSQL the memo follows the database's session announcements (LISTEN).
    expect(parseConfig({ DATABASE_URL: 'postgres://db/svc' }).sessionCacheSeconds).toBe(5);
    expect(
      parseConfig({ DATABASE_URL: 'postgres://db/svc', SESSION_CACHE_SECONDS: '3' })
        .sessionCacheSeconds,
    ).toBe(3);

    const csv = parseConfig({
      QUOTES_PROVIDER: 'csv',
      PRICES_DIR: 'data/prices',
      FX_PROVIDER: 'ecb-file',
      ECB_FX_FILE: 'fx/eurofxref-hist.csv',
    });
    expect(csv.quotes.pricesDir).toBe(join(process.cwd(), 'data/prices'));
    expect(csv.fx).toEqual({
      provider: 'ecb-file',
      file: join(process.cwd(), 'fx/eurofxref-hist.csv'),
    });
    const http = parseConfig({
      QUOTES_PROVIDER: 'http',
      QUOTES_API_URL: 'https://quotes.example.com/v1/',
      QUOTES_API_KEY: 'k',
    });
    expect(http.quotes).toMatchObject({
      provider: 'http',
      apiUrl: 'https://quotes.example.com/v1',
      apiKey: 'k',
    });

    expect(() => parseConfig({ QUOTES_PROVIDER: 'csv' })).toThrow(/PRICES_DIR/);
    expect(() => parseConfig({ QUOTES_PROVIDER: 'http' })).toThrow(/QUOTES_API_URL/);
    expect(() => parseConfig({ QUOTES_PROVIDER: 'http', QUOTES_API_URL: 'nope' })).toThrow(
      /QUOTES_API_URL/,
    );
    expect(() => parseConfig({ FX_PROVIDER: 'ecb-file' })).toThrow(/ECB_FX_FILE/);
    expect(() => parseConfig({ QUOTES_PROVIDER: 'yahoo' })).toThrow(/QUOTES_PROVIDER/);
    expect(() => parseConfig({ FX_PROVIDER: 'fed' })).toThrow(/FX_PROVIDER/);
    expect(() => parseConfig({ SESSION_CACHE_SECONDS: '-1' })).toThrow(/SESSION_CACHE_SECONDS/);
  });
});

describe('loadConfig and the session secret', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  const logger = () => {
    const lines: string[] = [];
    return {
      lines,
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(`warn: ${m}`),
    };
  };

  it('generates 32 random bytes into DATA_DIR/session-secret (0600) once, says so, and reuses them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
    dirs.push(dir);
    const log1 = logger();
    const first = await loadConfig({ DATA_DIR: join(dir, 'data') }, log1);
    expect(first.sessionSecretSource).toBe('generated');
    expect(first.sessionSecret).toHaveLength(32);
    expect(log1.lines.some((l) => l.includes('generated a new local session secret'))).toBe(true);
    const file = join(dir, 'data', 'session-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url')).toEqual(
      Buffer.from(first.sessionSecret),
    );

    const second = await loadConfig({ DATA_DIR: join(dir, 'data') }, logger());
    expect(second.sessionSecretSource).toBe('data-dir');
    expect(Buffer.from(second.sessionSecret)).toEqual(Buffer.from(first.sessionSecret));

    const other = await mkdtemp(join(tmpdir(), 'svc-config-'));
    dirs.push(other);
    const third = await loadConfig({ DATA_DIR: other }, logger());
    expect(Buffer.from(third.sessionSecret)).not.toEqual(Buffer.from(first.sessionSecret));
  });

  it('uses SESSION_SECRET when set and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
    dirs.push(dir);
    const secret = 'x'.repeat(40);
    const config = await loadConfig({ DATA_DIR: dir, SESSION_SECRET: secret }, logger());
    expect(config.sessionSecretSource).toBe('environment');
    expect(new TextDecoder().decode(config.sessionSecret)).toBe(secret);
    await expect(stat(join(dir, 'session-secret'))).rejects.toThrow();
  });

  it('warns when SEC_USER_AGENT is missing for the sec-edgar provider', async () => {
    const log = logger();
    await loadConfig({ SESSION_SECRET: 'y'.repeat(32) }, log);
    expect(log.lines.some((l) => l.startsWith('warn: SEC_USER_AGENT'))).toBe(true);
  });
});
