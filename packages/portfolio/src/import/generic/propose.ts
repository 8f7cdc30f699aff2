import { normalizeNewlines, readTable } from '../csv-records.js';
import type { DateOrder } from '../dates.js';
import {
  CONFIDENCE_THRESHOLD,
  type ColumnMapping,
  type FieldConfidence,
  MAPPED_FIELDS,
  type MappedField,
  type MappingProposal,
  type MappingQuestion,
} from '../mapping.js';
import type { CsvRow } from '../row.js';
import { proposeActions } from './actions.js';
import { currencyInCell } from './cells.js';
import { type Choice, chooseColumns } from './classify.js';
import { type ColumnProfile, profileColumn } from './profile.js';
import { findTableStart, fromLine } from './sniff.js';
import { type MappingVerdict, verifyMapping } from './verify.js';

/** Options of {@link proposeMapping}. */
export interface ProposeOptions {
  /** Currency of a file that names none (as `accountCurrency` of the import); default EUR. */
  readonly accountCurrency?: string;
}

const SAMPLE_ROWS = 500;

/**
 * Proposes a {@link ColumnMapping} for a broker export no module reads, meant to give the right
 * holdings when accepted unchanged: finds the header row below any preamble and the delimiter
 * (`findTableStart`), profiles every column's values (dates and their order, numbers and their
 * decimal mark, ISINs by checksum, ISO currency codes, action words of eleven languages, buy/sell
 * markers, trades written as text), scores each (field, column) pair by header words and values
 * and quantity × price ≈ amount, and takes the best pairs (`chooseColumns`). Each field carries
 * its confidence and evidence; a needed field below {@link CONFIDENCE_THRESHOLD}, an ambiguous
 * date order and every action value without a meaning are asked in `needs`. `undefined` when the
 * text has no header row of at least three columns.
 */
export function proposeMapping(
  text: string,
  options: ProposeOptions = {},
): MappingProposal | undefined {
  const normalized = normalizeNewlines(text.replace(/^\uFEFF/, ''));
  const start = findTableStart(normalized);
  if (start === undefined) return undefined;
  const table = readTable(fromLine(normalized, start.headerLine), start.delimiter);
  if ('message' in table || table.rows.length === 0) return undefined;
  const seen = new Set<string>();
  const profiles: ColumnProfile[] = [];
  table.rawHeader.forEach((name, index) => {
    if (name === '' || seen.has(name.toLowerCase())) return;
    seen.add(name.toLowerCase());
    profiles.push(profileColumn(name, index, table.rows.slice(0, SAMPLE_ROWS)));
  });
  if (profiles.length < 3) return undefined;
  const needs: MappingQuestion[] = [];
  const chosen = chooseColumns(profiles);
  const columns: ColumnMapping['columns'] = {};
  const confidence: Partial<Record<MappedField, FieldConfidence>> = {};
  for (const [field, choice] of chosen) {
    const entry = {
      column: choice.column.name,
      confidence: round(choice.confidence),
      evidence: choice.evidence,
    };
    if (choice.confidence >= CONFIDENCE_THRESHOLD) {
      columns[field] = choice.column.name;
      confidence[field] = entry;
    } else {
      needs.push(askColumn(field, profiles, choice));
    }
  }
  useNameAsInstrument(columns, confidence);
  askRequired(columns, profiles, needs);
  const mapping = buildMapping(start.delimiter, columns, chosen, table.rows, needs, options);
  if (start.headerLine > 1) mapping.headerLine = start.headerLine;
  const actions = proposeActions(table.rows, mapping, chosen);
  needs.push(...actions.needs);
  const draft = {
    mapping: { ...mapping, ...actions.mapping },
    unmappedActions: actions.unmapped,
    missing: MAPPED_FIELDS.filter(
      (f) =>
        columns[f] === undefined &&
        f !== 'tax' &&
        f !== 'time' &&
        f !== 'fxRate' &&
        f !== 'feeCurrency',
    ),
    confidence,
    needs,
    structure: `${start.evidence}; delimiter ${JSON.stringify(start.delimiter)}`,
  };
  return settle(normalized, draft, options);
}

