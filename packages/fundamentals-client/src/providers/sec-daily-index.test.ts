import { describe, expect, it } from 'vitest';
import { FundamentalsError } from '../errors.js';
import { dailyIndexUrl, parseFormIndex } from './sec-daily-index.js';

// The layout of SEC's form.YYYYMMDD.idx (header, dashed rule, fixed-width columns), hand-made.
const INDEX = `Description:           Daily Index of EDGAR Dissemination Feed by Form Type
Last Data Received:    October 31, 2025
Comments:              webmaster@sec.gov
Anonymous FTP:         ftp://ftp.sec.gov/edgar/




Form Type   Company Name                                                  CIK         Date Filed  File Name
---------------------------------------------------------------------------------------------------------------------------------------------
10-K             Apple Inc.                                                    320193      20251031    edgar/data/320193/0000320193-25-000079.txt
10-K/A           SOME CO INC                                                   1234        20251031    edgar/data/1234/0000001234-25-000002.txt
SC 13G/A         VANGUARD GROUP INC                                            102909      20251031    edgar/data/102909/0000102909-25-012345.txt
not a line
`;

describe('parseFormIndex', () => {
  it('reads the form, company, CIK, filed date and accession of every line', () => {
    expect(parseFormIndex(INDEX)).toEqual([
      {
        form: '10-K',
        company: 'Apple Inc.',
        cik: '0000320193',
        filed: '2025-10-31',
        accession: '0000320193-25-000079',
      },
      {
        form: '10-K/A',
        company: 'SOME CO INC',
        cik: '0000001234',
        filed: '2025-10-31',
        accession: '0000001234-25-000002',
      },
      {
        form: 'SC 13G/A',
        company: 'VANGUARD GROUP INC',
        cik: '0000102909',
        filed: '2025-10-31',
        accession: '0000102909-25-012345',
      },
    ]);
  });

  it('refuses a text that is not an index', () => {
    expect(() => parseFormIndex('<html>Forbidden</html>')).toThrow(FundamentalsError);
  });

  it('names the quarter folder of a day', () => {
    expect(dailyIndexUrl('https://www.sec.gov/', '2025-10-31')).toBe(
      'https://www.sec.gov/Archives/edgar/daily-index/2025/QTR4/form.20251031.idx',
    );
    expect(dailyIndexUrl('http://127.0.0.1:9', '2026-03-31')).toBe(
      'http://127.0.0.1:9/Archives/edgar/daily-index/2026/QTR1/form.20260331.idx',
    );
  });
});
