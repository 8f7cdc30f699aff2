import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type FingerprintedRow, fingerprintRows, parseBrokerCsv } from '../../../src/index.js';

// What an import module read from each of its files, recorded while the module still existed
// (`<id>.json`), so that the declarative definition that replaced it can be held to exactly the
// same transactions, metadata and fingerprints (re-importing a file imported with the module must
// not duplicate a row).

const dataDir =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../../../shared/data');

/** One file a module was recorded on: a real sample (by path) or a hand-made text. */
export interface ModuleInput {
  readonly sample?: string;
  readonly text?: string;
  readonly accountCurrency?: string;
  readonly handmade?: boolean;
}

/** The inputs of every module entry (the real samples, texts of earlier tests, hand-made rows). */
export const INPUTS: Record<string, readonly ModuleInput[]> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'inputs.json'), 'utf8'),
);

/** The text of an input. */
export function textOf(input: ModuleInput): string {
  if (input.text !== undefined) return input.text;
  return readFileSync(join(dataDir, 'broker-exports', input.sample ?? ''), 'utf8');
}

/** What an import gave: rows with fingerprints and the lines skipped, or the lines in error. */
export type Outcome =
  | {
      readonly ok: true;
      readonly format: string;
      readonly rows: readonly FingerprintedRow[];
      readonly skippedLines: readonly number[];
      readonly skipped: readonly { line: number; message: string }[];
    }
  | { readonly ok: false; readonly format: string | undefined; readonly errorLines: number[] };

/** What the import of `input` as format `id` gives: rows with fingerprints, skipped lines, errors. */
export function outcomeOf(id: string, input: ModuleInput): Outcome {
  const parsed = parseBrokerCsv(textOf(input), {
    ...(input.accountCurrency ? { accountCurrency: input.accountCurrency } : {}),
  });
  if (!parsed.ok) {
    return { ok: false, format: parsed.format, errorLines: parsed.errors.map((e) => e.line) };
  }
  return {
    ok: true as const,
    format: parsed.format,
    rows: fingerprintRows(id, parsed.rows),
    skippedLines: parsed.skipped.map((s) => s.line),
    skipped: parsed.skipped,
  };
}

/** The recorded outcome of a module on its inputs (`<id>.json`), in the order of {@link INPUTS}. */
export function recorded(id: string): Outcome[] {
  return JSON.parse(readFileSync(join(import.meta.dirname, `${id}.json`), 'utf8'));
}
