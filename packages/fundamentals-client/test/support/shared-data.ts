import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared real-data folder (`shared/data`): `SHARED_DATA_DIR` when set, else
 * `../../../shared/data` from this package's directory. Never copied into the repository.
 */
export const SHARED_DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ??
    join(fileURLToPath(new URL('../..', import.meta.url)), '../../../shared/data'),
);
export const COMPANYFACTS_DIR = join(SHARED_DATA_DIR, 'fundamentals/raw/companyfacts');
export const SEC_DIR = join(SHARED_DATA_DIR, 'sec');
