import { KNOWN_SPLITS } from '@svc/market-data';
import { describe, expect, it } from 'vitest';
import {
  createFundamentalsProvider,
  createFxProvider,
  createPriceHistory,
  createQuoteSource,
} from './providers.js';

const invalidConfig = (name: string) =>
  expect.objectContaining({ code: 'invalid_config', message: `${name} is not set` });

describe('createFundamentalsProvider', () => {
  it('needs the setting of the chosen provider', () => {
    expect(() => createFundamentalsProvider({ provider: 'simfin' })).toThrow(
      invalidConfig('SIMFIN_DIR'),
    );
    expect(() => createFundamentalsProvider({ provider: 'snapshot', snapshotDir: '' })).toThrow(
      invalidConfig('FUNDAMENTALS_SNAPSHOT_DIR'),
    );
    expect(() => createFundamentalsProvider({ provider: 'sec-edgar' })).toThrow(
      invalidConfig('SEC_USER_AGENT'),
    );
  });

  it('names the provider it made', () => {
    const made = createFundamentalsProvider({ provider: 'simfin', simfinDir: '/nowhere' });
    expect(made.name).toBe('simfin');
  });
});

describe('createQuoteSource', () => {
  it('gives no prices and no splits for none', () => {
    const source = createQuoteSource({ provider: 'none' });
    expect(source.quotes).toBeNull();
    expect(source.splitsOf('AAPL')).toEqual([]);
  });

  it('takes the splits of http quotes from KNOWN_SPLITS', () => {
    const source = createQuoteSource({ provider: 'http', apiUrl: 'http://127.0.0.1:9' });
    expect(source.quotes).not.toBeNull();
    expect(source.splitsOf('AAPL')).toEqual(KNOWN_SPLITS.filter((s) => s.symbol === 'AAPL'));
    expect(source.splitsOf('NOPE')).toEqual([]);
  });

  it('needs PRICES_DIR for csv and QUOTES_API_URL for http', () => {
    expect(() => createQuoteSource({ provider: 'csv' })).toThrow(invalidConfig('PRICES_DIR'));
    expect(() => createQuoteSource({ provider: 'http' })).toThrow(invalidConfig('QUOTES_API_URL'));
  });
});

describe('createFxProvider and createPriceHistory', () => {
  it('gives null for none and needs ECB_FX_FILE for ecb-file', () => {
    expect(createFxProvider({ provider: 'none' })).toBeNull();
    expect(() => createFxProvider({ provider: 'ecb-file' })).toThrow(invalidConfig('ECB_FX_FILE'));
  });

  it('takes history from the URL, else from a quote provider that serves it, else none', () => {
    const history = { getDailyCloses: async () => ({ status: 'unavailable' }) };
    const quotes = { name: 'q', getQuote: async () => null };
    expect(createPriceHistory('http://127.0.0.1:9/{symbol}', null)).not.toBeNull();
    expect(createPriceHistory(undefined, { ...quotes, ...history } as never)).toMatchObject(
      history,
    );
    expect(createPriceHistory(undefined, quotes as never)).toBeNull();
    expect(createPriceHistory(undefined, null)).toBeNull();
  });
});