/**
 * Checks the draft against its own result before offering it (`verifyMapping`): rows the mapping
 * cannot read are skipped (`skipUnreadable`) rather than failing the import the proposal was made
 * for; an action whose buy (or sell) rows mix signs of the quantity is read by the sign (`trade`);
 * when the positions go below 0, the other sign rule (quantity or amount) is tried and kept only if
 * every check then passes. The checks are answered with the proposal, and each failed one asks its
 * question in `needs`.
 */
function settle(
  normalized: string,
  draft: Omit<MappingProposal, 'checks' | 'acceptable'>,
  options: ProposeOptions,
): MappingProposal {
  const context = { accountCurrency: (options.accountCurrency ?? 'EUR').toUpperCase() };
  let mapping = draft.mapping;
  let verdict = verifyMapping(normalized, mapping, context);
  if (!verdict.parsed.ok) {
    mapping = { ...mapping, skipUnreadable: true };
    verdict = verifyMapping(normalized, mapping, context);
  }
  for (const variant of variantsOf(mapping, verdict)) {
    if (verdict.acceptable) break;
    const tried = verifyMapping(normalized, variant, context);
    if (tried.acceptable || failures(tried) < failures(verdict)) {
      mapping = variant;
      verdict = tried;
    }
  }
  return {
    ...draft,
    mapping,
    checks: verdict.checks,
    acceptable: verdict.acceptable,
    needs: [...draft.needs, ...verdict.questions],
  };
}

const failures = (verdict: MappingVerdict) => verdict.checks.filter((c) => !c.passed).length;

/** Corrections worth trying when a check fails, most specific first. */
function variantsOf(mapping: ColumnMapping, verdict: MappingVerdict): ColumnMapping[] {
  const failed = new Set(verdict.checks.filter((c) => !c.passed).map((c) => c.id));
  const variants: ColumnMapping[] = [];
  const signed = verdict.questions.find((q) => q.check === 'signs')?.value;
  if (failed.has('signs') && signed !== undefined) {
    const actions = { ...mapping.actions };
    for (const [value, kind] of Object.entries(actions)) {
      if (value.toLowerCase() === signed.toLowerCase() && (kind === 'buy' || kind === 'sell')) {
        actions[value] = 'trade';
      }
    }
    const { sideFrom: _s, ...rest } = mapping;
    variants.push({ ...rest, actions });
  }
  const trades =
    mapping.columns.action === undefined || Object.values(mapping.actions).includes('trade');
  if (failed.has('positions') && trades && mapping.columns.side === undefined) {
    variants.push({ ...mapping, sideFrom: mapping.sideFrom === 'amount' ? 'quantity' : 'amount' });
  }
  return variants;
}

const round = (n: number) => Math.round(n * 100) / 100;

function askColumn(
  field: MappedField,
  profiles: readonly ColumnProfile[],
  best?: Choice,
): MappingQuestion {
  const names = profiles.map((p) => p.name);
  const first = best?.column.name;
  return {
    field,
    question: `Which column holds the ${field}?${first ? ` "${first}" is a guess (${best?.evidence.join(', ')})` : ''}`,
    candidates: first ? [first, ...names.filter((n) => n !== first)] : names,
  };
}

/**
 * With neither a symbol nor an ISIN column, the instrument is named by its name column (a fund
 * broker's export names funds only): the name column is also the symbol.
 */
function useNameAsInstrument(
  columns: ColumnMapping['columns'],
  confidence: Partial<Record<MappedField, FieldConfidence>>,
): void {
  const name = columns.name;
  if (name === undefined || columns.symbol !== undefined || columns.isin !== undefined) return;
  columns.symbol = name;
  const named = confidence.name;
  confidence.symbol = {
    column: name,
    confidence: named?.confidence ?? CONFIDENCE_THRESHOLD,
    evidence: ['no symbol or ISIN column: the instrument is named by its name'],
  };
}

