import { describe, expect, it } from 'vitest';
import { sicToSector } from './sic-to-sector.js';

describe('sicToSector', () => {
  // Expected divisions checked against the OSHA SIC Manual (shared/data/sec/sic).
  it.each([
    ['3571', 'Manufacturing', '35'], // AAPL
    ['2834', 'Manufacturing', '28'], // JNJ
    ['5331', 'Retail Trade', '53'], // WMT, COST
    ['5812', 'Retail Trade', '58'], // MCD
    ['4512', 'Transportation, Communications, Electric, Gas, and Sanitary Services', '45'], // DAL
    ['7372', 'Services', '73'], // MSFT
    ['6199', 'Finance, Insurance, and Real Estate', '61'], // V
    ['1311', 'Mining', '13'], // oil & gas
    ['100', 'Agriculture, Forestry, and Fishing', '01'],
  ])('%s → %s', (sic, sector, group) => {
    expect(sicToSector(sic)).toMatchObject({
      sicCode: sic.padStart(4, '0'),
      sector,
      majorGroup: group,
    });
  });

  it('uses the EDGAR description as the industry, else the major group', () => {
    expect(sicToSector(3571, 'Electronic Computers')?.industry).toBe('Electronic Computers');
    expect(sicToSector(3571)?.industry).toBe(
      'Industrial and Commercial Machinery and Computer Equipment',
    );
  });

  it('gives SEC-only codes no sector', () => {
    expect(sicToSector('8880')).toMatchObject({
      sector: null,
      industry: 'AMERICAN DEPOSITARY RECEIPTS',
    });
  });

  it.each(['', 'abcd', '12345', '0000'])('answers null for %j', (sic) => {
    expect(sicToSector(sic)).toBeNull();
  });
});
