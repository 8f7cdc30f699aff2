import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from './parse-broker-csv.js';

// A broker with no module of its own (German headers, `;`, decimal comma, dd.MM.yyyy)
const UNKNOWN = [
  'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Gebühren;Betrag',
  '15.03.2024;Kauf;Apple Inc.;US0378331005;2;150,50;USD;1,00;-302,00',
  '20.03.2024;Dividende;Apple Inc.;US0378331005;;;USD;;0,48',
  '21.03.2024;Einzahlung;;;;;EUR;;1.000,00',
  '22.03.2024;Sonderfall;;;;;EUR;;5,00',
].join('\n');

describe('column mapping for an unknown broker', () => {
  it('proposes a mapping from the headers and the values', () => {
    const result = parseBrokerCsv(UNKNOWN);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.line).toBe(1);
    expect(result.proposal).toMatchObject({
      mapping: {
        delimiter: ';',
        columns: {
          date: 'Datum',
          action: 'Typ',
          name: 'Wertpapier',
          isin: 'ISIN',
          quantity: 'Anzahl',
          price: 'Kurs',
          currency: 'Währung',
          fee: 'Gebühren',
          amount: 'Betrag',
        },
        dateOrder: 'dmy',
        decimal: ',',
        actions: { Kauf: 'buy', Dividende: 'dividend', Einzahlung: 'deposit', Sonderfall: 'skip' },
      },
      unmappedActions: ['Sonderfall'],
      missing: expect.arrayContaining(['symbol']),
      needs: [expect.objectContaining({ value: 'Sonderfall' })],
    });
    expect(result.proposal?.confidence.price?.evidence).toContain('header word "kurs"');
  });

  it('finds the date and action columns from their values when no header names them', () => {
    const text =
      'Day;What;Ticker;Units;Price;Ccy\n2024-03-15;buy;AAPL;1;150;USD\n2024-03-18;sell;AAPL;1;155;USD\n';
    const result = parseBrokerCsv(text);
    if (result.ok) throw new Error('an unknown layout must not import without a mapping');
    expect(result.proposal?.mapping).toMatchObject({
      columns: { date: 'Day', action: 'What', symbol: 'Ticker', quantity: 'Units', price: 'Price' },
      dateOrder: 'ymd',
      actions: { buy: 'buy', sell: 'sell' },
    });
    expect(result.proposal?.missing).not.toContain('date');
    const mapping = result.proposal?.mapping;
    if (!mapping) throw new Error('no proposal');
    const imported = parseBrokerCsv(text, { mapping });
    expect(imported.ok && imported.rows.map((r) => r.transaction.type)).toEqual(['buy', 'sell']);
  });

  it('imports with the confirmed mapping, listing what it skips', () => {
    const proposal = parseBrokerCsv(UNKNOWN);
    if (proposal.ok || !proposal.proposal) throw new Error('no proposal');
    const result = parseBrokerCsv(UNKNOWN, { mapping: proposal.proposal.mapping });
    expect(result).toMatchObject({
      ok: true,
      format: 'mapped',
      transactions: [
        {
          type: 'buy',
          symbol: 'US0378331005',
          quantity: '2',
          price: '150.5',
          fee: '1',
          currency: 'USD',
          executedAt: '2024-03-15T00:00:00.000Z',
        },
        { type: 'dividend', symbol: 'US0378331005', amount: '0.48', currency: 'USD' },
        { type: 'deposit', amount: '1000', currency: 'EUR' },
      ],
      skipped: [{ line: 5, message: expect.stringContaining('Sonderfall') }],
    });
    if (result.ok) expect(result.rows[0]?.name).toBe('Apple Inc.');
    // a corrected mapping: the unknown action is a fee after all
    const corrected = {
      ...proposal.proposal.mapping,
      actions: { ...proposal.proposal.mapping.actions, Sonderfall: 'fee' as const },
    };
    expect(parseBrokerCsv(UNKNOWN, { mapping: corrected })).toMatchObject({
      ok: true,
      skipped: [],
      transactions: [{}, {}, {}, { type: 'fee', amount: '5', currency: 'EUR' }],
    });
  });
});
