import { describe, expect, it } from 'vitest';
import { MCD } from '../../test/fixtures/mcd.js';
import { dataFacts } from './data-facts.js';
import { evaluationFacts } from './evaluation-facts.js';
import { groundText } from './ground.js';

const facts = evaluationFacts(MCD);
const reasons = (text: string) => groundText(text, facts).ungrounded.map((u) => [u.text, u.reason]);

describe('groundText over typed facts (the MCD narrative of issue 17)', () => {
  it('flags the four invented figures and says why', () => {
    const text =
      'McDonald’s has a gross margin of 80%, a ROIC of 99% and a P/E of 12.3; 3 of 8 criteria pass.';
    const report = groundText(text, facts);
    expect(report.grounded).toBe(0);
    expect(report.ungrounded.map((u) => [u.text, u.reason, u.metric])).toEqual([
      ['80%', 'not_available', 'gross_margin'],
      ['99%', 'mismatch', 'roic'],
      ['12.3', 'not_available', 'pe'],
      ['3', 'mismatch', 'criteria_passed'],
      ['8', 'mismatch', 'criteria_passed'],
    ]);
    expect(report.ungrounded[1]?.fact?.key).toMatch(/^MCD.return_on_invested_capital/);
  });

  it('grounds the same sentences stated correctly', () => {
    const text =
      'MCD has a median ROIC of 26.5%, a net margin of 27.3% (31.7% in FY2024) and 4 of 7 criteria pass; it scores 64.8 out of 87.5 (74%).';
    expect(reasons(text)).toEqual([]);
  });

  it('a figure of another metric, unit, year or company is not grounded', () => {
    expect(reasons('Net margin of 26.5%.')).toEqual([['26.5%', 'mismatch']]);
    expect(reasons('ROIC of 26.5x.')).toEqual([['26.5x', 'wrong_unit']]);
    expect(reasons('ROIC of $26.5.')).toEqual([['$26.5', 'wrong_unit']]);
    expect(reasons('Net margin of 27.3% in 2023.')).toEqual([['27.3%', 'mismatch']]);
    expect(reasons('Apple (AAPL) has a ROIC of 26.5%.')).toEqual([['26.5%', 'no_fact']]);
  });

  it('holdings: quantities, EUR values and weights of the right holding', () => {
    const holdings = dataFacts(
      [
        {
          symbol: 'AAPL',
          name: 'Apple',
          quantity: '10',
          currency: 'USD',
          averageCost: '150.00',
          marketValueEur: '1843.20',
          weight: '0.4',
        },
        {
          symbol: 'KO',
          name: 'Coca-Cola',
          quantity: '25',
          currency: 'USD',
          averageCost: '60',
          marketValueEur: '1500.5',
          weight: '0.3',
        },
      ],
      'listHoldings',
    );
    const check = (text: string) => groundText(text, holdings).ungrounded.map((u) => u.text);
    expect(
      check('You hold 10 AAPL shares worth €1,843.20 (40% of your portfolio) and 25 KO shares.'),
    ).toEqual([]);
    expect(check('You hold 2 positions: AAPL at 40% weight.')).toEqual([]);
    expect(check('You hold 25 AAPL shares worth €1,500.50.')).toEqual(['25', '€1,500.50']);
    expect(check('AAPL is 4% of your portfolio, worth $1,843.20.')).toEqual(['4%', '$1,843.20']);
  });
});
