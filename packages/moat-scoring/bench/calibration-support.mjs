// Shared by the calibration bench's scripts (calibrate.mjs, criteria-ceiling.mjs): the verdict
// percentage, the sectors of calibration/sectors.json, and the AUROC.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SECTORS = join(import.meta.dirname, 'calibration/sectors.json');

/** Percentage of the applicable maximum, the basis of the verdict bands. */
export const pct = (e) => (e.maxScore > 0 ? (100 * e.totalScore) / e.maxScore : 0);

/** Ticker → sector for providers that carry none (calibration/sectors.json, GICS). */
export const sectorOf = new Map(
  Object.entries(JSON.parse(readFileSync(SECTORS, 'utf8')).sectors).flatMap(([sector, tickers]) =>
    tickers.map((t) => [t, sector]),
  ),
);

/** The fundamentals with `company.sector` from sectors.json when the provider gave none. */
export function withSector(f, ticker) {
  const sector = sectorOf.get(ticker);
  if (f.company.sector !== null || sector === undefined) return f;
  return { ...f, company: { ...f.company, sector } };
}

/** Mann–Whitney AUROC of positives over negatives (ties count one half). */
export function auroc(pos, neg) {
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
