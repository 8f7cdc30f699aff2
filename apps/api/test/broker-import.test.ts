import { readdirSync, readFileSync } from 'node:fs';
import { CashPosition, Holding, ImportResult, Portfolio } from '@svc/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, ORIGIN, registerUser, type TestContext } from './helpers.js';
import { sharedData } from './shared-data.js';

// Every file of shared/data/broker-exports, through the HTTP route, into a fresh portfolio each.
const EXPORTS = ['export-to-ghostfolio', 'ghostfolio'].flatMap((folder) =>
  readdirSync(sharedData('broker-exports', folder))
    .sort()
    .map((name) => `${folder}/${name}`),
);
const readExport = (name: string) => readFileSync(sharedData('broker-exports', name), 'utf8');

describe.each(ENGINES)('broker import over HTTP on %s', (engine) => {
  let ctx: TestContext;
  let user: { cookie: string; userId: string };

  beforeAll(async () => {
    ctx = await createTestContext({ engine });
    user = await registerUser(ctx.app, `importer-${engine}@example.com`);
  });
  afterAll(() => ctx.close());

  const headers = () => ({ cookie: user.cookie, ...ORIGIN });
  async function freshPortfolio(name: string): Promise<Portfolio> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: headers(),
      payload: { name },
    });
    expect(res.statusCode, res.body).toBe(201);
    return Portfolio.parse(res.json());
  }
  const upload = (portfolioId: string, file: string, query = '', text = readExport(file)) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${portfolioId}/import${query}`,
      headers: {
        ...headers(),
        'content-type': file.endsWith('.json') ? 'application/json' : 'text/csv',
      },
      payload: text,
    });
  /** A real import with `mapping` (URI-encoded JSON) confirmed by its dry run's preview token. */
  async function confirmedImport(
    portfolioId: string,
    file: string,
    mapping: string,
    text: string,
    extra = '',
  ) {
    const dry = await upload(portfolioId, file, `?dryRun=1&mapping=${mapping}${extra}`, text);
    const token = ImportResult.parse(dry.json()).previewToken;
    return upload(portfolioId, file, `?mapping=${mapping}&previewToken=${token}${extra}`, text);
  }
  async function positions(portfolioId: string) {
    const h = await ctx.app.inject({
      method: 'GET',
      url: `/api/holdings?portfolioId=${portfolioId}`,
      headers: headers(),
    });
    const c = await ctx.app.inject({
      method: 'GET',
      url: `/api/cash?portfolioId=${portfolioId}`,
      headers: headers(),
    });
    const holdings = (h.json() as unknown[]).map((x) => Holding.parse(x));
    const cash = (c.json() as unknown[]).map((x) => CashPosition.parse(x));
    return {
      holdings,
      quantities: Object.fromEntries(
        holdings.map((x) => [`${x.symbol} ${x.currency}`, x.quantity]),
      ),
      cash: Object.fromEntries(cash.map((x) => [x.currency, x.amount])),
    };
  }
  async function transactionCount(portfolioId: string): Promise<number> {
    let count = 0;
    let cursor = '';
    do {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/transactions?portfolioId=${portfolioId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        headers: headers(),
      });
      const page = res.json() as { items: unknown[]; nextCursor: string | null };
      count += page.items.length;
      cursor = page.nextCursor ?? '';
    } while (cursor);
    return count;
  }

  it.each(EXPORTS)('imports %s (or refuses it at its line)', async (file) => {
    const p = await freshPortfolio(file);
    const res = await upload(p.id, file);
    if (file.includes('not-ok_')) {
      // 16/09/21: a two-digit year is refused at line 2, and nothing is stored
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'line 2', message: expect.stringContaining('16/09/21') }],
      });
      expect(await transactionCount(p.id)).toBe(0);
      return;
    }
    expect(res.statusCode, res.body).toBe(201);
    const result = ImportResult.parse(res.json());
    expect(result.imported).toBeGreaterThan(0);
    expect(await transactionCount(p.id)).toBe(result.imported);
    const { quantities } = await positions(p.id);
    expect(quantities).toEqual(
      Object.fromEntries(result.holdings.map((h) => [`${h.symbol} ${h.currency}`, h.quantity])),
    );
  });

  it('Saxo: holdings and cash per currency worked out by hand', async () => {
    const p = await freshPortfolio('Saxo');
    expect((await upload(p.id, 'export-to-ghostfolio/saxo-export.csv')).statusCode).toBe(201);
    const { quantities, cash } = await positions(p.id);
    // VWRA: bought 3 + 3 + 17 + 3 (30-Dec) + 2 + 2 + 2 (16-Dec), sold 3 (02-Jan) = 29
    expect(quantities).toEqual({
      'AMZN USD': '2',
      'META USD': '1',
      'NVDA USD': '3',
      'VUSA EUR': '1.5',
      'VWRA USD': '29',
    });
    // USD: deposits 500 + 833 + 833 + 500 + 500 + 833 + 750 + 750 + 280 × 3 = 6339, − withdrawal
    //   280; − buys 405.55 + 422.99 × 3 + 2379.35 + 590.16 + 441 + 288.96 × 3 = 5951.91;
    //   + sale 419.22; − custody fees 3.91 + 5.2 + 2.83 + 0.64 = 12.58 → 513.73
    // EUR: dividends 1.83 + 0.46 − VUSA 1.5 × 110.01 = −162.725 → −162.73 (half-even at 2 places)
    expect(cash).toEqual({ EUR: '-162.72', USD: '513.73' });
  });

  it('IBKR trades: conversions keep cash right per currency', async () => {
    const p = await freshPortfolio('IBKR');
    expect((await upload(p.id, 'export-to-ghostfolio/ibkr-trades-export.csv')).statusCode).toBe(
      201,
    );
    const { quantities, cash } = await positions(p.id);
    // 95 + 105 + 11 + 1 + 2 + 97 + 12 = 323 VT; 7 SMMCHA
    expect(quantities).toEqual({ 'CH0111762537 CHF': '7', 'US9220427424 USD': '323' });
    // USD: −(Σ TradeMoney 31576.55 + commissions 6.979) + 8938.4 + 11085.787 + 11560.074 = 0.732
    // CHF: −(1978.9 + 5) − (8000 + 10012 + 10020) − (1.79924 + 1.79802 + 1.73416) = −30021.23142
    expect(cash).toEqual({ CHF: '-30021.23', USD: '0.73' });
  });

  it('Trade Republic: Dutch headers, both number styles', async () => {
    const p = await freshPortfolio('TR');
    expect((await upload(p.id, 'export-to-ghostfolio/traderepublic-export.csv')).statusCode).toBe(
      201,
    );
    const { quantities, cash } = await positions(p.id);
    // IE00BKX55T58: 0,052361 + 0,05198 − 0,104341 = 0; Tesla sold but never bought (cash only)
    expect(quantities).toEqual({ 'LU1829221024 EUR': '0.2989', 'SI0031102120 EUR': '5' });
    // −10,84 + 0,01 − 5 + 10,799 − 5 + 0,03 − 24.999996 + 86.714375 − 690.25 = −638.536621
    expect(cash).toEqual({ EUR: '-638.54' });
  });

  it('Trading 212: USD trades paid in EUR, split, distribution', async () => {
    const p = await freshPortfolio('T212');
    expect((await upload(p.id, 'export-to-ghostfolio/trading212-export.csv')).statusCode).toBe(201);
    const { quantities, cash } = await positions(p.id);
    // issue 38: held under the tickers the export gives with each ISIN
    expect(quantities).toEqual({
      'ASTS USD': '0.29764',
      'CSCO USD': '0.029053',
      'UNP USD': '11.0563304',
      'VICI USD': '0.041014',
    });
    // EUR: deposit 31 − buys 1.33 − 1.20 − 1.47 + sale 0.70 + dividends 0.03 + 0.03 + 17.67
    //   + interest 0.01 = 45.44; USD: every conversion leg equals its trade, so no USD cash
    expect(cash).toEqual({ EUR: '45.44' });
  });

  it('Ghostfolio JSON: the sale listed before its purchase imports (execution order)', async () => {
    const p = await freshPortfolio('NOVN');
    const file = 'ghostfolio/ok_novn-buy-and-sell-partially.json';
    expect((await upload(p.id, file)).statusCode).toBe(201);
    const { quantities, cash } = await positions(p.id);
    // bought 2 on 2022-03-07, sold 1 on 2022-04-08
    expect(quantities).toEqual({ 'NOVN.SW CHF': '1' });
    // −(2 × 75.8 + 2.95) + (85.73 − 1.3) = −70.12
    expect(cash).toEqual({ CHF: '-70.12' });
  });

  it('re-importing adds nothing and says how many rows were present; a dry run stores nothing', async () => {
    const p = await freshPortfolio('Twice');
    const file = 'export-to-ghostfolio/xtb-export.csv';
    const dry = await upload(p.id, file, '?dryRun=1');
    expect(dry.statusCode).toBe(200);
    const preview = ImportResult.parse(dry.json());
    expect(preview).toMatchObject({ dryRun: true, importBatchId: null, failed: [] });
    expect(preview.cash).toEqual([{ currency: 'EUR', amount: '201.94' }]);
    expect(await transactionCount(p.id)).toBe(0);
    expect((await positions(p.id)).holdings).toEqual([]);

    const first = ImportResult.parse((await upload(p.id, file)).json());
    expect(first.imported).toBe(preview.imported);
    const before = await positions(p.id);
    const again = await upload(p.id, file);
    expect(again.statusCode).toBe(201);
    // every row of the file is present: the 42 stored and the 3 rows that repeat an id
    expect(ImportResult.parse(again.json())).toMatchObject({
      imported: 0,
      alreadyPresent: preview.rows,
    });
    expect(preview.rows).toBe(45);
    expect(await transactionCount(p.id)).toBe(first.imported);
    expect((await positions(p.id)).quantities).toEqual(before.quantities);
  });

  it('two imports of one file at once store it once', async () => {
    const p = await freshPortfolio('Race');
    const file = 'export-to-ghostfolio/saxo-export.csv';
    const [a, b] = await Promise.all([upload(p.id, file), upload(p.id, file)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const imported = [a, b].map((r) => ImportResult.parse(r.json()).imported).sort();
    expect(imported).toEqual([0, 30]);
    expect(await transactionCount(p.id)).toBe(30);
  });

  it('a failing row in the middle stores nothing; the dry run lists it', async () => {
    const p = await freshPortfolio('Broken');
    const file = 'export-to-ghostfolio/trading212-export.csv';
    const lines = readExport(file).split('\n');
    lines[6] = (lines[6] ?? '').replace('2023-12-27', '27-12-23'); // line 7, a dividend
    const broken = lines.join('\n');
    const res = await upload(p.id, file, '', broken);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'line 7', message: expect.stringContaining('27-12-23') },
    ]);
    expect(await transactionCount(p.id)).toBe(0);
    expect((await positions(p.id)).holdings).toEqual([]);
    const dry = await upload(p.id, file, '?dryRun=1', broken);
    expect(dry.statusCode).toBe(200);
    expect(dry.json().failed).toEqual([{ line: 7, message: expect.stringContaining('27-12-23') }]);
  });

  it('oversell=reject names the line and the quantity held then', async () => {
    const p = await freshPortfolio('Strict');
    const res = await upload(
      p.id,
      'export-to-ghostfolio/trading212-export.csv',
      '?oversell=reject',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        path: 'line 6',
        message: 'sells 0.61254 ASTR (USD) on 2023-12-26 but 0 are held then',
      },
    ]);
    expect(await transactionCount(p.id)).toBe(0);
  });

  it('proposes a column mapping for an unknown broker; the confirmed mapping imports it', async () => {
    const p = await freshPortfolio('Unknown broker');
    const text = [
      'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Gebühren;Betrag',
      '15.03.2024;Kauf;Apple Inc.;US0378331005;2;150,50;USD;1,00;-302,00',
      '21.03.2024;Einzahlung;;;;;USD;;1.000,00',
    ].join('\n');
    const dry = await upload(p.id, 'unknown.csv', '?dryRun=1', text);
    expect(dry.statusCode).toBe(200);
    const preview = ImportResult.parse(dry.json());
    const { proposal } = preview;
    expect(proposal?.mapping.columns).toMatchObject({
      date: 'Datum',
      isin: 'ISIN',
      amount: 'Betrag',
    });
    // the dry run of a file no definition recognises shows what confirming the proposal makes
    expect(preview).toMatchObject({
      format: 'mapped',
      definition: { kind: 'proposed' },
      failed: [],
      counts: { buy: 1, deposit: 1 },
      holdings: [expect.objectContaining({ symbol: 'AAPL', quantity: '2' })],
      cash: [{ currency: 'USD', amount: '698.00' }],
      previewToken: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const mapping = encodeURIComponent(JSON.stringify(proposal?.mapping));
    // never on a guess: without the preview's token, or with another file's, nothing is stored
    const unconfirmed = await upload(p.id, 'unknown.csv', `?mapping=${mapping}`, text);
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().errors).toEqual([
      { path: 'previewToken', message: expect.any(String) },
    ]);
    const otherFile = `${text}\n22.03.2024;Einzahlung;;;;;USD;;5,00`;
    const mismatched = await upload(
      p.id,
      'unknown.csv',
      `?mapping=${mapping}&previewToken=${preview.previewToken}`,
      otherFile,
    );
    expect(mismatched.statusCode).toBe(400);
    expect(await upload(p.id, 'unknown.csv', '', text).then((r) => r.statusCode)).toBe(400);
    expect(await transactionCount(p.id)).toBe(0);
    const res = await upload(
      p.id,
      'unknown.csv',
      `?mapping=${mapping}&previewToken=${preview.previewToken}`,
      text,
    );
    expect(res.statusCode, res.body).toBe(201);
    const { quantities, cash, holdings } = await positions(p.id);
    // the ISIN resolves to Apple's ticker through the offline resolver file (issue 38)
    expect(quantities).toEqual({ 'AAPL USD': '2' });
    expect(holdings[0]?.name).toBe('Apple Inc.');
    // 1000 − (2 × 150.50 + 1) = 698
    expect(cash).toEqual({ USD: '698.00' });
    const bad = await upload(p.id, 'unknown.csv', '?mapping=%7Bnot-json', text);
    expect(bad.statusCode).toBe(400);
  });

  it('a proposal whose own import is in doubt says so in the dry run; unchanged it is refused with its questions until confirmed', async () => {
    const p = await freshPortfolio('Doubled rows');
    const text = [
      'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Betrag',
      '28.02.2024;Einzahlung;;;;;USD;2.000,00',
      '01.03.2024;Kauf;Apple Inc.;US0378331005;10;150,00;USD;-1.500,00',
      '01.03.2024;Ausführung Kauf;Apple Inc.;US0378331005;10;150,00;USD;-1.500,00',
    ].join('\n');
    const dry = await upload(p.id, 'unknown.csv', '?dryRun=1', text);
    expect(dry.statusCode, dry.body).toBe(200);
    const { proposal } = ImportResult.parse(dry.json());
    expect(proposal?.acceptable).toBe(false);
    expect(proposal?.checks.filter((c) => !c.passed)).toEqual([
      expect.objectContaining({ id: 'counted-twice', lines: [3, 4] }),
    ]);
    expect(proposal?.needs).toContainEqual(
      expect.objectContaining({ check: 'counted-twice', candidates: ['skip', 'buy'] }),
    );
    const mapping = encodeURIComponent(JSON.stringify(proposal?.mapping));
    const checked = ImportResult.parse(
      (await upload(p.id, 'unknown.csv', `?dryRun=1&mapping=${mapping}`, text)).json(),
    );
    expect(checked.mappingChecks?.acceptable).toBe(false);
    // the failed check stays a question of the preview: unconfirmed, nothing is imported
    expect(checked.mappingChecks?.needs).toContainEqual(
      expect.objectContaining({ check: 'counted-twice', question: expect.stringContaining('?') }),
    );
    const refused = await upload(p.id, 'unknown.csv', `?mapping=${mapping}`, text);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'previewToken' }],
    });
    expect(await transactionCount(p.id)).toBe(0);
    // the user answers: the second row is the same order; skipped, the import is checked and stored
    const answered = encodeURIComponent(
      JSON.stringify({
        ...proposal?.mapping,
        actions: { ...proposal?.mapping.actions, 'Ausführung Kauf': 'skip' },
      }),
    );
    const res = await confirmedImport(p.id, 'unknown.csv', answered, text);
    expect(res.statusCode, res.body).toBe(201);
    expect((await positions(p.id)).quantities).toEqual({ 'AAPL USD': '10' });
    // confirmed with its token but its question unanswered: still refused, naming the question
    const q = await freshPortfolio('Confirmed as is');
    const questioned = await confirmedImport(q.id, 'unknown.csv', mapping, text);
    expect(questioned.statusCode).toBe(400);
    expect(questioned.json().errors).toEqual([
      { path: 'mapping.checks.counted-twice', message: expect.stringContaining('?') },
    ]);
    // the user overrides the question explicitly: that is their choice
    const confirmed = await confirmedImport(
      q.id,
      'unknown.csv',
      mapping,
      text,
      '&confirmMapping=1',
    );
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect((await positions(q.id)).quantities).toEqual({ 'AAPL USD': '20' });
  });

  it('a broker known by name imports directly; when its read of a file fails a check, only as previewed', async () => {
    const header =
      'date;time;status;reference;description;assetType;type;isin;shares;price;amount;fee;tax;currency';
    const clean = [
      header,
      '2024-01-02;09:00:00;Executed;"r1";"Deposit";Cash;Deposit;;;;1000;0;0;EUR',
      '2024-01-03;10:00:00;Executed;"r2";"iShares Core MSCI World";Security;Buy;IE00B4L5Y983;10;50;-500;1;0;EUR',
    ].join('\n');
    const p = await freshPortfolio('Scalable');
    const res = await upload(p.id, 'scalable.csv', '', clean);
    expect(res.statusCode, res.body).toBe(201);
    expect(ImportResult.parse(res.json())).toMatchObject({
      format: 'scalable-capital',
      definition: { kind: 'catalogue', id: 'scalable-capital' },
      counts: { deposit: 1, buy: 1 },
    });
    // a sale of more than the file bought: the definition's read is in doubt (positions)
    const doubtful = [
      header,
      '2024-02-02;10:00:00;Executed;"r3";"Apple";Security;Buy;US0378331005;1;50;-51;1;0;EUR',
      '2024-02-03;10:00:00;Executed;"r4";"Apple";Security;Sell;US0378331005;10;60;599;1;0;EUR',
    ].join('\n');
    const q = await freshPortfolio('Scalable doubtful');
    const dry = ImportResult.parse((await upload(q.id, 'sell.csv', '?dryRun=1', doubtful)).json());
    expect(dry.mappingChecks?.acceptable).toBe(false);
    expect(dry.previewToken).toMatch(/^[0-9a-f]{64}$/);
    const refused = await upload(q.id, 'sell.csv', '', doubtful);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ path: 'previewToken', message: expect.any(String) }]);
    const confirmed = await upload(q.id, 'sell.csv', `?previewToken=${dry.previewToken}`, doubtful);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
  });

  it('a Windows-1252 export with a preamble: the proposal accepted unchanged imports it; a bad cell is a 400 naming line and column', async () => {
    const p = await freshPortfolio('Boursorama');
    const text = [
      'Compte titres 0123456789',
      'Export du 02/04/2024',
      '',
      'Date opération;Opération;Libellé;Quantité;Cours;Montant;Frais;Devise',
      '03/01/2024;Versement;Versement espèces;;;5 000,00 €;;EUR',
      '04/01/2024;Achat Comptant;AIR LIQUIDE (FR0000120073);10;165,30 €;-1 658,00 €;5,00 €;EUR',
      '10/03/2024;Vente Comptant;AIR LIQUIDE (FR0000120073);4;180,00 €;715,00 €;5,00 €;EUR',
    ].join('\n');
    // Windows-1252 bytes: Latin-1, and € as 0x80
    const bytes = Buffer.from([...text].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0))));
    const send = (query: string, payload: Buffer) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/portfolios/${p.id}/import${query}`,
        headers: { ...headers(), 'content-type': 'text/csv' },
        payload,
      });
    const dry = await send('?dryRun=1', bytes);
    expect(dry.statusCode, dry.body).toBe(200);
    const { proposal } = ImportResult.parse(dry.json());
    expect(proposal?.mapping).toMatchObject({ headerLine: 4, decimal: ',' });
    expect(proposal?.confidence.price?.column).toBe('Cours');
    const mapping = encodeURIComponent(JSON.stringify(proposal?.mapping));
    const broken = Buffer.from(bytes.toString('latin1').replace('165,30', 'n/a'), 'latin1');
    const bad = await send(`?mapping=${mapping}`, broken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { path: 'line 6', message: 'column "Cours": "n/a €" is not a number' },
    ]);
    expect(await transactionCount(p.id)).toBe(0);
    const token = ImportResult.parse(
      (await send(`?dryRun=1&mapping=${mapping}`, bytes)).json(),
    ).previewToken;
    const res = await send(`?mapping=${mapping}&previewToken=${token}`, bytes);
    expect(res.statusCode, res.body).toBe(201);
    const { quantities, cash } = await positions(p.id);
    expect(quantities).toEqual({ 'FR0000120073 EUR': '6' });
    // 5000 − 1658 + 715
    expect(cash).toEqual({ EUR: '4057.00' });
  });

  it('a saved mapping is checked too: a next file whose result is in doubt is refused until confirmed', async () => {
    const header = 'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Betrag';
    const first = [
      header,
      '15.03.2024;Kauf;Apple Inc.;US0378331005;2;150,50;USD;-301,00',
      '16.03.2024;Verkauf;Apple Inc.;US0378331005;1;151,00;USD;151,00',
    ].join('\n');
    const p = await freshPortfolio('Saved mapping checked');
    const dry = await upload(p.id, 'first.csv', '?dryRun=1', first);
    const mapping = encodeURIComponent(
      JSON.stringify(ImportResult.parse(dry.json()).proposal?.mapping),
    );
    const saved = await confirmedImport(p.id, 'first.csv', mapping, first, '&saveMapping=1');
    expect(saved.statusCode, saved.body).toBe(201);
    // the next file sells more than it bought itself: read with the saved mapping, it is in doubt
    const second = [
      header,
      '01.04.2024;Kauf;Microsoft;US5949181045;1;400,00;USD;-400,00',
      '02.04.2024;Verkauf;Microsoft;US5949181045;10;410,00;USD;4.100,00',
    ].join('\n');
    const preview = ImportResult.parse(
      (await upload(p.id, 'next.csv', '?dryRun=1', second)).json(),
    );
    expect(preview.savedMapping).toMatchObject({ used: true });
    expect(preview.mappingChecks?.acceptable).toBe(false);
    const refused = await upload(p.id, 'next.csv', '', second);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors).toEqual([
      {
        path: 'mapping.checks.positions',
        message: expect.stringContaining('sells 10 US5949181045'),
      },
    ]);
    const confirmed = await upload(p.id, 'next.csv', '?confirmMapping=1', second);
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    // leave the user's saved mappings as they were (another test lists them)
    const id = ImportResult.parse(saved.json()).savedMapping?.id;
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/import-mappings/${id}`,
      headers: headers(),
    });
    expect(removed.statusCode).toBe(204);
  });

  it('saves a confirmed mapping for its header set; the next such file imports without it', async () => {
    const header = 'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Gebühren;Betrag';
    const first = [
      header,
      '15.03.2024;Kauf;Apple Inc.;US0378331005;2;150,50;USD;1,00;-302,00',
      '21.03.2024;Einzahlung;;;;;USD;;1.000,00',
    ].join('\n');
    const p = await freshPortfolio('Saved mapping');
    const dry = await upload(p.id, 'unknown.csv', '?dryRun=1', first);
    const { proposal } = ImportResult.parse(dry.json());
    const mapping = encodeURIComponent(JSON.stringify(proposal?.mapping));
    const saved = await confirmedImport(p.id, 'unknown.csv', mapping, first, '&saveMapping=1');
    expect(saved.statusCode, saved.body).toBe(201);
    const savedResult = ImportResult.parse(saved.json());
    expect(savedResult.savedMapping).toMatchObject({ saved: true, used: false });

    // Next month's file: the same columns in another order and case, new rows.
    const columns = header.split(';');
    const order = [8, 0, 1, 2, 3, 4, 5, 6, 7];
    const row = '22.04.2024;Kauf;Apple Inc.;US0378331005;1;160,00;USD;1,00;-161,00'.split(';');
    const second = [
      order.map((i) => (columns[i] ?? '').toUpperCase()).join(';'),
      order.map((i) => row[i] ?? '').join(';'),
    ].join('\n');
    const dryAgain = ImportResult.parse(
      (await upload(p.id, 'next.csv', '?dryRun=1', second)).json(),
    );
    expect(dryAgain).toMatchObject({ imported: 1, failed: [], savedMapping: { used: true } });
    const again = await upload(p.id, 'next.csv', '', second);
    expect(again.statusCode, again.body).toBe(201);
    expect(ImportResult.parse(again.json()).savedMapping).toMatchObject({
      id: savedResult.savedMapping?.id,
      used: true,
      saved: false,
    });
    const { quantities, cash } = await positions(p.id);
    expect(quantities).toEqual({ 'AAPL USD': '3' });
    // 1000 − 302 − 161 = 537
    expect(cash).toEqual({ USD: '537.00' });

    const list = await ctx.app.inject({ url: '/api/import-mappings', headers: headers() });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: savedResult.savedMapping?.id,
        headers: columns.map((c) => c.toLowerCase()),
      }),
    ]);

    // Another user sees none of it: their file with these columns is unknown to them.
    const other = await registerUser(ctx.app, `mapping-other-${engine}@example.com`);
    const otherHeaders = { cookie: other.cookie, ...ORIGIN };
    const theirs = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: otherHeaders,
      payload: { name: 'Theirs' },
    });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${theirs.json().id}/import`,
      headers: { ...otherHeaders, 'content-type': 'text/csv' },
      payload: second,
    });
    expect(refused.statusCode).toBe(400);
    const theirList = await ctx.app.inject({ url: '/api/import-mappings', headers: otherHeaders });
    expect(theirList.json()).toEqual([]);
    const notTheirs = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/import-mappings/${savedResult.savedMapping?.id}`,
      headers: otherHeaders,
    });
    expect(notTheirs.statusCode).toBe(404);

    // Deleted, the mapping no longer applies.
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/import-mappings/${savedResult.savedMapping?.id}`,
      headers: headers(),
    });
    expect(deleted.statusCode).toBe(204);
    expect((await upload(p.id, 'next.csv', '?dryRun=1', second)).json()).toMatchObject({
      definition: { kind: 'proposed' },
      previewToken: expect.any(String),
    });
    expect((await upload(p.id, 'next.csv', '', second)).statusCode).toBe(400);
  });

  it('imports a file of 10,000 rows', async () => {
    const p = await freshPortfolio('Big');
    const rows = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
    for (let i = 0; i < 10_000; i++) {
      const day = new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      // every 4th row sells 1 of the 2 units of the symbol bought the row before
      const sell = i % 4 === 3;
      const symbol = `SYM${(sell ? i - 1 : i) % 20}`;
      rows.push(`${day},${symbol},YAHOO,USD,${100 + (i % 7)},${sell ? '1,sell' : '2,buy'},1,`);
    }
    const text = rows.join('\n');
    const res = await upload(p.id, 'big.csv', '', text);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(ImportResult.parse(res.json()).imported).toBe(10_000);
    // 7,500 buys of 2 and 2,500 sells of 1: 12,500 units over 20 symbols
    expect(ImportResult.parse(res.json()).warnings).toEqual([]);
    const { holdings } = await positions(p.id);
    const units = holdings.reduce((sum, h) => sum + Number(h.quantity), 0);
    expect(units).toBe(12_500);
  }, 120_000);
});
