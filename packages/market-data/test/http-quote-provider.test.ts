import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpQuoteProvider } from '../src/quotes/http-quote-provider.js';
import { startServer } from './local-server.js';

describe('createHttpQuoteProvider against a local server', () => {
  const hits = new Map<string, number>();
  const keys: (string | undefined)[] = [];
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const symbol = url.searchParams.get('symbol') ?? '';
      const count = (hits.get(symbol) ?? 0) + 1;
      hits.set(symbol, count);
      keys.push(req.headers['x-api-key'] as string | undefined);
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname !== '/v1/quote') return json(404, {});
      switch (symbol) {
        case 'AAPL':
          return json(200, {
            symbol: 'AAPL',
            price: 264.18,
            currency: 'usd',
            asOf: url.searchParams.get('asOf') ?? '2026-02-27',
          });
        case 'FLAKY':
          return count < 3
            ? json(503, {})
            : json(200, {
                symbol: 'FLAKY',
                price: 1.5,
                currency: 'EUR',
                asOf: '2026-02-27',
                source: 'upstream-x',
              });
        case 'DOWN':
          return json(503, {});
        case 'DENIED':
          return json(401, {});
        case 'BAD':
          return res.writeHead(200).end('not json');
        case 'WRONG':
          return json(200, { symbol: 'WRONG', price: -3, currency: 'USD', asOf: '2026-02-27' });
        case 'SLOW':
          setTimeout(() => json(200, {}), 500);
          return;
        default:
          return json(404, { title: 'not found' });
      }
    });
  });
  afterAll(() => server.close());

  const provider = (overrides = {}) =>
    createHttpQuoteProvider({
      baseUrl: `${server.url}/v1`,
      apiKey: 'secret-key',
      minRetryDelayMs: 1,
      timeoutMs: 100,
      ...overrides,
    });

  it('maps a 200 answer to a Quote and sends the API key and asOf', async () => {
    const quote = await provider().getQuote('aapl', { asOf: '2026-02-20' });
    expect(quote).toEqual({
      symbol: 'AAPL',
      price: 264.18,
      currency: 'USD',
      asOf: '2026-02-20',
      source: 'http',
      splitBasisAsOf: '2026-02-20',
      adjustment: 'none',
    });
    expect(keys.at(-1)).toBe('secret-key');
  });

  it('answers null on 404', async () => {
    expect(await provider().getQuote('NOPE')).toBeNull();
  });

  it('retries 5xx and succeeds on the third attempt', async () => {
    const quote = await provider().getQuote('FLAKY');
    expect(quote).toMatchObject({ price: 1.5, currency: 'EUR', source: 'upstream-x' });
    expect(hits.get('FLAKY')).toBe(3);
  });

  it('gives upstream_unavailable after the retries', async () => {
    await expect(provider({ retries: 2 }).getQuote('DOWN')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    expect(hits.get('DOWN')).toBe(3);
  });

  it('does not retry a 401, and never puts the key in the message', async () => {
    const error = await provider()
      .getQuote('DENIED')
      .catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'upstream_unavailable' });
    expect(String((error as Error).message)).not.toContain('secret-key');
    expect(hits.get('DENIED')).toBe(1);
  });

  it('reports malformed answers as parse_failed without retrying', async () => {
    await expect(provider().getQuote('BAD')).rejects.toMatchObject({ code: 'parse_failed' });
    await expect(provider().getQuote('WRONG')).rejects.toMatchObject({ code: 'parse_failed' });
    expect(hits.get('BAD')).toBe(1);
  });

  it('times out each attempt and gives up as upstream_unavailable', async () => {
    await expect(provider({ retries: 1, timeoutMs: 50 }).getQuote('SLOW')).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
    expect(hits.get('SLOW')).toBe(2);
  });

  it('honours a caller abort', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider().getQuote('AAPL', { signal: controller.signal })).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });
});
