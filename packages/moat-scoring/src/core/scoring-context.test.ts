import type { FiscalYearFigures } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { figure } from '../../test/fixtures.js';
import { capexScopeOf } from './scoring-context.js';

const year = (tag: string | null) =>
  ({ capitalExpenditure: tag === null ? null : figure(100, tag) }) as FiscalYearFigures;

describe('capexScopeOf', () => {
  it.each([
    { name: 'SimFin net capex', tags: ['simfin:Change in Fixed Assets & Intangibles'], years: 1 },
    {
      name: 'gross XBRL purchases',
      tags: ['us-gaap:PaymentsToAcquirePropertyPlantAndEquipment', null],
      years: 0,
    },
    {
      name: 'a mixed window counts the net years only',
      tags: [
        'simfin:Change in Fixed Assets & Intangibles',
        'us-gaap:PaymentsToAcquireProductiveAssets',
        'simfin:Change in Fixed Assets & Intangibles',
      ],
      years: 2,
    },
  ])('$name → $years', ({ tags, years }) => {
    expect(capexScopeOf(tags.map(year))).toEqual({ netOfDisposalsYears: years });
  });
});
