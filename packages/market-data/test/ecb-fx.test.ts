import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
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

  it('tells the first and last day it has a currency (where the rate data ends)', async () => {
    expect(await hist.coverage?.('usd')).toEqual({
      currency: 'USD',
      first: '1999-01-04',
      last: '2026-04-13',
      source: 'ecb:eurofxref-hist.csv',
    });
    // the ECB stopped publishing RUB after 2022-03-01
    expect(await hist.coverage?.('RUB')).toMatchObject({ last: '2022-03-01' });
    expect(await hist.coverage?.('XYZ')).toEqual({
      currency: 'XYZ',
      first: null,
      last: null,
      source: 'ecb:eurofxref-hist.csv',
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

  it('tells where its rates end from the documents it holds, never fetching for it', async () => {
    requests = 0;
    const fx = createEcbHttpFxProvider({ url: `${server.url}/eurofxref-daily.xml` });
    expect(await fx.coverage?.('USD')).toBeNull();
    expect(requests).toBe(0);
    await fx.getRate('EUR', 'USD');
    expect(await fx.coverage?.('USD')).toMatchObject({ first: '2025-05-09', last: '2025-05-09' });
    expect(requests).toBe(1);
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

describe('createEcbHttpFxProvider with the ECB history (local server replaying ECB files)', () => {
  const histCsv = readFileSync(join(FX_DIR, 'eurofxref-hist.csv'));
  const dailyXml = readFileSync(join(FX_DIR, 'eurofxref-daily_2025-05-09.xml'), 'utf8');
  // the ECB zip as served: one member, eurofxref-hist.csv (the shared file is that member)
  const histZip = zipSync({ 'eurofxref-hist.csv': new Uint8Array(histCsv) });
  // a 90-day XML in the ECB layout, from the real rates of 2025-02-10 … 2025-05-09 (USD, JPY)
  const recentDays = histCsv
    .toString('utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split(','))
    .filter(([date]) => date !== undefined && date >= '2025-02-10' && date <= '2025-05-09');
  const recentXml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<Cube>
${recentDays.map(([date, usd, jpy]) => `\t\t<Cube time='${date}'>\n\t\t\t<Cube currency='USD' rate='${usd}'/>\n\t\t\t<Cube currency='JPY' rate='${jpy}'/>\n\t\t</Cube>`).join('\n')}
\t</Cube>
</gesmes:Envelope>`;
  const hits = new Map<string, number>();
  let failuresLeft = 0;
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.url ?? '';
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        res.writeHead(503).end();
        return;
      }
      if (path === '/eurofxref-daily.xml') res.writeHead(200).end(dailyXml);
      else if (path === '/eurofxref-hist-90d.xml') res.writeHead(200).end(recentXml);
      else if (path === '/eurofxref-hist.zip') res.writeHead(200).end(histZip);
      else if (path === '/empty.zip')
        res.writeHead(200).end(zipSync({ 'readme.txt': strToU8('x') }));
      else res.writeHead(404).end();
    });
  });
  afterAll(() => server.close());

  const provider = (overrides: Parameters<typeof createEcbHttpFxProvider>[0] = {}) =>
    createEcbHttpFxProvider({
      url: `${server.url}/eurofxref-daily.xml`,
      recentUrl: `${server.url}/eurofxref-hist-90d.xml`,
      historyUrl: `${server.url}/eurofxref-hist.zip`,
      minRetryDelayMs: 10,
      ...overrides,
    });

  it('answers today from the daily XML, the last 90 days from the 90-day XML, older days from the zip', async () => {
    hits.clear();
    const fx = provider();
    expect(await fx.getRate('EUR', 'USD')).toMatchObject({ rate: 1.1252, asOf: '2025-05-09' });
    expect(hits.get('/eurofxref-hist-90d.xml')).toBeUndefined();
    // Saturday 2025-03-15: the Friday's rate, from the 90-day file
    expect(await fx.getRate('EUR', 'USD', { asOf: '2025-03-15' })).toMatchObject({
      rate: 1.0889,
      asOf: '2025-03-14',
      source: `ecb:${server.url}/eurofxref-hist-90d.xml`,
    });
    expect(hits.get('/eurofxref-hist.zip')).toBeUndefined();
    // the day after the Brexit vote, and a whole year of days: the zip, fetched once
    expect(await fx.getRate('EUR', 'USD', { asOf: '2016-06-24' })).toMatchObject({
      rate: 1.1066,
      asOf: '2016-06-24',
      source: `ecb:${server.url}/eurofxref-hist.zip`,
    });
    const days = Array.from({ length: 365 }, (_, i) =>
      new Date(Date.UTC(2019, 0, 1 + i)).toISOString().slice(0, 10),
    );
    const rates = await Promise.all(days.map((asOf) => fx.getRate('EUR', 'JPY', { asOf })));
    expect(rates.every((r) => r !== null && r.rate > 100)).toBe(true);
    expect(hits.get('/eurofxref-hist.zip')).toBe(1);
    expect(hits.get('/eurofxref-hist-90d.xml')).toBe(1);
    expect(hits.get('/eurofxref-daily.xml')).toBe(1);
    // before the euro: no rate, never a made-up one
    expect(await fx.getRate('EUR', 'USD', { asOf: '1998-12-31' })).toBeNull();
  });

  it('retries a 503 with backoff, then gives up as upstream_unavailable', async () => {
    hits.clear();
    failuresLeft = 2;
    const fx = provider({ retries: 2 });
    expect((await fx.getRate('EUR', 'USD', { asOf: '2025-03-14' }))?.rate).toBe(1.0889);
    expect(hits.get('/eurofxref-daily.xml')).toBe(3);
    failuresLeft = 10;
    const cold = provider({ retries: 1 });
    await expect(cold.getRate('EUR', 'USD')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    failuresLeft = 0;
  });

  it('without the history URLs a past day has no rate; a zip without a CSV is parse_failed', async () => {
    const dailyOnly = provider({ recentUrl: null, historyUrl: null });
    expect(await dailyOnly.getRate('EUR', 'USD', { asOf: '2025-03-14' })).toBeNull();
    const broken = provider({ recentUrl: null, historyUrl: `${server.url}/empty.zip` });
    await expect(broken.getRate('EUR', 'USD', { asOf: '2020-01-02' })).rejects.toMatchObject({
      code: 'parse_failed',
    });
  });
});
