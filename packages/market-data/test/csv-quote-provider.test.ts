import { describe, expect, it } from 'vitest';
import { MarketDataError } from '../src/errors.js';
import { Quote } from '../src/quote.js';
import { createCsvQuoteProvider } from '../src/quotes/csv-quote-provider.js';
import { PRICES_DIR } from './shared-data.js';

// Expected values are read by hand from the CSVs (see the comments) and from the public record.
const quotes = createCsvQuoteProvider({ dir: PRICES_DIR });

describe('createCsvQuoteProvider on the shared price files', () => {
  it.each([
    // yahoo_daily_2000_2024-03/AAPL.csv 2020-08-28 Close 124.807503 (4:1-adjusted) × 4
    ['AAPL', '2020-08-28', '2020-08-28', 499.23],
    // first day on the new basis: Close 129.039993, raw and split basis agree
    ['AAPL', '2020-08-31', '2020-08-31', 129.04],
    // Saturday → Friday's close
    ['AAPL', '2020-08-29', '2020-08-28', 499.23],
    // 2014-06-06: Close 23.056786 × 7 × 4 = 645.57 (the public pre-7:1 close)
    ['AAPL', '2014-06-06', '2014-06-06', 645.57],
    // yahoo_daily_2025-02_2026-02/AAPL.csv 2025-02-28 Close 241.83999633789062 (float32 noise)
    ['AAPL', '2025-02-28', '2025-02-28', 241.84],
    // NVDA 2024-03-08 Close 875.280029: before the 10:1 of 2024-06-10, the file's own basis
    ['NVDA', '2024-03-08', '2024-03-08', 875.28],
    // 2021-07-19 Close 187.797501 × 4 (the 4:1 of 2021-07-20)
    ['NVDA', '2021-07-19', '2021-07-19', 751.19],
    ['NVDA', '2021-07-20', '2021-07-20', 186.12],
    // SOURCES.md: XOM 2024-03-08 Close 108.38
    ['XOM', '2024-03-08', '2024-03-08', 108.38],
  ])('%s on %s → close of %s = %d (actual, unadjusted)', async (symbol, asOf, day, price) => {
    const quote = await quotes.getQuote(symbol, { asOf });
    expect(quote).toMatchObject({
      symbol,
      asOf: day,
      currency: 'USD',
      splitBasisAsOf: day,
      adjustment: 'none',
    });
    expect(quote?.price).toBeCloseTo(price, 2);
    expect(Quote.safeParse(quote).success).toBe(true);
  });

  it.each([
    // The gap 2024-03-11 → 2025-02-27 has only the total-return series. Public record: NVDA
    // closed at 1,208.88 on 2024-06-07 (pre-split) and 121.79 on 2024-06-10 (post-split).
    ['NVDA', '2024-06-07', 1208.88],
    ['NVDA', '2024-06-10', 121.79],
    // AAPL closed at 250.42 on 2024-12-31 (SOURCES.md); adjusted 248.83
    ['AAPL', '2024-12-31', 250.42],
  ])(
    '%s on %s is un-adjusted from the total-return series (≈ %d)',
    async (symbol, asOf, actual) => {
      const quote = await quotes.getQuote(symbol, { asOf });
      expect(quote?.adjustment).toBe('dividends-estimated');
      expect(quote?.asOf).toBe(asOf);
      const error = Math.abs((quote?.price ?? 0) / actual - 1);
      expect(error).toBeLessThan(0.005);
      expect(error).toBeLessThanOrEqual((quote?.maxRelativeError ?? 0) + 1e-9);
    },
  );

  it('the NVDA split shows as a 10× step between 2024-06-07 and 2024-06-10', async () => {
    const before = await quotes.getQuote('NVDA', { asOf: '2024-06-07' });
    const after = await quotes.getQuote('NVDA', { asOf: '2024-06-10' });
    expect((before?.price ?? 0) / (after?.price ?? 1)).toBeGreaterThan(9.5);
    expect((before?.price ?? 0) / (after?.price ?? 1)).toBeLessThan(10.5);
  });

  it('defaults to the latest day of any series (the adjusted close of 2026-08-03 is actual)', async () => {
    const quote = await quotes.getQuote('aapl');
    expect(quote?.asOf).toBe('2026-08-03');
    expect(quote?.symbol).toBe('AAPL');
    expect(quote?.maxRelativeError).toBe(0);
  });

  it('returns null for an unknown symbol and before the first close', async () => {
    expect(await quotes.getQuote('ZZZZ')).toBeNull();
    expect(await quotes.getQuote('AAPL', { asOf: '1999-12-31' })).toBeNull();
  });

  it('rejects path-like symbols and malformed dates', async () => {
    await expect(quotes.getQuote('../etc/passwd')).rejects.toMatchObject({
      code: 'invalid_symbol',
    });
    await expect(quotes.getQuote('AAPL', { asOf: '2020-02-30' })).rejects.toBeInstanceOf(
      MarketDataError,
    );
  });

  it('lists the splits it applies', () => {
    expect(quotes.getSplits('nvda').map((s) => [s.date, s.ratio])).toEqual([
      ['2000-06-27', 2],
      ['2001-09-17', 2],
      ['2006-04-07', 2],
      ['2007-09-11', 1.5],
      ['2021-07-20', 4],
      ['2024-06-10', 10],
    ]);
  });
});
