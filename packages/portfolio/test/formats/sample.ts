import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type BrokerCsvResult,
  fingerprintRows,
  type ImportPlan,
  type ParseBrokerCsvOptions,
  parseBrokerCsv,
  planImport,
} from '../../src/index.js';

// Real broker export fixtures (see shared/data/broker-exports/SOURCES.md); never copied here.
const dataDir =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../../shared/data');

/** The text of a sample under `broker-exports/`. */
export const readSample = (path: string) =>
  readFileSync(join(dataDir, 'broker-exports', path), 'utf8');

/** Parses a sample and plans its import into an empty portfolio; throws when either fails. */
export function importSample(
  path: string,
  options: ParseBrokerCsvOptions = {},
): { parsed: Extract<BrokerCsvResult, { ok: true }>; plan: Extract<ImportPlan, { ok: true }> } {
  const parsed = parseBrokerCsv(readSample(path), options);
  if (!parsed.ok) throw new Error(`parse failed: ${JSON.stringify(parsed.errors)}`);
  const plan = planImport({
    existing: [],
    existingFingerprints: new Set(),
    rows: fingerprintRows(parsed.format, parsed.rows),
  });
  if (!plan.ok) throw new Error(`plan failed: ${JSON.stringify(plan.errors)}`);
  return { parsed, plan };
}

/** The row of `line` in a parsed sample (its transactions). */
export function atLine(parsed: Extract<BrokerCsvResult, { ok: true }>, line: number) {
  return parsed.rows.filter((r) => r.line === line).map((r) => r.transaction);
}

/** Cash per currency after a plan, as a plain record. */
export function cashOf(plan: Extract<ImportPlan, { ok: true }>): Record<string, string> {
  return Object.fromEntries(plan.after.cash.map((c) => [c.currency, c.amount]));
}

/** Quantity per `symbol currency` after a plan. */
export function quantitiesOf(plan: Extract<ImportPlan, { ok: true }>): Record<string, string> {
  return Object.fromEntries(
    plan.after.holdings.map((h) => [`${h.symbol} ${h.currency}`, h.quantity]),
  );
}
