import { resolve } from 'node:path';
import { ConfigError } from '@svc/service';
import { describe, expect, it } from 'vitest';
import { readCliSettings } from './settings.js';

const SHARED = '/srv/shared-data';

describe('readCliSettings', () => {
  it('runs offline over the shared data when nothing is set', () => {
    const settings = readCliSettings({ SHARED_DATA_DIR: SHARED });
    expect(settings.fundamentals).toMatchObject({
      provider: 'snapshot',
      snapshotDir: `${SHARED}/fundamentals/raw/companyfacts`,
      simfinDir: `${SHARED}/fundamentals/raw/simfin_us_annual_2021-04`,
    });
    expect(settings.quotes).toMatchObject({ provider: 'csv', pricesDir: `${SHARED}/prices` });
    expect(settings.notes).toHaveLength(2);
    expect(settings.dataDir).toBe(resolve('./.data'));
  });

  it('keeps what is set explicitly, and SEC_USER_AGENT selects SEC EDGAR', () => {
    const settings = readCliSettings({
      SHARED_DATA_DIR: SHARED,
      SEC_USER_AGENT: 'me@example.com',
      QUOTES_PROVIDER: 'none',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://db/x',
    });
    expect(settings.fundamentals.provider).toBe('sec-edgar');
    expect(settings.quotes.provider).toBe('none');
    expect(settings).toMatchObject({ dataDir: '/tmp/x', databaseUrl: 'postgres://db/x' });
    expect(settings.notes).toEqual([]);
  });

  it("ignores the servers' variables and refuses invalid ones of its own with ConfigError", () => {
    expect(() => readCliSettings({ SHARED_DATA_DIR: SHARED, PORT: 'not a port' })).not.toThrow();
    expect(() =>
      readCliSettings({ SHARED_DATA_DIR: SHARED, FUNDAMENTALS_PROVIDER: 'yahoo' }),
    ).toThrow(ConfigError);
    expect(() => readCliSettings({ SHARED_DATA_DIR: SHARED, DATABASE_POOL_MAX: '0' })).toThrow(
      /DATABASE_POOL_MAX/,
    );
  });
});
