import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { MarketDataError } from '../errors.js';
import type { FxProvider } from '../fx-rate.js';
import { parseEcbCsv, parseEcbXml } from './ecb-parsers.js';
import { buildRateTable, type RateTable, rateTableProvider } from './rate-table.js';

/** Options of {@link createEcbFileFxProvider}. */
export interface EcbFileFxProviderOptions {
  /** An ECB file: `eurofxref-hist.csv`, the daily `eurofxref.csv`, or any ECB `*.xml`. */
  readonly file: string;
}

/**
 * Offline FX provider over an ECB euro reference rate file (base EUR; cross rates through EUR).
 * The file is read on first use and kept in memory (a failed read is retried next call). A day
 * without rates (weekend, TARGET holiday) uses the last business day before it.
 *
 * @throws {MarketDataError} from `getRate`: `invalid_argument` (bad currency or date),
 *   `upstream_unavailable` (unreadable file), `parse_failed` (not an ECB file).
 * @example
 * ```ts
 * const fx = createEcbFileFxProvider({ file: '/work/shared/data/fx/eurofxref-hist.csv' });
 * await fx.getRate('EUR', 'USD', { asOf: '2024-06-09' }); // Sunday
 * // { base: 'EUR', quote: 'USD', rate: 1.0898, asOf: '2024-06-07', source: 'ecb:eurofxref-hist.csv' }
 * ```
 */
export function createEcbFileFxProvider(options: EcbFileFxProviderOptions): FxProvider {
  let table: Promise<RateTable> | null = null;
  const load = () => {
    if (table) return table;
    table = readTable(options.file);
    table.catch(() => {
      table = null;
    });
    return table;
  };
  return rateTableProvider(load);
}

async function readTable(file: string): Promise<RateTable> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new MarketDataError('upstream_unavailable', `cannot read ${file}`, { cause: error });
  }
  const days = text.trimStart().startsWith('<') ? parseEcbXml(text) : parseEcbCsv(text);
  return buildRateTable(days, `ecb:${basename(file)}`);
}
