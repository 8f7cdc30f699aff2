import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The shared real-data folder: `SHARED_DATA_DIR`, default `../shared/data` beside the checkout
 * (`../../../../shared/data` from this folder). Never copied into the repository.
 */
export const SHARED_DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

/** A path inside {@link SHARED_DATA_DIR}. */
export const sharedData = (...parts: string[]): string => resolve(SHARED_DATA_DIR, ...parts);

/** SEC companyfacts JSON of 30 companies (the `snapshot` provider's folder). */
export const COMPANYFACTS_DIR = sharedData('fundamentals/raw/companyfacts');
/** Daily price series (the `csv` quote provider's folder). */
export const PRICES_DIR = sharedData('prices');
/** ECB euro reference rates, full history. */
export const ECB_HISTORY_CSV = sharedData('fx/eurofxref-hist.csv');

if (!existsSync(COMPANYFACTS_DIR)) {
  throw new Error(`shared data not found at ${SHARED_DATA_DIR}; set SHARED_DATA_DIR`);
}
