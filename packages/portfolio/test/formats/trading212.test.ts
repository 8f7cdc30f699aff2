import { describe, expect, it } from 'vitest';
import { trading212 } from '../../src/import/definitions/catalogue/trading212.js';
import { cellOf, safeRegex } from '../../src/import/mapped-row.js';
import { realign } from '../../src/import/table-options.js';
import { atLine, cashOf, importSample, quantitiesOf } from './sample.js';

describe('Trading 212 history', () => {
  it('books USD trades with their EUR conversion, shifted corporate-action rows, and the split', () => {
    const { parsed, plan } = importSample('export-to-ghostfolio/trading212-export.csv');
    expect(parsed.format).toBe('trading212');
    // line 3: CSCO 0.029053 @ 49.96 USD, Total 1.33 EUR: buy in USD, USD in from EUR
    expect(atLine(parsed, 3)).toEqual([
      expect.objectContaining({
        type: 'buy',
        symbol: 'US17275R1023',
        price: '49.96',
        currency: 'USD',
      }),
      expect.objectContaining({ type: 'deposit', amount: '1.45148788', currency: 'USD' }),
      expect.objectContaining({ type: 'withdrawal', amount: '1.33', currency: 'EUR' }),
    ]);
    expect(parsed.rows.find((r) => r.line === 3)).toMatchObject({
      externalId: 'EOF7504196256',
      name: 'Cisco Systems',
      isin: 'US17275R1023',
      ticker: 'CSCO',
    });
    // the dividend rows (no ID) and the shifted corporate-action rows keep ISIN and ticker too
    expect(parsed.rows.find((r) => r.line === 7)).toMatchObject({
      isin: 'US56035L1044',
      ticker: 'MAIN',
    });
    expect(parsed.rows.find((r) => r.line === 11)).toMatchObject({
      isin: 'US9078181081',
      ticker: 'PALAF',
    });
    // line 14: split 29.80478 → 7.451195 shares, ratio 0.25
    expect(atLine(parsed, 14)).toEqual([expect.objectContaining({ type: 'split', ratio: '0.25' })]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([12, 13]);
    // line 6: ASTR sold, never bought here: cash only
    expect(plan.warnings.map((w) => w.line)).toEqual([6]);
    expect(quantitiesOf(plan)).toMatchObject({ 'US9078181081 USD': '11.0563304' });
    // EUR: 31 − 1.33 − 1.20 − 1.47 + 0.70 + dividends 0.03 + 0.03 + 17.67 + interest 0.01 = 45.44
    // USD: each conversion leg equals its trade's gross, so nothing is left in USD
    expect(cashOf(plan)).toEqual({ EUR: '45.44' });
  });

  it('reads corporate-action rows from their own columns (Trading 212 writes them two cells right)', () => {
    const { parsed } = importSample('export-to-ghostfolio/trading212-export.csv');
    // line 11: Stock distribution,…,"Union Pacific",,EOF27002856700,11.0563304000,0.00,USD,…
    expect(parsed.rows.find((r) => r.line === 11)).toMatchObject({
      externalId: 'EOF27002856700',
      name: 'Union Pacific',
      transaction: { type: 'buy', quantity: '11.0563304', price: '0', currency: 'USD' },
    });
    // line 14: the split's open row keeps its own id, and the price currency of its column
    expect(parsed.rows.find((r) => r.line === 14)).toMatchObject({
      externalId: 'EOF29950772853',
      transaction: { type: 'split', currency: 'USD' },
    });
  });

  it("realigns a shifted row by the definition's rule, every header reading its value; leaves other rows alone", () => {
    const rules = trading212.read.shiftedRows ?? [];
    const reader = {
      cell: cellOf,
      matches: (pattern: string, cell: string) => safeRegex(pattern)?.test(cell) === true,
    };
    const header = [
      'action',
      'time',
      'isin',
      'ticker',
      'name',
      'no. of shares',
      'price / share',
      'currency (price / share)',
      'exchange rate',
      'result',
      'currency (result)',
      'total',
      'currency (total)',
      'id',
    ];
    const cells = [
      'Transfer out',
      '2025-02-28 08:25:01',
      'DE000A3GK2N1',
      'XBTI',
      'DDA',
      '',
      'EOF28806643918',
      '595',
      '3.41943',
      'EUR',
      '1',
      '0.00',
      'EUR',
      '2034.56',
      'EUR',
      '',
    ];
    const row = {
      line: 12,
      cells,
      header,
      cell: (i: number) => cells[i] ?? '',
      has: (c: string) => header.includes(c),
      get: (c: string) => cells[header.indexOf(c)] ?? '',
    };
    const fixed = realign(row, rules, reader);
    expect(
      ['no. of shares', 'price / share', 'currency (price / share)', 'total', 'id'].map(fixed.get),
    ).toEqual(['595', '3.41943', 'EUR', '2034.56', 'EOF28806643918']);
    const deposit = ['Deposit', '2023-12-18', '', '', '', '', '', ''];
    const plain = { ...row, cells: deposit, cell: (i: number) => deposit[i] ?? '' };
    expect(realign(plain, rules, reader)).toBe(plain);
  });
});
