import { readFileSync } from 'node:fs';
import {
  CashPosition,
  Holding,
  ImportResult,
  RevaluationResult,
  Transaction,
  TransactionPage,
} from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { IMPORT_LIMIT_BYTES } from '../src/routes/portfolio/import.js';
import { ENGINES, ORIGIN, PORTFOLIO_TEST_NOW } from './helpers.js';
import { portfolioFixture } from './portfolio-fixture.js';
import { sharedData } from './shared-data.js';

const readExport = (name: string) => readFileSync(sharedData('broker-exports', name), 'utf8');
const OK_SAMPLE = readExport('ghostfolio/ok_sample.csv');
const INVALID_YY = readExport('ghostfolio/not-ok_invalid-date-yy.csv');

/** A multipart/form-data body with one file part (and optional extra text fields). */
export function multipartBody(
  file: { field?: string; name?: string; content: string | Buffer } | undefined,
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----svc-test-boundary-7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'export.csv'}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each(ENGINES)('portfolio routes on %s', (engine) => {
  const fx = portfolioFixture(engine, 'portfolio');
  const { call: inject, createPortfolio } = fx;
  const as = (user: { cookie: string }) => ({ cookie: user.cookie, ...ORIGIN });
  const record = (user: { cookie: string }, portfolioId: string, tx: object) =>
    inject(user, 'POST', `/api/portfolios/${portfolioId}/transactions`, tx);

  it('answers 401 problem+json on every route without a session', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: [string, string][] = [
      ['GET', '/api/portfolios'],
      ['POST', '/api/portfolios'],
      ['PATCH', `/api/portfolios/${id}`],
      ['GET', '/api/holdings'],
      ['GET', '/api/cash'],
      ['GET', '/api/transactions'],
      ['POST', `/api/portfolios/${id}/transactions`],
      ['POST', `/api/portfolios/${id}/import`],
      ['POST', `/api/portfolios/${id}/revalue`],
      ['GET', '/api/quote?symbol=AAPL'],
    ];
    for (const [method, url] of routes) {
      const res = await fx.ctx.app.inject({ method: method as 'GET', url, headers: ORIGIN });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().code).toBe('unauthorized');
    }
  });

  it('creates, lists and renames portfolios; a cross-site write is refused', async () => {
    const created = await createPortfolio(fx.alice, '  Main  ');
    expect(created).toMatchObject({ name: 'Main', baseCurrency: 'EUR' });
    const renamed = await inject(fx.alice, 'PATCH', `/api/portfolios/${created.id}`, {
      name: 'Core',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...created, name: 'Core' });
    const listed = await inject(fx.alice, 'GET', '/api/portfolios');
    expect(listed.json()).toContainEqual({ ...created, name: 'Core' });

    const foreign = await fx.ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie: fx.alice.cookie, origin: 'https://evil.example' },
      payload: { name: 'CSRF' },
    });
    expect(foreign.statusCode).toBe(403);
    const invalid = await inject(fx.alice, 'POST', '/api/portfolios', { name: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('validation_failed');
    const badId = await inject(fx.alice, 'PATCH', '/api/portfolios/not-a-uuid', { name: 'X' });
    expect(badId.statusCode).toBe(400);
  });

  it('records transactions and serves holdings and cash with their stored EUR values', async () => {
    const p = await createPortfolio(fx.alice, 'Trading');
    const txs = [
      { type: 'deposit', amount: '2000', currency: 'USD', executedAt: '2024-01-01T09:00:00Z' },
      {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '10',
        price: '150',
        currency: 'USD',
        executedAt: '2024-01-02T15:00:00Z',
      },
      {
        type: 'buy',
        symbol: 'AAPL',
        quantity: '5',
        price: '160',
        fee: '1',
        currency: 'USD',
        executedAt: '2024-02-01T15:00:00Z',
        note: 'top-up',
      },
    ];
    for (const tx of txs) {
      const res = await record(fx.alice, p.id, tx);
      expect(res.statusCode, res.body).toBe(201);
      const executedAt = new Date(tx.executedAt).toISOString();
      expect(Transaction.parse(res.json())).toEqual({
        ...tx,
        executedAt,
        portfolioId: p.id,
        id: expect.any(String),
        // issue 38: the instrument its symbol resolved to (SEC's ticker list, the offline file)
        ...(tx.symbol
          ? {
              instrument: {
                isin: 'US0378331005',
                ticker: 'AAPL',
                currency: 'USD',
                kind: 'share',
                cik: '0000320193',
                resolution: 'sec',
              },
            }
          : {}),
      });
    }

    const holdings = await inject(fx.alice, 'GET', `/api/holdings?portfolioId=${p.id}`);
    expect(holdings.statusCode).toBe(200);
    const [aapl, ...rest] = holdings.json().map((h: unknown) => Holding.parse(h));
    // served again from the flow's memo (the same frozen answer, its UTF-8 bytes kept): the
    // same body, type and length
    const again = await inject(fx.alice, 'GET', `/api/holdings?portfolioId=${p.id}`);
    expect(again.body).toBe(holdings.body);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-length']).toBe(String(Buffer.byteLength(holdings.body)));
    expect(rest).toEqual([]);
    // cost 10 × 150 + 5 × 160 + fee 1 = 2301 USD → average 153.4; AAPL close 2024-03-01 179.66
    // (yahoo_daily_2000_2024-03), ECB 2024-03-01: 1 EUR = 1.0813 USD. The EUR cost takes each
    // purchase at its day's rate (2024-01-02 1.0956, 2024-02-01 1.0814). Checked with Python's
    // decimal module: 2694.9 / 1.0813 = 2492.2778137427; 1500 / 1.0956 + 801 / 1.0814 =
    // 2109.8193064809; P&L 382.4585072618; money is published at 2 places (half-even).
    expect(aapl).toMatchObject({
      portfolioId: p.id,
      symbol: 'AAPL',
      quantity: '15',
      averageCost: '153.4',
      currency: 'USD',
      lastPrice: '179.66',
      marketValue: '2694.90',
      marketValueEur: '2492.28',
      costBasisEur: '2109.82',
      unrealizedPnlEur: '382.46',
      valuedAt: PORTFOLIO_TEST_NOW.toISOString(),
      priceAsOf: '2024-03-01T00:00:00.000Z',
      fxAsOf: '2024-03-01',
      stale: false,
    });
    // cash is overdrawn (2000 − 2301 = −301 USD): the weight is of the gross value, so 1
    expect(aapl?.weight).toBe('1.000000');

    const cash = await inject(fx.alice, 'GET', `/api/cash?portfolioId=${p.id}`);
    expect(cash.json().map((c: unknown) => CashPosition.parse(c))).toEqual([
      expect.objectContaining({ currency: 'USD', amount: '-301.00', amountEur: '-278.37' }),
    ]);

    const all = await inject(fx.alice, 'GET', '/api/holdings');
    expect(all.json().map((h: { symbol: string }) => h.symbol)).toContain('AAPL');

    const revalued = await inject(fx.alice, 'POST', `/api/portfolios/${p.id}/revalue`);
    expect(revalued.statusCode).toBe(200);
    const result = RevaluationResult.parse(revalued.json());
    expect(result.portfolios).toEqual([
      expect.objectContaining({ portfolioId: p.id, complete: true, issues: [] }),
    ]);
    // net value 2492.2778137427 − 278.3686303524 = 2213.9091833903
    expect(result.portfolios[0]?.totalValueEur).toBe('2213.91');
  });

  it('pages transactions newest first and filters by inclusive dates', async () => {
    const p = await createPortfolio(fx.alice, 'Paging');
    for (const day of ['01', '02', '03']) {
      const res = await record(fx.alice, p.id, {
        type: 'deposit',
        amount: `${day}0`,
        currency: 'EUR',
        executedAt: `2024-01-${day}T12:00:00Z`,
      });
      expect(res.statusCode).toBe(201);
    }
    const first = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}&limit=2`);
    const page1 = TransactionPage.parse(first.json());
    expect(page1.items.map((t) => t.amount)).toEqual(['30', '20']);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const second = await inject(
      fx.alice,
      'GET',
      `/api/transactions?portfolioId=${p.id}&limit=2&cursor=${page1.nextCursor}`,
    );
    const page2 = TransactionPage.parse(second.json());
    expect(page2.items.map((t) => t.amount)).toEqual(['10']);
    expect(page2.nextCursor).toBeNull();

    const day = await inject(
      fx.alice,
      'GET',
      `/api/transactions?portfolioId=${p.id}&from=2024-01-02&to=2024-01-02`,
    );
    expect(day.json().items.map((t: { executedAt: string }) => t.executedAt)).toEqual([
      '2024-01-02T12:00:00.000Z',
    ]);
    for (const query of ['limit=101', 'limit=0', 'from=yesterday', 'cursor=garbage']) {
      const res = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });

  it('refuses a sell of more than is held and stores nothing', async () => {
    const p = await createPortfolio(fx.alice, 'Oversell');
    const buy = {
      type: 'buy',
      symbol: 'AAPL',
      quantity: '1',
      price: '100',
      currency: 'USD',
      executedAt: '2024-01-02T15:00:00Z',
    };
    expect((await record(fx.alice, p.id, buy)).statusCode).toBe(201);
    const sell = await record(fx.alice, p.id, { ...buy, type: 'sell', quantity: '2' });
    expect(sell.statusCode).toBe(400);
    expect(sell.json()).toMatchObject({ code: 'validation_failed', errors: [expect.anything()] });
    const listed = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}`);
    expect(listed.json().items).toHaveLength(1);
    const noType = await record(fx.alice, p.id, { ...buy, type: 'gift' });
    expect(noType.statusCode).toBe(400);
  });

  it('imports a real Ghostfolio export as text/csv and as multipart', async () => {
    const asText = await createPortfolio(fx.alice, 'Import text');
    const text = await fx.ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${asText.id}/import`,
      headers: { ...as(fx.alice), 'content-type': 'text/csv; charset=utf-8' },
      payload: OK_SAMPLE,
    });
    expect(text.statusCode, text.body).toBe(201);
    const imported = ImportResult.parse(text.json());
    // 5 data rows; line 6 (quantity 0) is skipped, see the file
    expect(imported).toMatchObject({ format: 'ghostfolio', imported: 4 });
    expect(imported.skipped.map((s) => s.line)).toEqual([6]);

    const asFile = await createPortfolio(fx.alice, 'Import multipart');
    const form = multipartBody({ content: OK_SAMPLE });
    const multipart = await fx.ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${asFile.id}/import?format=ghostfolio`,
      headers: { ...as(fx.alice), ...form.headers },
      payload: form.payload,
    });
    expect(multipart.statusCode, multipart.body).toBe(201);
    expect(multipart.json()).toMatchObject({ format: 'ghostfolio', imported: 4 });

    for (const p of [asText, asFile]) {
      const holdings = await inject(fx.alice, 'GET', `/api/holdings?portfolioId=${p.id}`);
      const quantities = holdings
        .json()
        .map((h: Holding) => [h.symbol, h.quantity])
        .sort();
      expect(quantities).toEqual([
        ['MSFT', '5'],
        ['Penthouse Apartment', '1'],
      ]);
      const txs = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}`);
      expect(txs.json().items).toHaveLength(4);
    }
  });

  it('rejects a bad export with its line and stores nothing', async () => {
    const p = await createPortfolio(fx.alice, 'Import bad');
    const form = multipartBody({ content: INVALID_YY });
    for (const request of [
      { headers: { 'content-type': 'text/csv' }, payload: INVALID_YY },
      { headers: form.headers, payload: form.payload },
    ]) {
      const res = await fx.ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${p.id}/import`,
        headers: { ...as(fx.alice), ...request.headers },
        payload: request.payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'line 2', message: expect.stringContaining('16/09/21') }],
      });
    }
    const txs = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}`);
    expect(txs.json().items).toEqual([]);
    expect((await inject(fx.alice, 'GET', `/api/holdings?portfolioId=${p.id}`)).json()).toEqual([]);
  });

  it('answers 413 beyond the size limit, 415 for other bodies, 400 without a file part', async () => {
    const p = await createPortfolio(fx.alice, 'Import limits');
    const url = `/api/portfolios/${p.id}/import`;
    const huge = `${OK_SAMPLE}${'x'.repeat(IMPORT_LIMIT_BYTES)}`;
    const tooLargeText = await fx.ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...as(fx.alice), 'content-type': 'text/csv' },
      payload: huge,
    });
    expect(tooLargeText.statusCode).toBe(413);
    expect(tooLargeText.json().code).toBe('payload_too_large');
    const form = multipartBody({ content: huge });
    const tooLargeFile = await fx.ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...as(fx.alice), ...form.headers },
      payload: form.payload,
    });
    expect(tooLargeFile.statusCode).toBe(413);
    expect(tooLargeFile.json().code).toBe('payload_too_large');

    const xml = await fx.ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...as(fx.alice), 'content-type': 'application/xml' },
      payload: '<csv/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe('unsupported_media_type');

    const noFile = multipartBody(undefined, { note: 'no file' });
    const wrongPart = multipartBody({ field: 'upload', content: OK_SAMPLE });
    for (const body of [noFile, wrongPart]) {
      const res = await fx.ctx.app.inject({
        method: 'POST',
        url,
        headers: { ...as(fx.alice), ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ path: 'body.file', message: expect.any(String) }]);
    }
    const empty = await fx.ctx.app.inject({
      method: 'POST',
      url,
      headers: { ...as(fx.alice), 'content-type': 'text/csv' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(
      (await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}`)).json().items,
    ).toEqual([]);
  });

  it("answers 404 for another user's portfolio on every route", async () => {
    const p = await createPortfolio(fx.alice, 'Private');
    expect(
      (
        await record(fx.alice, p.id, {
          type: 'deposit',
          amount: '5',
          currency: 'EUR',
          executedAt: '2024-01-01T00:00:00Z',
        })
      ).statusCode,
    ).toBe(201);
    const form = multipartBody({ content: OK_SAMPLE });
    const attempts = [
      inject(fx.bob, 'PATCH', `/api/portfolios/${p.id}`, { name: 'Mine' }),
      inject(fx.bob, 'GET', `/api/holdings?portfolioId=${p.id}`),
      inject(fx.bob, 'GET', `/api/cash?portfolioId=${p.id}`),
      inject(fx.bob, 'GET', `/api/transactions?portfolioId=${p.id}`),
      record(fx.bob, p.id, {
        type: 'deposit',
        amount: '1',
        currency: 'EUR',
        executedAt: '2024-01-01T00:00:00Z',
      }),
      fx.ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${p.id}/import`,
        headers: { ...as(fx.bob), ...form.headers },
        payload: form.payload,
      }),
      inject(fx.bob, 'POST', `/api/portfolios/${p.id}/revalue`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await inject(fx.bob, 'GET', '/api/portfolios')).json()).toEqual([]);
    expect((await inject(fx.bob, 'GET', '/api/holdings')).json()).toEqual([]);
    expect((await inject(fx.bob, 'GET', '/api/transactions')).json().items).toEqual([]);
    const own = await inject(fx.alice, 'GET', `/api/transactions?portfolioId=${p.id}`);
    expect(own.json().items).toHaveLength(1);
  });
});
