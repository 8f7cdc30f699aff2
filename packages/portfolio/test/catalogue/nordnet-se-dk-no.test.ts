import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../../src/index.js';
import { FIXTURES } from './fixtures.js';

// Nordnet's Swedish, Danish and Norwegian exports name four columns Valuta, each the currency of
// the number before it: Total Avgift/Samlede afgifter/Totale Avgifter (position 11) has the first
// (position 12), empty on cash rows; Belopp/Beløb/Beløp (13) has the one after it (14); then
// Inköpsvärde/Indkøbsværdi/Kjøpsverdi's, in the instrument's currency. Column order as in public
// parsers of real exports (a Swedish NORDNET_FIELDNAMES list; a Danish test header "copied from a
// real Nordnet export"; a Norwegian sample file header). The rows here are hand-made.

const headerOf = (id: string) => FIXTURES[id]?.text.split('\n')[0] ?? '';

const cases = [
  {
    id: 'nordnet',
    deposit:
      '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINSÄTTNING\t\t\t\t\t\t\t\t250\tUSD\t\t\t\t\t\t250\t\tInsättning',
    dividend:
      '2\t2024-03-03\t2024-03-03\t2024-03-03\t123\tUTDELNING\tApple Inc\tUS0378331005\t2\t0,5\t\t\t\t1\tUSD\t\t\t\t\t2\t251\t\t',
    // a USD share bought from the SEK account: Belopp in SEK, Inköpsvärde in USD
    buy: '3\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKÖPT\tApple Inc\tUS0378331005\t2\t100\t\t10\tSEK\t-2 010\tSEK\t200\tUSD\t\t\t2\t-2 010\t10\t',
  },
  {
    id: 'nordnet-dk',
    deposit: '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINDBETALING\t\t\t\t\t\t\t\t250,00\tUSD\t',
    dividend:
      '2\t2024-03-03\t2024-03-03\t2024-03-03\t123\tUDBYTTE\tApple Inc\tUS0378331005\t2\t0,5\t\t\t\t1,00\tUSD\t',
    buy: '3\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKØBT\tApple Inc\tUS0378331005\t2\t100\t\t10\tDKK\t-2.010,00\tDKK\t7',
  },
  {
    id: 'nordnet-no',
    deposit: '1\t2024-01-02\t2024-01-02\t2024-01-02\t123\tINNSKUDD\t\t\t\t\t\t\t\t250,00\tUSD\t',
    dividend:
      '2\t2024-03-03\t2024-03-03\t2024-03-03\t123\tUTBYTTE\tApple Inc\tUS0378331005\t2\t0,5\t\t\t\t1,00\tUSD\t',
    buy: '3\t2024-01-05\t2024-01-03\t2024-01-05\t123\tKJØPT\tApple Inc\tUS0378331005\t2\t100\t\t10\tNOK\t-2 010,00\tNOK\t10',
  },
];

describe.each(cases)('$id', ({ id, deposit, dividend, buy }) => {
  it("books the amount in the currency of the Valuta after it, not the fees' Valuta", () => {
    const parsed = parseBrokerCsv([headerOf(id), deposit, dividend, buy].join('\n'));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.format).toBe(id);
    const home = id === 'nordnet' ? 'SEK' : id === 'nordnet-dk' ? 'DKK' : 'NOK';
    expect(parsed.transactions).toEqual([
      expect.objectContaining({ type: 'deposit', amount: '250', currency: 'USD' }),
      expect.objectContaining({ type: 'dividend', amount: '1', currency: 'USD' }),
      expect.objectContaining({
        type: 'buy',
        symbol: 'US0378331005',
        quantity: '2',
        price: '1000',
        fee: '10',
        currency: home,
      }),
    ]);
  });

  it('does not take a file whose Valuta columns stand elsewhere', () => {
    // the fees' currency dropped: the Valuta after the amount is no longer at its documented place
    const cells = headerOf(id).split('\t');
    const shifted = [...cells.slice(0, 12), ...cells.slice(13)].join('\t');
    expect(parseBrokerCsv([shifted, deposit].join('\n'))).toMatchObject({
      ok: false,
      errors: [{ line: 1, message: expect.stringContaining('matches no supported format') }],
    });
  });
});
