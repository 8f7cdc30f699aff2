import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FundamentalsSettings, QuoteSettings } from '@svc/use-cases';
import { z } from 'zod';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** The environment variables the CLI reads (the service's names, CONTRACT §5). */
const CliEnv = z.object({
  FUNDAMENTALS_PROVIDER: z.enum(['sec-edgar', 'snapshot', 'simfin']).optional(),
  SEC_USER_AGENT: optionalText,
  FUNDAMENTALS_SNAPSHOT_DIR: optionalText,
  SIMFIN_DIR: optionalText,
  QUOTES_PROVIDER: z.enum(['csv', 'none']).optional(),
  PRICES_DIR: optionalText,
  SHARED_DATA_DIR: optionalText,
});

/** Resolved settings plus a note for the user when an offline default was chosen. */
export interface CliSettings {
  readonly fundamentals: FundamentalsSettings;
  readonly quotes: QuoteSettings;
  readonly notes: string[];
}

/** The repository's `../shared/data` folder, when this checkout sits beside one. */
function sharedDataDir(explicit: string | undefined): string | undefined {
  if (explicit) return resolve(explicit);
  const here = dirname(fileURLToPath(import.meta.url));
  const candidate = resolve(here, '../../../../shared/data');
  return existsSync(candidate) ? candidate : undefined;
}

/**
 * Reads the CLI settings from the environment, once.
 *
 * Without `FUNDAMENTALS_PROVIDER` and `SEC_USER_AGENT`, and with the shared data folder beside the
 * checkout, the CLI works offline: the `snapshot` provider over its companyfacts files and the
 * `csv` quote provider over its price files. Anything set explicitly wins.
 *
 * @throws ZodError when a variable has an invalid value.
 */
export function readCliSettings(env: NodeJS.ProcessEnv): CliSettings {
  const parsed = CliEnv.parse(env);
  const notes: string[] = [];
  const shared = sharedDataDir(parsed.SHARED_DATA_DIR);
  let provider = parsed.FUNDAMENTALS_PROVIDER;
  let snapshotDir = parsed.FUNDAMENTALS_SNAPSHOT_DIR;
  if (!provider) {
    if (!parsed.SEC_USER_AGENT && shared) {
      provider = 'snapshot';
      snapshotDir ??= join(shared, 'fundamentals/raw/companyfacts');
      notes.push(`offline: snapshot provider over ${snapshotDir}`);
    } else {
      provider = 'sec-edgar';
    }
  }
  let quoteProvider = parsed.QUOTES_PROVIDER;
  let pricesDir = parsed.PRICES_DIR;
  if (!quoteProvider) {
    pricesDir ??= shared ? join(shared, 'prices') : undefined;
    quoteProvider = pricesDir ? 'csv' : 'none';
    if (pricesDir && !parsed.PRICES_DIR) notes.push(`offline: prices from ${pricesDir}`);
  }
  return {
    fundamentals: {
      provider,
      secUserAgent: parsed.SEC_USER_AGENT,
      snapshotDir,
      simfinDir:
        parsed.SIMFIN_DIR ??
        (shared ? join(shared, 'fundamentals/raw/simfin_us_annual_2021-04') : undefined),
    },
    quotes: { provider: quoteProvider, pricesDir },
    notes,
  };
}
