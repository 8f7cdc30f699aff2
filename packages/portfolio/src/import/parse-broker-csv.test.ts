import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from './parse-broker-csv.js';

const HEADER = 'Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note';

describe('parseBrokerCsv on hand-made files', () => {
  it('reports every bad row with its line and returns no transactions', () => {
    const text = [
      HEADER,
      '01-02-2024,AAPL,YAHOO,USD,180,2,buy,1,',
      '02-02-2024,AAPL,YAHOO,USD,180,abc,buy,1,',
      '03-02-2024,AAPL,YAHOO,USD,180,1,sell,0,',
      '04-02-2024,Flat,MANUAL,USD,1000,1,item,0,',
      '05-02-2024,AAPL,YAHOO,usd,180,-1,buy,0,',
    ].join('\n');
    const result = parseBrokerCsv(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.line)).toEqual([3, 5, 6]);
    expect(result.errors[0]?.message).toContain('abc');
    expect(result.errors[1]?.message).toContain('item');
    expect(result).not.toHaveProperty('transactions');
  });

  it('counts lines of quoted multi-line cells, blank lines and CRLF line ends', () => {
    const text = [
      HEADER,
      '01-02-2024,AAPL,YAHOO,USD,180,2,buy,1,"a note',
      'on two lines"',
      '',
      '31-02-2024,AAPL,YAHOO,USD,180,2,buy,1,',
    ].join('\r\n');
    expect(parseBrokerCsv(text)).toMatchObject({ ok: false, errors: [{ line: 5 }] });
    const fixed = text.replace('31-02-2024', '29-02-2024');
    const result = parseBrokerCsv(fixed);
    expect(result).toMatchObject({
      ok: true,
      transactions: [{ note: 'a note\non two lines' }, {}],
    });
  });

  it('reports a CSV syntax error with a line', () => {
    const result = parseBrokerCsv(`${HEADER}\n01-02-2024,AAPL,YAHOO,USD,180,2,buy,1,"unclosed\n`);
    expect(result).toMatchObject({ ok: false, errors: [{ line: expect.any(Number) }] });
    if (!result.ok) expect(result.errors[0]?.message).toMatch(/CSV syntax error/);
  });

  it('refuses files over the byte and row limits', () => {
    const row = '01-02-2024,AAPL,YAHOO,USD,180,2,buy,1,';
    const text = [HEADER, row, row, row].join('\n');
    expect(parseBrokerCsv(text, { limits: { maxBytes: 50 } })).toMatchObject({
      ok: false,
      errors: [{ line: 0, message: expect.stringContaining('limit is 50 bytes') }],
    });
    expect(parseBrokerCsv(text, { limits: { maxRows: 2 } })).toMatchObject({
      ok: false,
      errors: [{ line: 0, message: expect.stringContaining('3 data rows') }],
    });
    expect(parseBrokerCsv(text, { limits: { maxRows: 3 } }).ok).toBe(true);
  });

  it('refuses an unknown header, and a header that does not fit a forced format', () => {
    expect(parseBrokerCsv('a,b\n1,2')).toMatchObject({ ok: false, errors: [{ line: 1 }] });
    expect(parseBrokerCsv(`${HEADER}\n`, { format: 'revolut' })).toMatchObject({ ok: false });
    expect(parseBrokerCsv(`${HEADER}\n`, { format: 'ghostfolio' })).toEqual({
      ok: true,
      format: 'ghostfolio',
      transactions: [],
      rows: [],
      skipped: [],
    });
  });

  it('splits an IBKR commission in another currency into a fee transaction', () => {
    const text = [
      '"Buy/Sell","TradeDate","ISIN","Quantity","TradePrice","CurrencyPrimary","IBCommission","IBCommissionCurrency"',
      '"SELL","20240105","US0378331005","-3","185.5","USD","-1.2","CHF"',
    ].join('\n');
    expect(parseBrokerCsv(text)).toMatchObject({
      ok: true,
      format: 'ibkr-trades',
      transactions: [
        { type: 'sell', symbol: 'US0378331005', quantity: '3', price: '185.5', currency: 'USD' },
        { type: 'fee', amount: '1.2', currency: 'CHF', executedAt: '2024-01-05T00:00:00.000Z' },
      ],
    });
  });

  it('rejects a Revolut type it does not know', () => {
    const text = [
      'Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate',
      '2024-01-02T10:00:00Z,AAPL,DIVIDEND TAX (CORRECTION),,,$0.10,USD,1.1',
    ].join('\n');
    expect(parseBrokerCsv(text)).toMatchObject({
      ok: false,
      format: 'revolut',
      errors: [{ line: 2 }],
    });
  });
});
