import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listingSymbol } from '../src/instruments/listings.js';
import { createOpenFigiClient } from '../src/instruments/openfigi.js';
import { startServer } from './local-server.js';

// Hand-written answers in the documented shape of POST /v3/mapping (one result per job, in
// order: `data` with one FIGI record per listing, or `warning`), trimmed to the fields read.
const LISTINGS: Record<string, object[]> = {
  US0378331005: [
    {
      figi: 'BBG000B9XRY4',
      ticker: 'AAPL',
      name: 'APPLE INC',
      exchCode: 'US',
      securityType: 'Common Stock',
      marketSector: 'Equity',
      securityType2: 'Common Stock',
    },
    {
      figi: 'BBG000B9Y5X2',
      ticker: 'AAPL',
      name: 'APPLE INC',
      exchCode: 'UW',
      securityType: 'Common Stock',
      marketSector: 'Equity',
      securityType2: 'Common Stock',
    },
    {
      figi: 'BBG000BCDN62',
      ticker: 'APC',
      name: 'APPLE INC',
      exchCode: 'GY',
      securityType: 'Common Stock',
      marketSector: 'Equity',
      securityType2: 'Common Stock',
    },
  ],
  IE00B3RBWM25: [
    {
      figi: 'BBG000RHZDN7',
      ticker: 'VWRL',
      name: 'VANGUARD FTSE ALL WORLD',
      exchCode: 'LN',
      securityType: 'ETP',
      marketSector: 'Equity',
      securityType2: 'Mutual Fund',
    },
    {
      figi: 'BBG000RHZQP0',
      ticker: 'VWRL',
      name: 'VANGUARD FTSE ALL WORLD',
      exchCode: 'NA',
      securityType: 'ETP',
      marketSector: 'Equity',
      securityType2: 'Mutual Fund',
    },
  ],
};

interface Seen {
  jobs: { idType: string; idValue: string; exchCode?: string }[];
  key: string | undefined;
}

async function replayServer(options: { failFirst?: number } = {}) {
  const seen: Seen[] = [];
  let failures = options.failFirst ?? 0;
  const server = await startServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v3/mapping') {
        res.writeHead(404).end();
        return;
      }
      if (failures > 0) {
        failures--;
        res
          .writeHead(429, { 'content-type': 'application/json' })
          .end('{"error":"Too Many Requests"}');
        return;
      }
      const jobs = JSON.parse(body) as Seen['jobs'];
      const key = req.headers['x-openfigi-apikey'];
      seen.push({ jobs, key: typeof key === 'string' ? key : undefined });
      const answer = jobs.map((job) => {
        const data =
          job.idType === 'ID_ISIN'
            ? LISTINGS[job.idValue]
            : job.idValue === 'AAPL'
              ? LISTINGS.US0378331005?.slice(0, 2)
              : undefined;
        return data ? { data } : { warning: 'No identifier found.' };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return { ...server, seen };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('OpenFIGI mapping client', () => {
  it('maps ISINs and tickers to listings, kinds and MICs, one answer per query in order', async () => {
    const server = await replayServer();
    close = server.close;
    const client = createOpenFigiClient({ baseUrl: server.url, minIntervalMs: 0 });
    const answers = await client.map([
      { isin: 'US0378331005', currency: 'USD' },
      { isin: 'IE00B3RBWM25', currency: 'EUR' },
      { isin: 'DE000A3GK2N1' },
      { ticker: 'AAPL' },
    ]);
    expect(answers).toEqual([
      {
        isin: 'US0378331005',
        ticker: 'AAPL',
        mic: 'XNAS',
        currency: 'USD',
        name: 'APPLE INC',
        kind: 'share',
        resolution: 'openfigi',
      },
      // the EUR listing among the two: Euronext Amsterdam, not London
      {
        isin: 'IE00B3RBWM25',
        ticker: 'VWRL',
        mic: 'XAMS',
        currency: 'EUR',
        name: 'VANGUARD FTSE ALL WORLD',
        kind: 'fund',
        resolution: 'openfigi',
      },
      null,
      {
        ticker: 'AAPL',
        mic: 'XNAS',
        currency: 'USD',
        name: 'APPLE INC',
        kind: 'share',
        resolution: 'openfigi',
      },
    ]);
    expect(server.seen[0]?.jobs.at(-1)).toEqual({
      idType: 'TICKER',
      idValue: 'AAPL',
      exchCode: 'US',
    });
    expect(server.seen[0]?.key).toBeUndefined();
  });

  it('batches 10 jobs per request without a key, 100 with one (sent as X-OPENFIGI-APIKEY)', async () => {
    const server = await replayServer();
    close = server.close;
    const queries = Array.from({ length: 23 }, () => ({ isin: 'US0378331005' }));
    await createOpenFigiClient({ baseUrl: server.url, minIntervalMs: 0 }).map(queries);
    expect(server.seen.map((s) => s.jobs.length)).toEqual([10, 10, 3]);
    server.seen.length = 0;
    const keyed = createOpenFigiClient({ baseUrl: server.url, apiKey: 'k-1', minIntervalMs: 0 });
    expect(keyed.jobsPerRequest).toBe(100);
    await keyed.map(queries);
    expect(server.seen).toEqual([{ jobs: expect.any(Array), key: 'k-1' }]);
  });

  it('spaces requests by the interval and retries a 429', async () => {
    const server = await replayServer({ failFirst: 1 });
    close = server.close;
    const client = createOpenFigiClient({ baseUrl: server.url, minIntervalMs: 50 });
    const started = Date.now();
    const answers = await client.map(Array.from({ length: 12 }, () => ({ isin: 'US0378331005' })));
    expect(answers).toHaveLength(12);
    expect(server.seen).toHaveLength(2);
    // the retry waited ≥ 50 ms, the second request another ≥ 50 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('an unreachable service is upstream_unavailable', async () => {
    const server = await replayServer();
    await server.close();
    const client = createOpenFigiClient({ baseUrl: server.url, minIntervalMs: 0, retries: 0 });
    await expect(client.map([{ isin: 'US0378331005' }])).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });
});

describe('listingSymbol', () => {
  it("asks by the listing: Yahoo's suffix per exchange, bare US tickers, none without a ticker", () => {
    expect(listingSymbol({ ticker: 'VWRL', mic: 'XAMS' })).toBe('VWRL.AS');
    expect(listingSymbol({ ticker: 'SAP', mic: 'XETR' })).toBe('SAP.DE');
    expect(listingSymbol({ ticker: 'AAPL', mic: 'XNAS' })).toBe('AAPL');
    expect(listingSymbol({ ticker: 'AAPL' })).toBe('AAPL');
    expect(listingSymbol({ ticker: 'NOVN.SW', mic: 'XSWX' })).toBe('NOVN.SW');
    expect(listingSymbol({ ticker: 'SAP', mic: 'XETR' }, 'stooq')).toBe('SAP.DE');
    expect(listingSymbol({ mic: 'XETR' })).toBeUndefined();
  });
});
