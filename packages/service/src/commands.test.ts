import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, parseCommandConfig } from './commands.js';
import { ConfigError } from './config.js';

describe('parseCommandConfig', () => {
  it("reads the commands' variables with the servers' defaults and ignores the others", () => {
    const config = parseCommandConfig({ PORT: 'x', OPENAI_API_KEY: 'k', DATA_DIR: 'rel' });
    expect(config.dataDir).toBe(join(process.cwd(), 'rel'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.fundamentals.provider).toBe('sec-edgar');
    expect(config.quotes.provider).toBe('none');
    expect(config.quotaLimits).toEqual({});
  });

  it("applies the servers' checks to what it reads", () => {
    expect(() => parseCommandConfig({ QUOTES_PROVIDER: 'csv' })).toThrow(ConfigError);
    expect(() => parseCommandConfig({ QUOTA_LIMITS: '{' })).toThrow(/QUOTA_LIMITS/);
  });
});

describe('openStore', { timeout: 60_000 }, () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-store-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('migrates the embedded database once and gives its repositories and quotas', async () => {
    const config = parseCommandConfig({
      DATA_DIR: dataDir,
      QUOTA_LIMITS: '{"free":{"stock_evaluation":{"limit":7}}}',
    });
    const first = await openStore(config);
    try {
      expect(first.dialect).toBe('pglite');
      expect(first.applied.length).toBeGreaterThan(0);
      const user = await first.repos.users.create({ email: 'a@example.com', passwordHash: 'x' });
      const usage = await first.quotas.usage(user.id, user.plan);
      expect(usage.find((q) => q.name === 'stock_evaluation')?.limit).toBe(7);
    } finally {
      await first.close();
    }
    const second = await openStore(config);
    try {
      expect(second.applied).toEqual([]);
      expect(await second.repos.users.findByEmail('a@example.com')).not.toBeNull();
    } finally {
      await second.close();
    }
  });
});
