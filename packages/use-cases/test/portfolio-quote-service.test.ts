import {
  createCsvQuoteProvider,
  createEcbFileFxProvider,
  type FxProvider,
  MarketDataError,
  type QuoteProvider,
} from '@svc/market-data';
import { describe, expect, it } from 'vitest';
import { UseCaseError } from '../src/errors.js';
import { createQuoteService } from '../src/portfolio/quote-service.js';
import { QuoteResult } from '../src/portfolio/schemas.js';
import { ECB_HISTORY_CSV, PRICES_DIR } from './shared-data.js';

const csv = createCsvQuoteProvider({ dir: PRICES_DIR });
const ecb = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });

/** The real CSV provider, counting the symbols it is asked for. */
function counting(inner: QuoteProvider = csv) {
  const calls: string[] = [];
  const provider: QuoteProvider = {
    name: inner.name,
    getQuote(symbol, options) {
      calls.push(symbol);
      return inner.getQuote(symbol, options);
    },
  };
  return { provider, calls };
}

function clock(iso: string) {
  let ms = Date.parse(iso);
  return { now: () => new Date(ms), advance: (by: number) => (ms += by) };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('createQuoteService over the offline providers', () => {
  it('answers the close of the day with its EUR price at the ECB rate of that day', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const quotes = createQuoteService({ quotes: csv, fx: ecb, now: time.now });
    const quote = await quotes.getQuote(' aapl ');
    expect(QuoteResult.parse(quote)).toEqual(quote);
    // AAPL close 2024-03-01: 179.660004 (yahoo_daily_2000_2024-03/AAPL.csv) → 179.66;
    // ECB 2024-03-01: 1 EUR = 1.0813 USD; 179.66 / 1.0813 = 166.151854249514…
    expect(quote).toEqual({
      symbol: 'AAPL',
      price: '179.66',
      currency: 'USD',
      asOf: '2024-03-01',
      source: 'yahoo-csv:yahoo_daily_2000_2024-03',
      priceEur: '166.1518542495',
    });
  });

  it('takes the last close and rate before a weekend', async () => {
    // Sunday 2024-03-03: Friday's close 179.66 and Friday's rate 1.0813
    const time = clock('2024-03-03T12:00:00Z');
    const quote = await createQuoteService({ quotes: csv, fx: ecb, now: time.now }).getQuote(
      'AAPL',
    );
    expect(quote).toMatchObject({ asOf: '2024-03-01', priceEur: '166.1518542495' });
  });

  it('serves a symbol from memory for ttlMs, then asks the provider again', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const { provider, calls } = counting();
    const quotes = createQuoteService({ quotes: provider, fx: ecb, now: time.now, ttlMs: 1_000 });
    const [a, b] = await Promise.all([quotes.getQuote('AAPL'), quotes.getQuote('aapl')]);
    expect(a).toEqual(b);
    expect(calls).toEqual(['AAPL']); // concurrent misses share one call
    time.advance(999);
    await quotes.getQuote('AAPL');
    expect(calls).toEqual(['AAPL']);
    time.advance(2);
    await quotes.getQuote('AAPL');
    expect(calls).toEqual(['AAPL', 'AAPL']);
  });

  it('keeps at most maxEntries symbols, evicting the least recently used', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const { provider, calls } = counting();
    const quotes = createQuoteService({ quotes: provider, fx: ecb, now: time.now, maxEntries: 2 });
    for (const symbol of ['AAPL', 'MSFT', 'NVDA', 'AAPL']) {
      await quotes.getQuote(symbol).catch(() => undefined);
    }
    // MSFT has no price file and is not cached; the cache holds NVDA, then AAPL (most recent)
    expect(calls).toEqual(['AAPL', 'MSFT', 'NVDA']);
    for (const symbol of ['TSLA', 'AAPL', 'NVDA', 'AAPL']) await quotes.getQuote(symbol);
    // TSLA evicts NVDA (least recently used); AAPL is still served; NVDA is fetched again and
    // evicts TSLA, so the last AAPL is still a hit
    expect(calls).toEqual(['AAPL', 'MSFT', 'NVDA', 'TSLA', 'NVDA']);
  });

  it('answers not_found for a symbol without prices, and without a provider', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const error = await rejection(
      createQuoteService({ quotes: csv, fx: ecb, now: time.now }).getQuote('MSFT'),
    );
    expect(error).toBeInstanceOf(UseCaseError);
    expect(error).toMatchObject({ code: 'not_found', message: 'no quote for MSFT' });
    const none = createQuoteService({ quotes: null, fx: ecb, now: time.now });
    expect(await rejection(none.getQuote('AAPL'))).toMatchObject({ code: 'not_found' });
    // before the first close in the files there is nothing either
    const early = createQuoteService({ quotes: csv, fx: ecb, now: () => new Date('1990-01-02') });
    expect(await rejection(early.getQuote('AAPL'))).toMatchObject({ code: 'not_found' });
  });

  it('rejects a malformed symbol as validation_failed on `symbol`', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const { provider, calls } = counting();
    const quotes = createQuoteService({ quotes: provider, fx: ecb, now: time.now });
    for (const bad of ['', 'AA PL', '../etc', 'ABCDEFGHIJK']) {
      expect(await rejection(quotes.getQuote(bad))).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'symbol', message: expect.any(String) }],
      });
    }
    expect(calls).toEqual([]);
  });

  it('serves the quote with priceEur null when no EUR rate can be had', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    const noFx = createQuoteService({ quotes: csv, fx: null, now: time.now });
    expect(await noFx.getQuote('AAPL')).toMatchObject({ price: '179.66', priceEur: null });
    const down: FxProvider = {
      getRate: () => Promise.reject(new MarketDataError('upstream_unavailable', 'ECB down')),
    };
    const failing = createQuoteService({ quotes: csv, fx: down, now: time.now });
    expect(await failing.getQuote('AAPL')).toMatchObject({ priceEur: null });
  });

  it('passes an EUR price through and lets a provider outage surface, uncached', async () => {
    const time = clock('2024-03-01T22:00:00Z');
    let up = false;
    const provider: QuoteProvider = {
      name: 'live',
      async getQuote(symbol) {
        if (!up) throw new MarketDataError('upstream_unavailable', 'timeout');
        return { symbol, price: 0.1 + 0.2, currency: 'EUR', asOf: '2024-03-01', source: 'live' };
      },
    };
    const quotes = createQuoteService({ quotes: provider, fx: ecb, now: time.now });
    expect(await rejection(quotes.getQuote('SAP'))).toMatchObject({
      code: 'upstream_unavailable',
    });
    up = true;
    // the float 0.30000000000000004 travels as its shortest decimal form, never as 3e-1
    expect(await quotes.getQuote('SAP')).toMatchObject({
      price: '0.30000000000000004',
      priceEur: '0.30000000000000004',
    });
  });
});
