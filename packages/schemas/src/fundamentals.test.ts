import { describe, expect, it } from 'vitest';
import { FiscalYearFigures, METRIC_KEYS } from './fundamentals.js';

const source = {
  tag: 'us-gaap:NetIncomeLoss',
  form: '10-K',
  accession: null,
  filed: null,
  derived: false,
};

function yearWithout(omitted: string): Record<string, unknown> {
  const year: Record<string, unknown> = {
    fiscalYear: 2023,
    periodStart: '2023-01-02',
    periodEnd: '2023-12-31',
  };
  for (const key of METRIC_KEYS) if (key !== omitted) year[key] = null;
  return year;
}

describe('FiscalYearFigures.incomeFromContinuingOperations', () => {
  it('is optional: a record written before the field existed still parses', () => {
    const parsed = FiscalYearFigures.parse(yearWithout('incomeFromContinuingOperations'));
    expect(parsed.incomeFromContinuingOperations).toBeUndefined();
  });

  it('accepts null and a figure (JNJ FY2023 continuing operations, USD)', () => {
    const empty = { ...yearWithout(''), incomeFromContinuingOperations: null };
    expect(FiscalYearFigures.parse(empty).incomeFromContinuingOperations).toBeNull();
    const value = { value: 13_326e6, source };
    const parsed = FiscalYearFigures.parse({ ...empty, incomeFromContinuingOperations: value });
    expect(parsed.incomeFromContinuingOperations?.value).toBe(13_326e6);
  });

  it('keeps the other metrics required', () => {
    expect(FiscalYearFigures.safeParse(yearWithout('netIncome')).success).toBe(false);
  });
});
