import { describe, expect, it } from 'vitest';
import { parseEcbCsv } from './ecb-parsers.js';
import { buildRateTable, lookupRate } from './rate-table.js';

const csv = [
  'Date,USD,JPY,RUB,',
  '2024-06-10,1.0756,168.74,N/A,',
  '2024-06-07,1.0898,169.52,N/A,',
  '2022-02-28,1.1199,129.28,117.2,',
].join('\n');
const table = buildRateTable(parseEcbCsv(csv), 'fixture');

describe('ECB rate table', () => {
  it('parses the history layout: N/A and the trailing column dropped', () => {
    expect(table.days.map((d) => [d.date, [...d.rates.keys()]])).toEqual([
      ['2022-02-28', ['USD', 'JPY', 'RUB']],
      ['2024-06-07', ['USD', 'JPY']],
      ['2024-06-10', ['USD', 'JPY']],
    ]);
  });

  it('parses the daily layout with ", " separators and English dates', () => {
    const [day] = parseEcbCsv('Date, USD, JPY, \n13 April 2026, 1.1684, 186.75, \n');
    expect(day?.date).toBe('2026-04-13');
    expect(day?.rates.get('JPY')).toBe(186.75);
  });

  it.each([
    ['EUR', 'USD', '2024-06-08', 1.0898, '2024-06-07'],
    ['USD', 'EUR', '2024-06-10', 0.9297136482, '2024-06-10'], // 1 / 1.0756
    ['USD', 'JPY', '2024-06-10', 156.879881, '2024-06-10'], // 168.74 / 1.0756
    ['EUR', 'RUB', '2022-03-01', 117.2, '2022-02-28'],
  ])('%s→%s on %s = %d (day %s)', (from, to, asOf, rate, day) => {
    const fx = lookupRate(table, from, to, asOf);
    expect(fx?.asOf).toBe(day);
    expect(fx?.rate).toBeCloseTo(rate, 6);
  });

  it('never reaches back past the day for a currency that stopped', () => {
    expect(lookupRate(table, 'EUR', 'RUB', '2024-06-10')).toBeNull();
    expect(lookupRate(table, 'EUR', 'USD', '2020-01-01')).toBeNull();
  });
});
