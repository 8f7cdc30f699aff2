import { describe, expect, it } from 'vitest';
import { parseBrokerCsv } from '../parse-broker-csv.js';
import { acceptUnchanged } from './accept-unchanged.test-support.js';
import { checkMapping } from './verify.js';

// Hand-made exports, each with the one thing a proposal must not import unchanged.
const H = 'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Betrag';
const BUY = '01.03.2024;Kauf;Apple;US0378331005;10;150,00;USD;-1.500,00';
const DEPOSIT = '28.02.2024;Einzahlung;;;;;USD;2.000,00';
const file = (...rows: string[]) => [H, ...rows].join('\n');

function failed(text: string) {
  const { proposal } = acceptUnchanged(text);
  return {
    acceptable: proposal.acceptable,
    failed: proposal.checks.filter((c) => !c.passed).map((c) => c.id),
    questions: proposal.needs.filter((n) => n.check !== undefined),
  };
}

describe('a proposal checks the import it would make', () => {
  it('passes every check on a plain export and is acceptable', () => {
    const { proposal, holdings } = acceptUnchanged(
      file(DEPOSIT, BUY, '20.03.2024;Verkauf;Apple;US0378331005;4;160,00;USD;640,00'),
    );
    expect(proposal.acceptable).toBe(true);
    expect(proposal.checks.map((c) => c.id)).toEqual([
      'readable',
      'widths',
      'skipped-units',
      'instruments',
      'units-in-cash-rows',
      'signs',
      'sides',
      'counted-twice',
      'quantity-price-amount',
      'fractional-quantity',
      'positions',
    ]);
    expect(holdings).toEqual(['US0378331005 USD 6 @ 150']);
  });

  it('reads a sell written as a negative buy by its sign', () => {
    const { proposal, holdings } = acceptUnchanged(
      file(
        BUY,
        '05.03.2024;Kauf;Apple;US0378331005;-4;160,00;USD;640,00',
        '06.03.2024;Kauf;Apple;US0378331005;3;150,00;USD;-450,00',
      ),
    );
    expect(proposal.mapping.actions.Kauf).toBe('trade');
    expect(proposal.acceptable).toBe(true);
    expect(holdings).toEqual(['US0378331005 USD 9 @ 150']);
  });

  it('doubts two rows of one order under different actions, and asks about one', () => {
    const result = failed(
      file(DEPOSIT, BUY, '01.03.2024;Ausführung Kauf;Apple;US0378331005;10;150,00;USD;-1.500,00'),
    );
    expect(result).toMatchObject({ acceptable: false, failed: ['counted-twice'] });
    expect(result.questions[0]).toMatchObject({
      check: 'counted-twice',
      candidates: ['skip', 'buy'],
    });
  });

  it('doubts a cash leg that moves the cash of a trade a second time', () => {
    const result = failed(file(DEPOSIT, BUY, '01.03.2024;Auszahlung;;;;;USD;-1.500,00'));
    expect(result).toMatchObject({ acceptable: false, failed: ['counted-twice'] });
    expect(result.questions[0]?.value).toBe('Auszahlung');
  });

  it('doubts every trade appearing twice with the same values', () => {
    const rows = ['01.03.2024', '02.03.2024', '03.03.2024'].flatMap((d) => [
      `${d};Kauf;Apple;US0378331005;1;150,00;USD;-150,00`,
      `${d};Kauf;Apple;US0378331005;1;150,00;USD;-150,00`,
    ]);
    expect(failed(file(...rows)).failed).toEqual(['counted-twice']);
  });

  it('doubts fractional quantities that do not match their amount', () => {
    const result = failed(
      file(
        '01.03.2024;Kauf;Roche;CH0012032048;1,234;100,00;CHF;-150,00',
        '01.04.2024;Kauf;Roche;CH0012032048;1,5;101,00;CHF;-190,00',
        '01.05.2024;Kauf;Roche;CH0012032048;10;100,00;CHF;-1.000,00',
      ),
    );
    expect(result.failed).toEqual(['quantity-price-amount', 'fractional-quantity']);
  });

  it('takes a steady ratio of quantity × price to amount for an amount in another currency', () => {
    const { proposal } = acceptUnchanged(
      file(
        '01.03.2024;Kauf;Apple;US0378331005;10;150,00;USD;-1.380,00',
        '01.04.2024;Kauf;Apple;US0378331005;2;170,00;USD;-312,00',
      ),
    );
    expect(proposal.checks.find((c) => c.id === 'quantity-price-amount')).toMatchObject({
      passed: true,
      detail: expect.stringContaining('another currency'),
    });
  });

  it('doubts units recorded as cash, and trades when no column names an instrument', () => {
    expect(
      failed(file(DEPOSIT, BUY, '01.04.2024;Transfer;Microsoft;US5949181045;5;;USD;')).failed,
    ).toEqual(['units-in-cash-rows']);
    const unnamed = [
      'Datum;Typ;Anzahl;Kurs;Währung;Betrag',
      '01.03.2024;Kauf;10;150,00;USD;-1.500,00',
      '02.03.2024;Kauf;5;10,00;USD;-50,00',
    ].join('\n');
    expect(failed(unnamed).failed).toEqual(['instruments']);
    // with an instrument column, a trade with an empty cell is a currency trade
    expect(failed(file(BUY, '01.04.2024;Kauf;;;5;1,10;USD;-5,50')).acceptable).toBe(true);
  });

  it('doubts a sale beyond the units the file itself bought, and a dividend paid on none', () => {
    const result = failed(
      file(BUY, '01.04.2024;Verkauf;Apple;US0378331005;30;150,00;USD;4.500,00'),
    );
    expect(result.failed).toEqual(['positions']);
    expect(result.questions[0]?.question).toContain(
      'line 3 sells 30 US0378331005 when 10 are held',
    );
    expect(
      failed(
        file(
          BUY,
          '01.04.2024;Verkauf;Apple;US0378331005;10;150,00;USD;1.500,00',
          '01.05.2024;Dividende;Apple;US0378331005;;;USD;2,40',
        ),
      ).failed,
    ).toEqual(['positions']);
  });

  it('doubts rows with more filled cells than the header (values shifted right)', () => {
    const result = failed(
      file(DEPOSIT, BUY, '02.03.2024;Kauf;Apple;;US0378331005;5;150,00;USD;-750,00'),
    );
    expect(result.failed).toContain('widths');
    expect(result.questions.find((q) => q.check === 'widths')?.question).toContain('Lines 4');
  });

  it('doubts a file where nothing tells buys from sells', () => {
    const text = [
      'Date,Asset,Quantity,Price,Currency',
      '2024-03-01,BTC,0.5,40000,EUR',
      '2024-03-02,BTC,0.2,41000,EUR',
    ].join('\n');
    const result = failed(text);
    expect(result.failed).toEqual(['sides']);
    expect(result.questions[0]?.question).toContain('all 2 rows would be read as purchases');
  });

  it('a sale of units bought before the export began is no doubt', () => {
    expect(
      failed(file(BUY, '01.04.2024;Verkauf;Microsoft;US5949181045;3;400,00;USD;1.200,00'))
        .acceptable,
    ).toBe(true);
  });

  it('is never refused by its own import: unreadable rows are skipped, and doubted when they hold units', () => {
    const rows = Array.from(
      { length: 20 },
      (_, i) =>
        `${String(i + 1).padStart(2, '0')}.03.2024;Kauf;Apple;US0378331005;1;150,00;USD;-150,00`,
    );
    const cashRow = file(...rows, '21.03.2024;Einzahlung;;;;;USD;k.A.');
    const { proposal, holdings } = acceptUnchanged(cashRow);
    expect(proposal.mapping.skipUnreadable).toBe(true);
    expect(proposal.acceptable).toBe(true);
    expect(holdings).toEqual(['US0378331005 USD 20 @ 150']);
    const broken = file(...rows, '21.03.2024;Kauf;Apple;US0378331005;5;n/a;USD;k.A.');
    const doubted = acceptUnchanged(broken);
    expect(doubted.refused).toEqual(['readable']);
    expect(doubted.parsed.skipped).toEqual([
      // "n/a" reads as an empty cell (no price: worked out from the amount), "k.A." does not
      { line: 22, message: 'unreadable: column "Betrag": "k.A." is not a number' },
    ]);
  });

  it('checks a mapping the user gives, on another file', () => {
    const { proposal } = acceptUnchanged(
      file(DEPOSIT, BUY, '20.03.2024;Verkauf;Apple;US0378331005;4;160,00;USD;640,00'),
    );
    const other = file(BUY, '01.04.2024;Verkauf;Apple;US0378331005;30;150,00;USD;4.500,00');
    const verdict = checkMapping(other, proposal.mapping);
    expect(verdict.acceptable).toBe(false);
    expect(verdict.questions.map((q) => q.check)).toEqual(['positions']);
    expect(parseBrokerCsv(other, { mapping: proposal.mapping }).ok).toBe(true);
  });
});