function askRequired(
  columns: ColumnMapping['columns'],
  profiles: readonly ColumnProfile[],
  needs: MappingQuestion[],
): void {
  const asked = new Set(needs.map((n) => n.field));
  if (columns.date === undefined && !asked.has('date')) needs.push(askColumn('date', profiles));
  if (
    columns.quantity === undefined &&
    columns.amount === undefined &&
    columns.details === undefined
  ) {
    if (!asked.has('amount')) needs.push(askColumn('amount', profiles));
  }
}

function buildMapping(
  delimiter: ColumnMapping['delimiter'],
  columns: ColumnMapping['columns'],
  chosen: ReadonlyMap<MappedField, Choice>,
  rows: readonly CsvRow[],
  needs: MappingQuestion[],
  options: ProposeOptions,
): ColumnMapping {
  const profile = (field: MappedField) =>
    columns[field] === undefined ? undefined : chosen.get(field)?.column;
  const dateOrder = orderOf(profile('date'), needs);
  const numberFields = (['quantity', 'price', 'fee', 'amount'] as const).filter((f) => profile(f));
  const marks = numberFields.map((f) => profile(f)?.decimal).filter((m) => m !== undefined);
  const decimal = marks.filter((m) => m === ',').length > marks.length / 2 ? ',' : '.';
  const decimals: NonNullable<ColumnMapping['decimals']> = {};
  for (const f of numberFields) {
    const mark = profile(f)?.decimal;
    if (mark !== undefined && mark !== decimal) decimals[f] = mark;
  }
  const textMark = profile('details')?.textDecimal;
  if (textMark !== undefined && textMark !== decimal) decimals.details = textMark;
  const mapping: ColumnMapping = { delimiter, columns, dateOrder, decimal, actions: {} };
  if (Object.keys(decimals).length > 0) mapping.decimals = decimals;
  const column = columns.currency;
  if (column !== undefined && rows.some((r) => r.get(column) === '')) {
    mapping.currency = mostFrequent(rows.map((r) => r.get(column).toUpperCase()).filter(Boolean));
  }
  const named = currencyInCells(rows, columns);
  if (columns.currency === undefined && named !== undefined) mapping.currency = named;
  if (columns.currency === undefined && named === undefined) {
    mapping.currency = (options.accountCurrency ?? 'EUR').toUpperCase();
    needs.push({
      field: 'currency',
      question: `The file names no currency: are all amounts in ${mapping.currency}?`,
      candidates: [mapping.currency],
    });
  }
  return mapping;
}

function orderOf(date: ColumnProfile | undefined, needs: MappingQuestion[]): DateOrder {
  const orders = date?.dateOrders ?? [];
  if (orders.includes('ymd')) return 'ymd';
  if (orders.length === 1 && orders[0]) return orders[0];
  if (orders.length > 1) {
    needs.push({
      field: 'dateOrder',
      question: `Every date in "${date?.name}" reads day-first and month-first: which is it?`,
      candidates: ['dmy', 'mdy'],
    });
  }
  return 'dmy';
}

/** The currency every amount and price cell names ("$12", "1.234,56 EUR"), the most frequent. */
function currencyInCells(
  rows: readonly CsvRow[],
  columns: ColumnMapping['columns'],
): string | undefined {
  const cells = rows
    .slice(0, SAMPLE_ROWS)
    .flatMap((r) => [columns.amount, columns.price].map((c) => (c ? r.get(c) : '')))
    .filter((c) => c !== '');
  const named = cells.map(currencyInCell);
  if (cells.length === 0 || named.some((c) => c === undefined)) return undefined;
  return mostFrequent(named.filter((c) => c !== undefined));
}

/** The most frequent of `values` (the first on a tie); `undefined` when there is none. */
function mostFrequent(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
