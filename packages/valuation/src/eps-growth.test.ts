import { describe, expect, it } from 'vitest';
import { historicalEpsGrowth } from './eps-growth.js';
import { makeYear } from './test-fixtures.js';

const years = (eps: Record<number, number | null>) =>
  Object.entries(eps).map(([fy, dilutedEps]) => makeYear({ fiscalYear: Number(fy), dilutedEps }));

describe('historicalEpsGrowth', () => {
  it.each([
    // (4 / 1)^(1/5) − 1 = 31.9508 %; middle years do not matter for the endpoint CAGR
    [
      'endpoints, middle gap ignored',
      { 2019: 1, 2020: null, 2021: 9, 2022: 0.1, 2023: 2, 2024: 4 },
      31.9508,
    ],
    // (mean(4, 5, 6) / mean(−3, 1, 5))^(1/3) − 1 = 5^(1/3) − 1 = 70.9976 %
    [
      '3-year means after a loss endpoint',
      { 2019: -3, 2020: 1, 2021: 5, 2022: 4, 2023: 5, 2024: 6 },
      70.9976,
    ],
    // a loss at the end endpoint: (mean(1, 3, −1) / mean(1, 1, 1))^(1/3) − 1 = 0 %
    [
      '3-year means after a loss at the end',
      { 2019: 1, 2020: 1, 2021: 1, 2022: 1, 2023: 3, 2024: -1 },
      0,
    ],
  ])('%s', (_label, eps, expected) => {
    const growth = historicalEpsGrowth(years(eps), 2024);
    expect(growth.ok).toBe(true);
    if (growth.ok) expect(growth.percent).toBeCloseTo(expected, 3);
  });

  it.each([
    [
      'start year missing',
      { 2020: 1, 2021: 1, 2022: 1, 2023: 1, 2024: 2 },
      /need diluted EPS for FY2019/,
    ],
    [
      'loss endpoint with a gap',
      { 2019: -1, 2020: null, 2021: 1, 2022: 1, 2023: 1, 2024: 2 },
      /incomplete/,
    ],
    [
      'losses dominate the early mean',
      { 2019: -5, 2020: 1, 2021: 1, 2022: 1, 2023: 1, 2024: 2 },
      /mean EPS ≤ 0/,
    ],
  ])('not meaningful: %s', (_label, eps, reason) => {
    const growth = historicalEpsGrowth(years(eps), 2024);
    expect(growth.ok).toBe(false);
    if (!growth.ok) expect(growth.reason).toMatch(reason);
  });
});
