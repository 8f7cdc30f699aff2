import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The shared real-data folder (`SHARED_DATA_DIR`, default `../../../shared/data` from here). */
export const SHARED_DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
export const COMPANYFACTS_DIR = resolve(SHARED_DATA_DIR, 'fundamentals/raw/companyfacts');
export const PRICES_DIR = resolve(SHARED_DATA_DIR, 'prices');
/** ECB euro reference rates, full history (`fx/eurofxref-hist.csv`). */
export const ECB_HISTORY_CSV = resolve(SHARED_DATA_DIR, 'fx/eurofxref-hist.csv');
/** Real broker export samples (`broker-exports/`, see its SOURCES.md). */
export const BROKER_EXPORTS_DIR = resolve(SHARED_DATA_DIR, 'broker-exports');

if (!existsSync(COMPANYFACTS_DIR)) {
  throw new Error(`shared data not found at ${SHARED_DATA_DIR}; set SHARED_DATA_DIR`);
}
