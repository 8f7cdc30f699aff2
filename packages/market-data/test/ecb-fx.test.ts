import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertToEur } from '../src/fx/convert-to-eur.js';
import { createEcbFileFxProvider } from '../src/fx/ecb-file-fx-provider.js';
import { createEcbHttpFxProvider } from '../src/fx/ecb-http-fx-provider.js';
import { FxRate } from '../src/fx-rate.js';
import { startServer } from './local-server.js';
import { FX_DIR } from './shared-data.js';

const hist = createEcbFileFxProvider({ file: join(FX_DIR, 'eurofxref-hist.csv') });

describe('createEcbFileFxProvider over eurofxref-hist.csv', () => {
  it.each([
    // values read from eurofxref-hist.csv by hand
    ['EUR', 'USD', '2024-06-07', '2024-06-07', 1.0898],
    ['EUR', 'USD', '2024-06-09', '2024-06-07', 1.0898], // Sunday → Friday
    ['EUR', 'USD', '2024-06-10', '2024-06-10', 1.0756],
    ['EUR', 'USD', '2020-08-31', '2020-08-31', 1.194],
    ['EUR', 'GBP', '2025-05-09', '2025-05-09', 0.8477],
    ['EUR', 'EUR', '2025-05-09', '2025-05-09', 1],
  ])('%s→%s on %s uses %s: %d', async (from, to, asOf, day, rate) => {
    const fx = await hist.getRate(from, to, { asOf });
    expect(fx).toEqual({
      base: from,
      quote: to,
      rate,
      asOf: day,
      source: 'ecb:eurofxref-hist.csv',
    });
    expect(FxRate.safeParse(fx).success).toBe(true);
  });

  it('inverts and crosses through EUR', async () => {
    // 1 / 1.0898 = 0.917599559…; JPY per USD = 169.52 / 1.0898 = 155.551477…
    expect((await hist.getRate('usd', 'eur', { asOf: '2024-06-07' }))?.rate).toBeCloseTo(
      0.9175995596,
      9,
    );
    expect((await hist.getRate('USD', 'JPY', { asOf: '2024-06-07' }))?.rate).toBeCloseTo(
      155.5514773,
      6,
    );
  });

  it('defaults to the latest day and refuses stale or missing currencies', async () => {
    expect(await hist.getRate('EUR', 'USD')).toMatchObject({ asOf: '2026-04-13', rate: 1.1684 });
    expect(await hist.getRate('EUR', 'RUB', { asOf: '2024-06-07' })).toBeNull(); // N/A since 2022-03
    expect(await hist.getRate('EUR', 'USD', { asOf: '1998-12-31' })).toBeNull(); // before the euro
    await expect(hist.getRate('EUR', 'US', {})).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('reads the daily CSV and the daily XML formats', async () => {
    const dailyCsv = createEcbFileFxProvider({ file: join(FX_DIR, 'eurofxref-daily.csv') });
    expect(await dailyCsv.getRate('EUR', 'USD')).toMatchObject({
      asOf: '2026-04-13',
      rate: 1.1684,
    });
    const dailyXml = createEcbFileFxProvider({
      file: join(FX_DIR, 'eurofxref-daily_2025-05-09.xml'),
    });
    expect(await dailyXml.getRate('EUR', 'USD', { asOf: '2025-05-11' })).toMatchObject({
      asOf: '2025-05-09',
      rate: 1.1252,
    });
  });

  it('reports an unreadable file as upstream_unavailable', async () => {
    const missing = createEcbFileFxProvider({ file: join(FX_DIR, 'nope.csv') });
    await expect(missing.getRate('EUR', 'USD')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });
});

describe('convertToEur', () => {
  it('divides by the EUR rate in decimal: 1000 USD at 1.0898 = 917.60 EUR', async () => {
    const eur = await convertToEur('1000', 'USD', hist, '2024-06-09');
    expect(eur.amount).toBe('917.60');
    expect(eur.exact.toString().startsWith('917.5995595522')).toBe(true);
    expect(eur.rate.asOf).toBe('2024-06-07');
  });

  it('passes EUR amounts through unchanged at rate 1', async () => {
    const eur = await convertToEur('0.3', 'EUR', hist, '2024-06-07');
    expect(eur.exact.toString()).toBe('0.3');
    expect(eur.rate.rate).toBe(1);
  });

  it('throws not_found without a rate and invalid_argument for a bad amount', async () => {
    await expect(convertToEur(5, 'RUB', hist, '2024-06-07')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(convertToEur('12,5', 'USD', hist, '2024-06-07')).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });
});

describe('createEcbHttpFxProvider against a local server', () => {
  const xml = readFileSync(join(FX_DIR, 'eurofxref-daily_2025-05-09.xml'), 'utf8');
  let requests = 0;
  let failing = false;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      requests += 1;
      if (req.url === '/never-answers.xml') return; // holds the request open, answers nothing
      if (failing || req.url !== '/eurofxref-daily.xml') {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml' }).end(xml);
    });
  });
  afterAll(() => server.close());

  it('fetches, parses and caches for the TTL', async () => {
    let clock = 0;
    requests = 0;
    const fx = createEcbHttpFxProvider({
      url: `${server.url}/eurofxref-daily.xml`,
      ttlMs: 1000,
      now: () => clock,
    });
    const [usd, gbp] = await Promise.all([fx.getRate('EUR', 'USD'), fx.getRate('EUR', 'GBP')]);
    expect(usd).toMatchObject({ rate: 1.1252, asOf: '2025-05-09' });
    expect(gbp?.rate).toBe(0.8477);
    expect(requests).toBe(1);
    clock = 999;
    await fx.getRate('EUR', 'JPY');
    expect(requests).toBe(1);
    clock = 1000;
    expect((await fx.getRate('EUR', 'JPY'))?.rate).toBe(163.36);
    expect(requests).toBe(2);
  });

  it('gives up on a server that never answers after timeoutMs: upstream_unavailable, no hang', async () => {
    const fx = createEcbHttpFxProvider({ url: `${server.url}/never-answers.xml`, timeoutMs: 150 });
    const started = Date.now();
    await expect(fx.getRate('EUR', 'USD')).rejects.toMatchObject({
      name: 'MarketDataError',
      code: 'upstream_unavailable',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('serves the cached rates when a refresh fails, errors without any', async () => {
    let clock = 0;
    failing = false;
    const fx = createEcbHttpFxProvider({
      url: `${server.url}/eurofxref-daily.xml`,
      ttlMs: 10,
      now: () => clock,
    });
    await fx.getRate('EUR', 'USD');
    failing = true;
    clock = 100;
    expect((await fx.getRate('EUR', 'USD'))?.rate).toBe(1.1252);
    const cold = createEcbHttpFxProvider({ url: `${server.url}/eurofxref-daily.xml` });
    await expect(cold.getRate('EUR', 'USD')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    failing = false;
  });

  it('rejects a non-ECB document as parse_failed', async () => {
    const fx = createEcbHttpFxProvider({
      fetch: async () => new Response('<html>maintenance</html>', { status: 200 }),
    });
    await expect(fx.getRate('EUR', 'USD')).rejects.toMatchObject({ code: 'parse_failed' });
  });
});
