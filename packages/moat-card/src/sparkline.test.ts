import { describe, expect, it } from 'vitest';
import { sparkline } from './sparkline.js';

describe('sparkline', () => {
  it.each([
    { values: [1, 2, 3, 4, 5, 6, 7, 8], line: '▁▂▃▄▅▆▇█' },
    { values: [8, 7, 6, 5, 4, 3, 2, 1], line: '█▇▆▅▄▃▂▁' },
    { values: [60, 60, 30], line: '██▁' },
    { values: [-5, 0, 5], line: '▁▅█' },
    { values: [68, 68, 68], line: '▄▄▄' },
    { values: [42], line: '▄' },
    { values: [], line: '' },
    { values: [1, Number.NaN, 3], line: '▁·█' },
  ])('$values → $line', ({ values, line }) => {
    expect(sparkline(values)).toBe(line);
  });

  it('draws one character per value, the lowest ▁ and the highest █', () => {
    const values = [38.6, 39.1, 40.2, 41.5, 38.2, 43.3, 44.1, 43.8, 45.6, 46.2];
    const line = sparkline(values);
    expect([...line]).toHaveLength(values.length);
    expect([...line][values.indexOf(38.2)]).toBe('▁');
    expect([...line][values.indexOf(46.2)]).toBe('█');
  });

  it('keeps ten slots by fiscal year, a missing year marked (Carnival-like debt gaps)', () => {
    // FY2016–FY2018 and FY2025 known, FY2019–FY2024 missing (loss years)
    const line = sparkline([2.1, 2.4, 2.2, 9.5], [2016, 2017, 2018, 2025]);
    expect([...line]).toHaveLength(10);
    expect(line).toBe('▁▁▁······█');
    const short = sparkline([40, 41], [2024, 2025]);
    expect(short).toBe('········▁█');
    const long = sparkline(
      [...Array(12).keys()],
      [...Array(12).keys()].map((i) => 2014 + i),
    );
    expect([...long]).toHaveLength(10);
    expect(long.includes('·')).toBe(false);
  });
});
