import type { Fundamentals } from '@svc/schemas';
import { parseCompanyFacts } from '@svc/service/testing';
import { describe, expect, it } from 'vitest';
import {
  buildFundamentalsTable,
  formatFundamentalsJson,
  formatFundamentalsTable,
} from './fundamentals-table.js';

const doc = {
  cik: 1,
  entityName: 'Table Co',
  facts: {
    'us-gaap': {
      NetIncomeLoss: {
        units: {
          USD: [
            {
              start: '2023-01-01',
              end: '2023-12-31',
              val: 1_234_500_000,
              accn: '0000000001-24-000001',
              form: '10-K',
              filed: '2024-02-01',
            },
            {
              start: '2024-01-01',
              end: '2024-12-31',
              val: -56_700_000,
              accn: '0000000001-25-000001',
              form: '10-K',
              filed: '2025-02-01',
            },
          ],
        },
      },
      Revenues: {
        units: {
          USD: [
            {
              start: '2024-01-01',
              end: '2024-12-31',
              val: 10e9,
              accn: '0000000001-25-000001',
              form: '10-K',
              filed: '2025-02-01',
            },
          ],
        },
      },
      CostOfRevenue: {
        units: {
          USD: [
            {
              start: '2024-01-01',
              end: '2024-12-31',
              val: 6e9,
              accn: '0000000001-25-000001',
              form: '10-K',
              filed: '2025-02-01',
            },
          ],
        },
      },
      EarningsPerShareDiluted: {
        units: {
          'USD/shares': [
            {
              start: '2024-01-01',
              end: '2024-12-31',
              val: -0.5,
              accn: '0000000001-25-000001',
              form: '10-K',
              filed: '2025-02-01',
            },
          ],
        },
      },
    },
  },
};
const f: Fundamentals = parseCompanyFacts(doc, { ticker: 'TBL' });

describe('formatFundamentalsTable', () => {
  const text = formatFundamentalsTable(f);
  const line = (label: string) => text.split('\n').find((l) => l.startsWith(label)) ?? '';

  it('puts years in columns and metrics in rows, in millions', () => {
    expect(text.split('\n')[0]).toContain('TBL — Table Co');
    expect(text).toMatch(/FY2023\s+FY2024/);
    expect(line('Net income')).toMatch(/1,235\s+-56.7/);
    expect(line('Revenue')).toMatch(/—\s+10,000/);
  });

  it('shows EPS per share with two decimals and marks derived values with *', () => {
    expect(line('Diluted EPS')).toMatch(/-0\.50/);
    expect(line('Gross profit')).toMatch(/4,000\*$/);
    expect(text).toContain('* derived from other figures');
    expect(text).toContain('  * Gross profit, FY2024: derived: revenue-costOfRevenue');
  });

  it('shows income from continuing operations as its own row, missing when not reported', () => {
    expect(line('Income, continuing ops')).toMatch(/—\s+—$/);
    // A record written before the metric existed (key absent) shows a dash too.
    const { incomeFromContinuingOperations: _omitted, ...older } = f
      .years[0] as Fundamentals['years'][number];
    const table = buildFundamentalsTable({ ...f, years: [older as Fundamentals['years'][number]] });
    const row = table.rows.find((r) => r.metric === 'incomeFromContinuingOperations');
    expect(row?.cells[0]?.value).toBeNull();
  });

  it('limits the columns to maxYears', () => {
    expect(formatFundamentalsTable(f, { maxYears: 1 })).not.toContain('FY2023');
  });
});

describe('formatFundamentalsJson', () => {
  it('is the table model as JSON, scaled like the text table', () => {
    const model = JSON.parse(formatFundamentalsJson(f));
    expect(model).toEqual(JSON.parse(JSON.stringify(buildFundamentalsTable(f))));
    const gross = model.rows.find((r: { metric: string }) => r.metric === 'grossProfit');
    expect(gross.cells[1]).toEqual({
      fiscalYear: 2024,
      value: 4000,
      derived: true,
      tag: 'derived:revenue-costOfRevenue',
      mark: '*',
      reason: 'derived: revenue-costOfRevenue',
    });
    expect(gross.cells[0].value).toBeNull();
  });
});
