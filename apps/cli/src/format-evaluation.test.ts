import { resolve } from 'node:path';
import { createFundamentalsProvider, createQuoteSource } from '@svc/service';
import { evaluateCompany } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { formatEvaluationTable } from './format-evaluation.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

describe('formatEvaluationTable', () => {
  it("prints each criterion's trend as a sparkline under its row (AAPL)", async () => {
    const fundamentals = createFundamentalsProvider({
      provider: 'snapshot',
      snapshotDir: resolve(SHARED, 'fundamentals/raw/companyfacts'),
    });
    const { quotes, splitsOf } = createQuoteSource({
      provider: 'csv',
      pricesDir: resolve(SHARED, 'prices'),
    });
    const evaluation = await evaluateCompany('AAPL', {
      fundamentals,
      quotes,
      splitsOf,
      now: () => new Date('2026-09-01T12:00:00Z'),
    });
    const lines = formatEvaluationTable(evaluation).split('\n');
    for (const c of evaluation.criteria) {
      const row = lines.findIndex((line) => line.startsWith(`${c.name} `));
      const trend = c.trend ?? [];
      const below = lines[row + 1]?.trim() ?? '';
      const [spark, ...rest] = below.split('  ');
      // Ten slots, one per fiscal year up to the last; a year without a value is '·'.
      expect(spark).toMatch(/^[▁▂▃▄▅▆▇█·]{10}$/);
      const years = c._trendYears ?? [];
      const slot = (i: number) => (years[i] as number) - ((years.at(-1) as number) - 9);
      expect([...(spark ?? '')].filter((ch) => ch !== '·')).toHaveLength(
        years.filter((_, i) => slot(i) >= 0).length,
      );
      // The lowest value is ▁, the highest █, at their years' places.
      expect([...(spark ?? '')][slot(trend.indexOf(Math.min(...trend)))]).toBe('▁');
      expect([...(spark ?? '')][slot(trend.indexOf(Math.max(...trend)))]).toBe('█');
      expect(rest.join('  ')).toContain(`FY${years[0]} `);
      expect(rest.join('  ')).toContain(` → FY${years.at(-1)} `);
    }
    const margin = lines[lines.findIndex((line) => line.startsWith('Gross Margin')) + 1];
    expect(margin).toMatch(/% \(line ≥ 40%\)$/);
  }, 60_000);

  it('lists the derived and re-scoped figures of the evaluated years with their reasons (GM)', async () => {
    const fundamentals = createFundamentalsProvider({
      provider: 'snapshot',
      snapshotDir: resolve(SHARED, 'fundamentals/raw/companyfacts'),
    });
    const { quotes, splitsOf } = createQuoteSource({
      provider: 'csv',
      pricesDir: resolve(SHARED, 'prices'),
    });
    const evaluation = await evaluateCompany('GM', {
      fundamentals,
      quotes,
      splitsOf,
      now: () => new Date('2026-09-01T12:00:00Z'),
    });
    const data = await fundamentals.getFundamentals('GM');
    const text = formatEvaluationTable(evaluation, data);
    expect(text).toContain(
      'Figures derived (*) or adjusted / of another tag (scope) than the year before (†):',
    );
    expect(text).toContain(
      '  * Cost of revenue, FY2015–FY2021: derived: costsAndExpenses-sellingGeneralAdministrative; company-wide cost of revenue',
    );
    expect(text).toContain('finance arm included'); // the gross-margin value says it too
    // Without the fundamentals the section is left out.
    expect(formatEvaluationTable(evaluation)).not.toContain('Figures derived');
  }, 60_000);
});
