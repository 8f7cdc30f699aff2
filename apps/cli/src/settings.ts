import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CommandConfig, parseCommandConfig } from '@svc/service';

/** The command configuration plus a note for the user when an offline default was chosen. */
export interface CliSettings extends CommandConfig {
  readonly notes: string[];
}

/** The repository's `../shared/data` folder, when this checkout sits beside one. */
function sharedDataDir(explicit: string | undefined): string | undefined {
  if (explicit) return resolve(explicit);
  const here = dirname(fileURLToPath(import.meta.url));
  const candidate = resolve(here, '../../../../shared/data');
  return existsSync(candidate) ? candidate : undefined;
}

const setting = (env: NodeJS.ProcessEnv, name: string): string | undefined =>
  env[name]?.trim() || undefined;

/**
 * Reads the CLI settings from the environment, once, through the service's parser
 * (`parseCommandConfig` of `@svc/service`: the same names, defaults and checks as the servers).
 *
 * Without `FUNDAMENTALS_PROVIDER` and `SEC_USER_AGENT`, and with the shared data folder beside the
 * checkout (or `SHARED_DATA_DIR`), the CLI works offline: the `snapshot` provider over its
 * companyfacts files and the `csv` quote provider over its price files. Anything set explicitly
 * wins.
 *
 * @throws ConfigError when a variable has an invalid value.
 */
export function readCliSettings(env: NodeJS.ProcessEnv): CliSettings {
  const notes: string[] = [];
  const shared = sharedDataDir(setting(env, 'SHARED_DATA_DIR'));
  const defaults: Record<string, string> = {};
  if (shared) {
    if (!setting(env, 'FUNDAMENTALS_SNAPSHOT_DIR')) {
      defaults.FUNDAMENTALS_SNAPSHOT_DIR = join(shared, 'fundamentals/raw/companyfacts');
    }
    if (!setting(env, 'FUNDAMENTALS_PROVIDER') && !setting(env, 'SEC_USER_AGENT')) {
      defaults.FUNDAMENTALS_PROVIDER = 'snapshot';
      notes.push(
        `offline: snapshot provider over ${setting(env, 'FUNDAMENTALS_SNAPSHOT_DIR') ?? defaults.FUNDAMENTALS_SNAPSHOT_DIR}`,
      );
    }
    if (!setting(env, 'SIMFIN_DIR')) {
      defaults.SIMFIN_DIR = join(shared, 'fundamentals/raw/simfin_us_annual_2021-04');
    }
    if (!setting(env, 'PRICES_DIR')) {
      defaults.PRICES_DIR = join(shared, 'prices');
      if (!setting(env, 'QUOTES_PROVIDER'))
        notes.push(`offline: prices from ${defaults.PRICES_DIR}`);
    }
  }
  // a price folder without a named provider: the csv provider over it (the servers' default is none)
  if (!setting(env, 'QUOTES_PROVIDER') && (defaults.PRICES_DIR || setting(env, 'PRICES_DIR'))) {
    defaults.QUOTES_PROVIDER = 'csv';
  }
  return { ...parseCommandConfig({ ...env, ...defaults }), notes };
}
