/**
 * Issue 30 (CONTRACT §6), the user's own data taken back, away and erased: deleting a portfolio,
 * changing the password, exporting and importing the account, erasing it. On PGlite and on a real
 * PostgreSQL, through the real app (`app.inject`).
 */

import { readFileSync } from 'node:fs';
import { AccountExport, GhostfolioExport } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_IMPORT_BODY_LIMIT_BYTES } from '../src/routes/account/data.js';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';
import { sharedData } from './shared-data.js';

const GHOSTFOLIO_SAMPLE = readFileSync(
  sharedData('broker-exports', 'ghostfolio', 'ok_sample.csv'),
  'utf8',
);

/** `value` without the keys that an import gives anew (ids), recursively. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !['id', 'portfolioId'].includes(key))
      .map(([key, inner]) => [key, withoutIds(inner)]),
  );
}

type User = { cookie: string; userId: string };

describe.each(ENGINES)('the user’s own data on %s', (engine) => {
  let ctx: TestContext;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    alice = await registerUser(ctx.app, `data-alice-${engine}@example.com`);
    bob = await registerUser(ctx.app, `data-bob-${engine}@example.com`);
  });
  afterAll(() => ctx.close());

  const inject = (
    user: { cookie: string } | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: { ...ORIGIN, ...(user ? { cookie: user.cookie } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const createPortfolio = async (user: User, name: string): Promise<string> => {
    const res = await inject(user, 'POST', '/api/portfolios', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const record = async (user: User, portfolioId: string, tx: object) => {
    const res = await inject(user, 'POST', `/api/portfolios/${portfolioId}/transactions`, tx);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const buy = (symbol: string, quantity: string, price: string, executedAt: string) => ({
    type: 'buy',
    symbol,
    quantity,
    price,
    currency: 'USD',
    fee: '1',
    executedAt,
  });

  describe('DELETE /api/portfolios/{id}', () => {
    it('deletes the portfolio with its transactions and positions; reads follow at once', async () => {
      const keep = await createPortfolio(alice, 'Keep');
      const gone = await createPortfolio(alice, 'Gone');
      await record(alice, keep, buy('AAPL', '1', '150', '2024-01-10T15:00:00Z'));
      await record(alice, gone, buy('AAPL', '5', '150', '2024-01-10T15:00:00Z'));
      // warm the read memos of both the one portfolio and all of them
      expect((await inject(alice, 'GET', `/api/holdings?portfolioId=${gone}`)).statusCode).toBe(
        200,
      );
      expect((await inject(alice, 'GET', '/api/holdings')).json()).toHaveLength(2);

      const res = await inject(alice, 'DELETE', `/api/portfolios/${gone}`);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');

      for (const url of [
        `/api/holdings?portfolioId=${gone}`,
        `/api/cash?portfolioId=${gone}`,
        `/api/transactions?portfolioId=${gone}`,
        `/api/portfolios/${gone}/performance`,
      ]) {
        const read = await inject(alice, 'GET', url);
        expect(read.statusCode, url).toBe(404);
        expect(read.json().code).toBe('not_found');
      }
      const holdings = (await inject(alice, 'GET', '/api/holdings')).json();
      expect(holdings.map((h: { portfolioId: string }) => h.portfolioId)).toEqual([keep]);
      const portfolios = (await inject(alice, 'GET', '/api/portfolios')).json();
      expect(portfolios.map((p: { id: string }) => p.id)).toContain(keep);
      expect(portfolios.map((p: { id: string }) => p.id)).not.toContain(gone);
      for (const table of [
        'transactions',
        'holdings',
        'cash_positions',
        'portfolio_changes',
      ] as const) {
        const rows = await ctx.db
          .selectFrom(table)
          .select('id')
          .where('portfolio_id', '=', gone)
          .execute();
        expect(rows, table).toEqual([]);
      }
      const again = await inject(alice, 'DELETE', `/api/portfolios/${gone}`);
      expect(again.statusCode).toBe(404);
    });

    it("answers 404 for another user's portfolio and for a malformed id, deleting nothing", async () => {
      const mine = await createPortfolio(alice, 'Mine');
      for (const id of [mine, 'not-a-uuid']) {
        const res = await inject(bob, 'DELETE', `/api/portfolios/${id}`);
        expect(res.statusCode, res.body).toBe(id === mine ? 404 : 400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
      const still = (await inject(alice, 'GET', '/api/portfolios')).json();
      expect(still.map((p: { id: string }) => p.id)).toContain(mine);
      expect((await inject(undefined, 'DELETE', `/api/portfolios/${mine}`)).statusCode).toBe(401);
    });
  });
  describe('GET /api/account/export and POST /api/account/import', () => {
    /** A user with two portfolios (one from a real broker file), a report, a mapping and a token. */
    async function fillAccount(user: User): Promise<void> {
      const main = await createPortfolio(user, 'Main');
      await record(user, main, {
        type: 'deposit',
        amount: '10000',
        currency: 'USD',
        executedAt: '2023-01-02T09:00:00Z',
        note: 'first deposit',
      });
      await record(user, main, buy('AAPL', '10', '130.5', '2023-01-05T15:00:00Z'));
      await record(user, main, buy('MSFT', '4', '240', '2023-02-01T15:00:00Z'));
      await record(user, main, {
        type: 'sell',
        symbol: 'AAPL',
        quantity: '3',
        price: '170',
        currency: 'USD',
        executedAt: '2023-08-01T15:00:00Z',
      });
      await record(user, main, {
        type: 'dividend',
        symbol: 'AAPL',
        amount: '1.68',
        currency: 'USD',
        executedAt: '2023-08-17T12:00:00Z',
      });
      await record(user, main, {
        type: 'fee',
        amount: '5',
        currency: 'USD',
        executedAt: '2023-12-31T12:00:00Z',
        note: 'custody',
      });
      const broker = await createPortfolio(user, 'Broker file');
      const imported = await ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${broker}/import`,
        headers: { ...ORIGIN, cookie: user.cookie, 'content-type': 'text/csv; charset=utf-8' },
        payload: GHOSTFOLIO_SAMPLE,
      });
      expect(imported.statusCode, imported.body).toBe(201);
      const evaluation = await inject(user, 'GET', '/api/stock-evaluation?symbol=MCD');
      expect(evaluation.statusCode).toBe(200);
      const saved = await inject(user, 'POST', '/api/moat-reports', {
        symbol: 'MCD',
        evaluationJson: evaluation.body,
        tags: ['core', 'food'],
      });
      expect(saved.statusCode).toBe(201);
      await ctx.repos.importMappings.save(user.userId, {
        headerKey: 'date|isin|qty',
        headers: ['Date', 'ISIN', 'Qty'],
        mapping: {
          delimiter: ',',
          columns: { date: 'Date', isin: 'ISIN', quantity: 'Qty' },
          dateOrder: 'ymd',
          decimal: '.',
          actions: {},
        },
      });
      const minted = await inject(user, 'POST', '/api/account/tokens', { name: 'agent' });
      expect(minted.statusCode).toBe(201);
    }

    /** What a user sees of their account: every read the contract names, ids left out. */
    async function accountView(user: User) {
      const get = async (url: string) => {
        const res = await inject(user, 'GET', url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        return res.json();
      };
      const portfolios = await get('/api/portfolios');
      const perPortfolio = [];
      for (const p of portfolios) {
        perPortfolio.push({
          transactions: (await get(`/api/transactions?portfolioId=${p.id}&limit=100`)).items,
          holdings: await get(`/api/holdings?portfolioId=${p.id}`),
          cash: await get(`/api/cash?portfolioId=${p.id}`),
          performance: await get(`/api/portfolios/${p.id}/performance?period=inception`),
        });
      }
      const reports = await get('/api/moat-reports');
      const details = [];
      for (const r of reports) details.push(await get(`/api/moat-reports/${r.id}`));
      return withoutIds({ portfolios, perPortfolio, reports, details });
    }

    it('exports everything as a download; a fresh account importing it sees the same account', async () => {
      const source = await registerUser(ctx.app, `export-${engine}@example.com`);
      await fillAccount(source);
      const res = await inject(source, 'GET', '/api/account/export');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="moat-portfolio-export-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const exported = AccountExport.parse(res.json());
      expect(exported).toMatchObject({
        format: 'moat-portfolio-export',
        version: 1,
        user: { id: source.userId, email: `export-${engine}@example.com` },
      });
      expect(exported.portfolios.map((p) => [p.name, p.transactions.length])).toEqual([
        ['Main', 6],
        ['Broker file', 4],
      ]);
      const brokerRows = exported.portfolios[1]?.transactions ?? [];
      expect(brokerRows.every((tx) => tx.fingerprint !== undefined)).toBe(true);
      expect(exported.reports).toHaveLength(1);
      expect(exported.importMappings).toHaveLength(1);
      expect(exported.tokens.map((t) => t.name)).toEqual(['agent']);
      // token metadata only: never a secret or its hash
      const [stored] = await ctx.db
        .selectFrom('personal_access_tokens')
        .select('token_hash')
        .where('user_id', '=', source.userId)
        .execute();
      expect(res.body).not.toContain(stored?.token_hash);
      expect(res.body).not.toMatch(/svc_pat_[A-Za-z0-9_-]{20,}/);

      const target = await registerUser(ctx.app, `import-${engine}@example.com`);
      const imported = await inject(target, 'POST', '/api/account/import', res.json());
      expect(imported.statusCode, imported.body).toBe(201);
      expect(imported.json()).toEqual({ portfolios: 2, transactions: 10, reports: 1 });

      const before = await accountView(source);
      const after = await accountView(target);
      expect(after).toEqual(before);
      // the same export a second time creates no duplicate portfolios: 409 naming them
      const twice = await inject(target, 'POST', '/api/account/import', res.json());
      expect(twice.statusCode, twice.body).toBe(409);
      expect(twice.json()).toMatchObject({ code: 'conflict' });
      expect(twice.json().detail).toContain('“Main”');
      expect(await accountView(target)).toEqual(before);
      // new ids everywhere
      const targetPortfolios = (await inject(target, 'GET', '/api/portfolios')).json();
      for (const p of targetPortfolios) {
        expect(exported.portfolios.map((e) => e.id)).not.toContain(p.id);
      }
      // and the same document again, but for ids, owner, tokens and the instant
      const again = AccountExport.parse(
        (await inject(target, 'GET', '/api/account/export')).json(),
      );
      const comparable = (e: AccountExport) =>
        withoutIds({ ...e, user: null, tokens: null, exportedAt: null });
      expect(comparable(again)).toEqual(comparable(exported));
      // each imported portfolio's rows are one change of source account-import
      for (const p of targetPortfolios) {
        const changes = (await inject(target, 'GET', `/api/portfolios/${p.id}/changes`)).json();
        expect(changes.items).toHaveLength(1);
        expect(changes.items[0]).toMatchObject({ kind: 'import', source: 'account-import' });
      }
      // the broker file is still known to the imported portfolio: importing it again adds nothing
      const brokerCopy = targetPortfolios.find((p: { name: string }) => p.name === 'Broker file');
      const reimport = await ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${brokerCopy.id}/import`,
        headers: { ...ORIGIN, cookie: target.cookie, 'content-type': 'text/csv; charset=utf-8' },
        payload: GHOSTFOLIO_SAMPLE,
      });
      expect(reimport.json()).toMatchObject({ imported: 0, alreadyPresent: 4 });
    });

    it("exports in Ghostfolio's shape", async () => {
      const user = await registerUser(ctx.app, `ghostfolio-${engine}@example.com`);
      await fillAccount(user);
      const res = await inject(user, 'GET', '/api/account/export?format=ghostfolio');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/filename="ghostfolio-export-/);
      const document = GhostfolioExport.parse(res.json());
      expect(Object.keys(document).sort()).toEqual(
        ['accounts', 'activities', 'assetProfiles', 'meta', 'platforms', 'tags', 'user'].sort(),
      );
      expect(document.accounts.map((a) => a.name)).toEqual(['Main', 'Broker file']);
      const main = document.accounts[0];
      // the Main portfolio (EUR) holds USD only: its balance is that cash's stored EUR value
      const [cash] = (await inject(user, 'GET', `/api/cash?portfolioId=${main?.id}`)).json();
      expect(cash).toMatchObject({ currency: 'USD', amount: '8239.68' });
      expect(main?.currency).toBe('EUR');
      expect(Number(cash.amountEur)).toBeGreaterThan(7000);
      expect(main?.balance).toBeCloseTo(Number(cash.amountEur), 2);
      const types = document.activities
        .filter((a) => a.accountId === main?.id)
        .map((a) => [a.type, a.symbol, a.quantity, a.unitPrice, a.fee]);
      expect(types).toEqual([
        ['BUY', 'AAPL', 10, 130.5, 1],
        ['BUY', 'MSFT', 4, 240, 1],
        ['SELL', 'AAPL', 3, 170, 0],
        ['DIVIDEND', 'AAPL', 1, 1.68, 0],
        [
          'FEE',
          expect.stringMatching(
            /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
          ),
          0,
          0,
          5,
        ],
      ]);
      // a fee without an instrument is a custom asset: a UUID symbol with its asset profile
      const fee = document.activities.find((a) => a.type === 'FEE');
      expect(fee?.dataSource).toBe('MANUAL');
      // (the broker file's "Account Opening Fee" is the other one)
      expect(document.assetProfiles).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ symbol: fee?.symbol, dataSource: 'MANUAL', name: 'custody' }),
        ]),
      );
      expect(document.assetProfiles).toHaveLength(2);
      expect(document.meta.leftOut).toEqual({
        deposits: expect.any(Number),
        withdrawals: 0,
        splits: 0,
      });
    });

    it('answers 413 payload_too_large for an import body above the limit', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/account/import',
        headers: { ...ORIGIN, cookie: alice.cookie, 'content-type': 'application/json' },
        payload: Buffer.alloc(ACCOUNT_IMPORT_BODY_LIMIT_BYTES + 1, 0x20),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
    });

    it('imports all or nothing: a sale beyond the units held names its path, stores nothing', async () => {
      const user = await registerUser(ctx.app, `import-bad-${engine}@example.com`);
      const document = {
        format: 'moat-portfolio-export',
        version: 1,
        exportedAt: '2024-03-01T00:00:00Z',
        portfolios: [
          {
            id: 'x',
            name: 'Fine',
            baseCurrency: 'EUR',
            createdAt: '2024-01-01T00:00:00Z',
            transactions: [],
          },
          {
            id: 'y',
            name: 'Broken',
            baseCurrency: 'EUR',
            createdAt: '2024-01-01T00:00:00Z',
            transactions: [
              { ...buy('AAPL', '1', '100', '2024-01-02T10:00:00Z'), id: 'a', portfolioId: 'y' },
              {
                ...buy('AAPL', '2', '100', '2024-01-03T10:00:00Z'),
                type: 'sell',
                id: 'b',
                portfolioId: 'y',
              },
            ],
          },
        ],
        reports: [],
        importMappings: [],
      };
      const res = await inject(user, 'POST', '/api/account/import', document);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().errors[0].path).toBe('body.portfolios.1.transactions');
      expect((await inject(user, 'GET', '/api/portfolios')).json()).toEqual([]);

      const wrongShape = await inject(user, 'POST', '/api/account/import', {
        ...document,
        format: 'ghostfolio',
      });
      expect(wrongShape.statusCode).toBe(400);
      const badRow = await inject(user, 'POST', '/api/account/import', {
        ...document,
        portfolios: [
          {
            ...document.portfolios[1],
            transactions: [
              {
                id: 'c',
                portfolioId: 'y',
                type: 'buy',
                currency: 'USD',
                executedAt: '2024-01-02T10:00:00Z',
                symbol: 'AAPL',
                quantity: '-1',
                price: '1',
              },
            ],
          },
        ],
      });
      expect(badRow.statusCode).toBe(400);
      expect(badRow.json().errors.map((e: { path: string }) => e.path)).toContain(
        'body.portfolios.0.transactions.0.quantity',
      );
      expect((await inject(user, 'GET', '/api/portfolios')).json()).toEqual([]);
      expect((await inject(undefined, 'POST', '/api/account/import', document)).statusCode).toBe(
        401,
      );
    });
  });

  describe('portfolios an account holds (issue 41)', () => {
    it('holds at most as many as its own export imports: creation and account import past it are 409, nothing written', async () => {
      const user = await registerUser(ctx.app, `data-many-${engine}@example.com`);
      for (let i = 0; i < 198; i += 1) {
        await ctx.repos.portfolios.create(user.userId, { name: `P${i}` });
      }
      const importTwo = (n: number) =>
        inject(user, 'POST', '/api/account/import', {
          format: 'moat-portfolio-export',
          version: 1,
          exportedAt: '2026-01-01T00:00:00Z',
          portfolios: Array.from({ length: n }, (_, i) => ({
            id: `x${i}`,
            name: `Imported ${i}`,
            baseCurrency: 'EUR',
            createdAt: '2024-01-01T00:00:00Z',
            transactions: [],
          })),
          reports: [],
          importMappings: [],
        });
      const refused = await importTwo(3);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'conflict' });
      expect(refused.json().detail).toMatch(/at most 200 portfolios; this one holds 198/);
      expect((await inject(user, 'GET', '/api/portfolios')).json()).toHaveLength(198);
      expect((await importTwo(2)).statusCode).toBe(201);
      const extra = await inject(user, 'POST', '/api/portfolios', { name: 'One more' });
      expect(extra.statusCode, extra.body).toBe(409);
      expect((await inject(user, 'GET', '/api/portfolios')).json()).toHaveLength(200);
      const exported = await inject(user, 'GET', '/api/account/export');
      const again = await registerUser(ctx.app, `data-many-again-${engine}@example.com`);
      const reimported = await inject(again, 'POST', '/api/account/import', exported.json());
      expect(reimported.statusCode, reimported.body).toBe(201);
      expect(reimported.json().portfolios).toBe(200);
    });
  });

  describe('stored import mappings (issue 41)', () => {
    it('an account import checks each mapping like a mapping sent with an import: 400, nothing written', async () => {
      const user = await registerUser(ctx.app, `data-mapping-${engine}@example.com`);
      const res = await inject(user, 'POST', '/api/account/import', {
        format: 'moat-portfolio-export',
        version: 1,
        exportedAt: '2026-01-01T00:00:00Z',
        portfolios: [
          {
            id: 'p',
            name: 'P',
            baseCurrency: 'EUR',
            createdAt: '2024-01-01T00:00:00Z',
            transactions: [],
          },
        ],
        reports: [],
        importMappings: [
          {
            id: 'm',
            headerKey: 'a|b',
            headers: ['a', 'b'],
            mapping: {},
            createdAt: '2026-01-01T00:00:00Z',
            updatedAt: '2026-01-01T00:00:00Z',
          },
        ],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().errors[0].path).toMatch(/^body\.importMappings\.0\.mapping/);
      expect((await inject(user, 'GET', '/api/portfolios')).json()).toEqual([]);
      expect((await inject(user, 'GET', '/api/import-mappings')).json()).toEqual([]);
    });

    it('a stored row that is no longer a mapping is listed as unreadable, left out of the export, and can be deleted', async () => {
      const user = await registerUser(ctx.app, `data-mapping-row-${engine}@example.com`);
      const good = await ctx.repos.importMappings.save(user.userId, {
        headerKey: 'date|isin|qty',
        headers: ['date', 'isin', 'qty'],
        mapping: {
          delimiter: ',',
          columns: { date: 'Date', isin: 'ISIN', quantity: 'Qty' },
          dateOrder: 'ymd',
          decimal: '.',
          actions: {},
        },
      });
      // As an older version (or a direct write) could have left it.
      const bad = await ctx.repos.importMappings.save(user.userId, {
        headerKey: 'x|y',
        headers: ['x', 'y'],
        mapping: {},
      });
      const listed = await inject(user, 'GET', '/api/import-mappings');
      expect(listed.statusCode, listed.body).toBe(200);
      const byId = new Map(listed.json().map((m: { id: string }) => [m.id, m]));
      expect(byId.get(good.id)).toMatchObject({
        mapping: { columns: { date: 'Date', isin: 'ISIN' } },
      });
      expect(byId.get(good.id)).not.toHaveProperty('unreadable');
      expect(byId.get(bad.id)).toMatchObject({
        mapping: null,
        unreadable: expect.stringMatching(/^not a valid format definition or column mapping: /),
      });
      const exported = await inject(user, 'GET', '/api/account/export');
      expect(exported.statusCode).toBe(200);
      expect(exported.json().importMappings.map((m: { id: string }) => m.id)).toEqual([good.id]);
      const again = await registerUser(ctx.app, `data-mapping-again-${engine}@example.com`);
      const reimported = await inject(again, 'POST', '/api/account/import', exported.json());
      expect(reimported.statusCode, reimported.body).toBe(201);
      expect((await inject(user, 'DELETE', `/api/import-mappings/${bad.id}`)).statusCode).toBe(204);
      expect((await inject(user, 'GET', '/api/import-mappings')).json()).toHaveLength(1);
    });
  });
});
