import { describe, expect, it } from 'vitest';
import { extractFigures, groundNumbers } from './grounding.js';

describe('extractFigures', () => {
  it.each([
    ['margin of 15.3%', [15.3], true],
    ['revenue $1.2B', [1.2e9], false],
    ['revenue of 1.2 bn USD', [1.2e9], false],
    ['EUR 350K', [350_000], false],
    ['2.5 trillion', [2.5e12], false],
    ['1,5 Mrd. €', [1.5e9], false],
    ['loss of (3.4)', [-3.4], false],
    ['down -5%', [-5], true],
    ['1.234,5', [1234.5], false],
    ['1,234.5', [1234.5], false],
    ['1,234', [1234, 1.234], false],
    ['45,0 %', [45], true],
    ['P/E of 18x', [18], false],
    ['up 25 bps', [0.25], true],
    ['12 345 678', [12_345_678], false],
  ])('reads %s', (text, values, percent) => {
    const [figure] = extractFigures(text);
    expect(figure?.values).toEqual(values);
    expect(figure?.percent).toBe(percent);
  });

  it('skips years, ISO dates, ordinals, list numbers and durations', () => {
    const text = [
      '1. In 2023 the company ranked 3rd.',
      '2) Filed on 2024-03-31 for the 10-year window.',
      '- 3. item',
    ].join('\n');
    expect(extractFigures(text)).toEqual([]);
  });

  it('keeps identifiers out (FY2023, Q3, 10-K, CIK digits)', () => {
    expect(extractFigures('FY2023 Q3 10-K CIK0000320193 ROIC45')).toEqual([]);
  });

  it('gives the offset and the printed text', () => {
    const [figure] = extractFigures('Net margin: $1.2B here');
    expect(figure).toMatchObject({ text: '$1.2B', index: 12 });
  });
});

describe('groundNumbers', () => {
  const facts = {
    roic: 0.2134,
    grossMarginPercent: 38.1,
    revenue: 383_285_000_000,
    peRatio: 24.46,
    criteria: [{ value: 'Median net margin 21.3%' }],
    debt: -4_200_000,
  };

  it('catches an invented "ROIC 45%" and accepts the evaluation’s own figures', () => {
    const answer =
      'ROIC 45% is exceptional. Gross margin 38% and net margin 21.3% on revenue of $383.3B; ' +
      'P/E 24.5.';
    const report = groundNumbers(answer, facts);
    expect(report.total).toBe(5);
    expect(report.grounded).toBe(4);
    expect(report.ungrounded).toEqual([{ text: '45%', value: 45, index: 5 }]);
  });

  it('matches a ratio printed as a percentage, within the printed rounding', () => {
    expect(groundNumbers('ROIC of 21%', facts).ungrounded).toEqual([]);
    expect(groundNumbers('ROIC of 21.3%', facts).ungrounded).toEqual([]);
    expect(groundNumbers('ROIC of 23%', facts).ungrounded).toHaveLength(1);
  });

  it('matches scale suffixes, rounded amounts, parentheses and locale separators', () => {
    expect(groundNumbers('revenue $383B, debt (4.2M)', facts).ungrounded).toEqual([]);
    expect(groundNumbers('Umsatz 383,3 Mrd. USD, KGV 24,46', facts).ungrounded).toEqual([]);
    expect(groundNumbers('revenue $390B', facts).ungrounded).toHaveLength(1);
  });

  it('substitution of digits is caught (EPS 0.81 against 0.78)', () => {
    expect(groundNumbers('EPS 0.81', { eps: 0.78 }).grounded).toBe(0);
    expect(groundNumbers('EPS 0.78', { eps: 0.78 }).grounded).toBe(1);
  });

  it('counts of a result are facts: "2 holdings" of a two-row result, not of a three-row one', () => {
    const holdings = { holdings: [{ symbol: 'AAPL' }, { symbol: 'KO' }] };
    expect(groundNumbers('You hold 2 positions.', holdings).ungrounded).toEqual([]);
    expect(groundNumbers('You hold 3 positions.', holdings).ungrounded).toHaveLength(1);
  });

  it('a text without figures is fully grounded', () => {
    expect(groundNumbers('A durable moat, in 2024.', facts)).toEqual({
      total: 0,
      grounded: 0,
      ungrounded: [],
    });
  });
});

describe('groundNumbers documentation example', () => {
  it('matches the README', () => {
    expect(
      groundNumbers('ROIC was 45% and gross margin 38%.', { roic: 0.21, grossMargin: 0.381 }),
    ).toEqual({
      total: 2,
      grounded: 1,
      ungrounded: [{ text: '45%', value: 45, index: 9 }],
    });
  });
});
