import type { ColumnMapping, MappedField, MappedKind, MappingQuestion } from '../mapping.js';
import type { CsvRow } from '../row.js';
import { meaningOf, sideOf } from './action-words.js';
import type { Choice } from './classify.js';

const KINDS: MappedKind[] = [
  'buy',
  'sell',
  'dividend',
  'interest',
  'deposit',
  'withdrawal',
  'fee',
  'trade',
  'cash',
  'tax',
  'skip',
];

/** The action part of a proposal: what each value means, the side rules, what to ask. */
export interface ProposedActions {
  readonly mapping: Pick<ColumnMapping, 'actions' | 'sides' | 'sideFrom' | 'skipClasses'>;
  readonly unmapped: string[];
  readonly needs: MappingQuestion[];
}

/**
 * Gives every distinct value of the action column a kind from the action words of eleven
 * languages (`meaningOf`); values the words know but a mapping cannot import (splits, mergers)
 * are skipped and asked about, values no word knows are skipped, listed in `unmapped` and asked
 * about. Empty action cells are skipped. The side of `trade` rows: the side column's markers,
 * else the sign of the quantity when some quantities are negative, else of the amount.
 */
export function proposeActions(
  rows: readonly CsvRow[],
  mapping: ColumnMapping,
  chosen: ReadonlyMap<MappedField, Choice>,
): ProposedActions {
  const actions: Record<string, MappedKind> = {};
  const unmapped: string[] = [];
  const needs: MappingQuestion[] = [];
  const column = mapping.columns.action;
  let trades = column === undefined;
  if (column !== undefined) {
    for (const value of new Set(rows.map((r) => r.get(column)))) {
      const meaning = meaningOf(value);
      if (value === '') actions[value] = 'skip';
      else if (meaning === undefined) {
        actions[value] = 'skip';
        unmapped.push(value);
        needs.push({
          value,
          question: `What is "${value}" (column "${column}")?`,
          candidates: KINDS,
        });
      } else if (meaning.meaning === 'unsupported') {
        actions[value] = 'skip';
        needs.push({
          value,
          question: `"${value}" is a ${meaning.word}: a column mapping cannot import it; skip it and record it by hand?`,
          candidates: ['skip'],
        });
      } else {
        actions[value] = meaning.meaning;
        if (meaning.meaning === 'trade') trades = true;
      }
    }
  }
  const result: ProposedActions['mapping'] = { actions, ...skippedClasses(rows, mapping) };
  if (!trades) return { mapping: result, unmapped, needs };
  const side = mapping.columns.side;
  if (side !== undefined) {
    const sides: Record<string, 'buy' | 'sell'> = {};
    for (const value of new Set(rows.map((r) => r.get(side)).filter(Boolean))) {
      const meaning = sideOf(value);
      if (meaning) sides[value] = meaning;
      else
        needs.push({
          value,
          question: `Is "${value}" (column "${side}") a buy or a sell?`,
          candidates: ['buy', 'sell'],
        });
    }
    return { mapping: { ...result, sides }, unmapped, needs };
  }
  const quantity = mapping.columns.quantity ? chosen.get('quantity')?.column : undefined;
  const amount = mapping.columns.amount ? chosen.get('amount')?.column : undefined;
  if ((quantity?.negatives ?? 0) === 0 && (amount?.negatives ?? 0) > 0) {
    return { mapping: { ...result, sideFrom: 'amount' }, unmapped, needs };
  }
  return { mapping: result, unmapped, needs };
}

/** The asset classes whose rows are skipped: CFDs (contracts for difference, not owned). */
function skippedClasses(
  rows: readonly CsvRow[],
  mapping: ColumnMapping,
): Pick<ColumnMapping, 'skipClasses'> {
  const column = mapping.columns.assetClass;
  if (column === undefined) return {};
  const classes = new Set(rows.map((r) => r.get(column)));
  const skip = [...classes].filter((c) => /\bcfds?\b|contracts? for difference/i.test(c));
  return skip.length > 0 ? { skipClasses: skip } : {};
}
