import type { LedgerTransaction } from '../derive-holdings.js';
import { fromEpochDay, toEpochDay } from './calendar.js';
import type { DailySeries } from './types.js';

/** A series with a value on every calendar day from `from` to `to`: `valueOn(offset)`. */
export function everyDay(
  currency: string,
  from: string,
  to: string,
  valueOn: (offset: number) => number,
): DailySeries {
  const first = toEpochDay(from) as number;
  const last = toEpochDay(to) as number;
  const dates: string[] = [];
  const values: number[] = [];
  for (let d = first; d <= last; d++) {
    dates.push(fromEpochDay(d));
    values.push(valueOn(d - first));
  }
  return { currency, dates, values };
}

/** The day `offset` days after `day`. */
export function plus(day: string, offset: number): string {
  return fromEpochDay((toEpochDay(day) as number) + offset);
}

let counter = 0;

/** A ledger transaction at noon UTC of `day`. */
export function tx(
  day: string,
  fields: Omit<LedgerTransaction, 'id' | 'executedAt' | 'currency'> & { currency?: string },
): LedgerTransaction {
  counter += 1;
  return {
    id: `t${String(counter).padStart(6, '0')}`,
    executedAt: `${day}T12:00:00Z`,
    currency: 'EUR',
    ...fields,
  };
}
