import { join } from 'node:path';

/** The shared real-data folder: `$SHARED_DATA_DIR`, else `../../../shared/data` from the package. */
export const SHARED_DATA_DIR =
  process.env.SHARED_DATA_DIR ??
  join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data');
export const PRICES_DIR = join(SHARED_DATA_DIR, 'prices');
export const FX_DIR = join(SHARED_DATA_DIR, 'fx');
