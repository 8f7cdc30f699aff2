import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../src/index.js';

// Real broker export fixtures (see shared/data/broker-exports/SOURCES.md); never copied here.
const dataDir =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data');
const read = (path: string) => readFileSync(join(dataDir, 'broker-exports', path), 'utf8');

describe('Ghostfolio CSV fixtures', () => {
  it('imports ok_sample.csv: 4 transactions, the empty buy skipped', () => {
    const result = parseBrokerCsv(read('ghostfolio/ok_sample.csv'));
    expect(result).toMatchObject({ ok: true, format: 'ghostfolio' });
    if (!result.ok) return;
    expect(result.transactions).toHaveLength(4);
    // line 2: 01-09-2021,Account Opening Fee,MANUAL,USD,0,0,fee,49
    expect(result.transactions[0]).toEqual({
      type: 'fee',
      amount: '49',
      currency: 'USD',
      executedAt: '2021-09-01T00:00:00.000Z',
      note: 'Account Opening Fee',
    });
    // line 3: 16-09-2021,MSFT,YAHOO,USD,298.580,5,buy,19.00,My first order 🤓
    expect(result.transactions[1]).toEqual({
      type: 'buy',
      symbol: 'MSFT',
      quantity: '5',
      price: '298.58',
      fee: '19',
      currency: 'USD',
      executedAt: '2021-09-16T00:00:00.000Z',
      note: 'My first order 🤓',
    });
    // line 4: 17/11/2021,MSFT,...,0.62,5,dividend → 5 × 0.62 = 3.10
    expect(result.transactions[2]).toMatchObject({
      type: 'dividend',
      symbol: 'MSFT',
      amount: '3.1',
    });
    // line 5: 01.01.2022 (dotted day-first date)
    expect(result.transactions[3]).toMatchObject({
      executedAt: '2022-01-01T00:00:00.000Z',
      price: '500000',
    });
    // line 6: 20500606,US5949181045,YAHOO,USD,0.00,0,buy,0.00 — quantity 0, no fee
    expect(result.skipped).toEqual([{ line: 6, message: expect.stringContaining('quantity 0') }]);
  });

  it('rejects not-ok_invalid-date-yy.csv at line 2 and returns nothing importable', () => {
    const result = parseBrokerCsv(read('ghostfolio/not-ok_invalid-date-yy.csv'));
    expect(result).toEqual({
      ok: false,
      format: 'ghostfolio',
      errors: [{ line: 2, message: expect.stringContaining('16/09/21') }],
    });
  });
});
