import { createEcbFileFxProvider } from '@svc/market-data';
import { describe, expect, it } from 'vitest';
import { ECB_HISTORY_CSV } from '../../test/shared-data.js';
import { coverageOf, rateDataNote } from './rate-coverage.js';

const fx = createEcbFileFxProvider({ file: ECB_HISTORY_CSV });

describe('rateDataNote', () => {
  it('names the file and where its rates of the currency end, or their span when asked before', async () => {
    const usd = await coverageOf(fx, 'USD');
    const last = usd?.last as string;
    const after = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString();
    expect(rateDataNote(fx, usd, 'USD', after.slice(0, 10))).toBe(
      `the USD rates of the ECB file eurofxref-hist.csv end on ${last}`,
    );
    expect(rateDataNote(fx, usd, 'USD', '1998-12-31')).toBe(
      `the USD rates of the ECB file eurofxref-hist.csv run from 1999-01-04 to ${last}`,
    );
    // RUB: no rate published after 2022-03-01
    expect(rateDataNote(fx, await coverageOf(fx, 'RUB'), 'RUB', '2024-05-02')).toBe(
      'the RUB rates of the ECB file eurofxref-hist.csv end on 2022-03-01',
    );
    expect(rateDataNote(fx, await coverageOf(fx, 'ARS'), 'ARS', '2024-05-02')).toBe(
      'the ECB file eurofxref-hist.csv has no rate of ARS',
    );
    expect(rateDataNote(null, null, 'USD', '2024-05-02')).toBe(
      'no FX provider is configured (FX_PROVIDER=none)',
    );
  });
});
