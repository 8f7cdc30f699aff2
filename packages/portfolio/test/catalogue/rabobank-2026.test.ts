import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../../src/index.js';
import { FIXTURES } from './fixtures.js';

// Rabobank's 19-column Mutatieoverzicht (see the definition's source): Bedrag in valuta holds the
// currency code, Transactie bedrag the signed cash with costs and taxes in it, a sale's Volume is
// positive. The rows are hand-made in the shapes of the source's test rows.

const text = FIXTURES['rabobank-2026']?.text ?? '';
const [header = ''] = text.split('\n');
const read = (csv: string) => {
  const parsed = parseBrokerCsv(csv);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed;
};

describe('Rabobank Mutatieoverzicht (19 columns)', () => {
  it('prices trades from the cash net of costs, and books the dividend gross with its tax', () => {
    const parsed = read(text);
    expect(parsed.format).toBe('rabobank-2026');
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '1000', currency: 'EUR' }),
      expect.objectContaining({ type: 'buy', quantity: '10', price: '50', fee: '1' }),
      expect.objectContaining({ type: 'sell', quantity: '4', price: '60', fee: '1' }),
      expect.objectContaining({ type: 'dividend', symbol: 'NL0014065450', amount: '6' }),
      expect.objectContaining({ type: 'fee', amount: '0.9', note: 'withholding tax' }),
      expect.objectContaining({ type: 'fee', amount: '2' }),
      expect.objectContaining({ type: 'withdrawal', amount: '100' }),
    ]);
    expect(parsed.transactions[1]?.executedAt).toMatch(/^2024-01-03T10:00:00/);
  });

  it('reads the currency from Bedrag in valuta, not from the header name', () => {
    const usd = '12345678;-;02-01-2024;Storting / opname;;0;;0;;0;USD;50.000;-;-;-;-;;;06:26:53';
    expect(read([header, usd].join('\n')).transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '50000', currency: 'USD' }),
    ]);
  });

  it('refuses a type its source does not document instead of guessing it', () => {
    const split =
      '12345678;1895 Wereld Aandelen Enh Indexfonds;03-01-2024;Splitsing;st;10;EUR;50;EUR;500;EUR;0;-;;-;-;NL0014065450;;';
    const parsed = parseBrokerCsv([header, split].join('\n'));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.errors[0]?.message).toMatch(/action "Splitsing" has no meaning/);
  });
});
