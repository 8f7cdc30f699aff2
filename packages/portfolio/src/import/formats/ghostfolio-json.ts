import { Dec } from '../../decimal.js';
import { ghostfolio } from '../definitions/catalogue/converted.js';
import { resolveMapping } from '../definitions/definition.js';
import { mappedFormat } from '../mapped-row.js';
import type { CsvRow, LineOutcome, RowOutcome } from '../row.js';
import { outcome } from '../row.js';

/**
 * Ghostfolio's JSON export (`{ meta, accounts, assetProfiles, platforms, tags, activities, user }`;
 * fixtures `ok_sample.json`, `ok_novn-buy-and-sell-partially.json`). Each activity
 * (`{ type, symbol, quantity, unitPrice, fee, currency, date, dataSource, comment }`) is mapped
 * exactly like a row of the Ghostfolio CSV (by its definition, `ghostfolio`); a `MANUAL` asset keeps the
 * name its asset profile gives. The line reported for an activity is the line of the file where
 * its object starts. Accounts' balances are not imported (they are snapshots, not transactions).
 */
export function mapGhostfolioJson(text: string): LineOutcome[] | { line: number; message: string } {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { line: 0, message: `not valid JSON: ${(error as Error).message}` };
  }
  const activities = (document as { activities?: unknown })?.activities;
  if (!Array.isArray(activities)) {
    return { line: 1, message: 'a Ghostfolio export needs an "activities" array' };
  }
  const names = new Map<string, string>();
  const profiles = (document as { assetProfiles?: unknown }).assetProfiles;
  if (Array.isArray(profiles)) {
    for (const p of profiles as { symbol?: unknown; name?: unknown }[]) {
      if (typeof p.symbol === 'string' && typeof p.name === 'string') names.set(p.symbol, p.name);
    }
  }
  const lines = activityLines(text, activities.length);
  return activities.map((activity, i) => {
    const line = lines[i] ?? 0;
    if (typeof activity !== 'object' || activity === null) {
      return { line, outcome: outcome.error(`activities[${i}] is not an object`) };
    }
    return { line, outcome: mapActivity(activity as Record<string, unknown>, line, names) };
  });
}

/** The columns an activity is read under, as the CSV's header names them. */
const ACTIVITY_COLUMNS = [
  'date',
  'code',
  'datasource',
  'currency',
  'price',
  'quantity',
  'action',
  'fee',
  'note',
];

/** The Ghostfolio CSV definition's reader, its columns resolved against an activity's. */
const csvReader = mappedFormat(
  resolveMapping(ghostfolio.read, { headerLine: 1, delimiter: ',', header: ACTIVITY_COLUMNS }),
);

function mapActivity(
  activity: Record<string, unknown>,
  line: number,
  names: ReadonlyMap<string, string>,
): RowOutcome {
  const cells: Record<string, string> = {
    date: text(activity.date),
    code: text(activity.symbol),
    datasource: text(activity.dataSource),
    currency: text(activity.currency),
    price: text(activity.unitPrice),
    quantity: text(activity.quantity),
    action: text(activity.type),
    fee: text(activity.fee),
    note: text(activity.comment),
  };
  const manual = cells.datasource?.toUpperCase() === 'MANUAL';
  const name = names.get(cells.code ?? '');
  if (manual && name) cells.code = name;
  const row: CsvRow = {
    line,
    cells: Object.values(cells),
    cell: () => '',
    has: (column) => column.toLowerCase() in cells,
    get: (column) => cells[column.toLowerCase()]?.trim() ?? '',
  };
  const result = csvReader.mapRow(row);
  if (result.kind !== 'transactions' || name === undefined) return result;
  return { ...result, meta: { ...result.meta, name } };
}

function text(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return new Dec(value).toFixed();
  if (typeof value === 'string') return value;
  return '';
}

/** 1-based line of each activity object: the line of its `{` inside the `activities` array. */
function activityLines(source: string, count: number): number[] {
  const start = source.indexOf('"activities"');
  const lines: number[] = [];
  if (start < 0) return lines;
  let depth = 0;
  let inString = false;
  let line = source.slice(0, start).split('\n').length;
  for (let i = start; i < source.length && lines.length < count; i++) {
    const c = source[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (c === '{' && depth === 1) lines.push(line);
      depth++;
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) break;
    }
  }
  return lines;
}
