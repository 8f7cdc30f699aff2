import { describe, expect, it } from 'vitest';
import { extractFigures } from './figures.js';

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
