import { Readable } from 'node:stream';
import type { SimfinCompanyRows, SimfinStatement } from './columns.js';
import { readSimfinStatement } from './read-simfin-csv.js';

/** Test helper: the header of every SimFin statement, then per statement its own columns. */
const KEYS =
  'Ticker;SimFinId;Currency;Fiscal Year;Fiscal Period;Report Date;Publish Date;Restated Date';

/** A `;`-separated SimFin-like file from key cells + named value columns (test fixtures). */
export function simfinCsv(
  columns: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const quote = (name: string) => (/[ ,&()]/.test(name) ? `"${name}"` : name);
  const header = [...KEYS.split(';').map(quote), ...columns.map(quote)].join(';');
  return [header, ...rows.map((r) => r.join(';'))].join('\n');
}

/** Parses fixture CSV texts of the three statements and returns one ticker's rows. */
export async function rowsOfTicker(
  texts: Readonly<Record<SimfinStatement, string>>,
  ticker: string,
): Promise<SimfinCompanyRows> {
  const read = <S extends SimfinStatement>(s: S) =>
    readSimfinStatement(Readable.from([texts[s]]), s, `${s}.csv`);
  const [income, balance, cashflow] = await Promise.all([
    read('income'),
    read('balance'),
    read('cashflow'),
  ]);
  return {
    income: income.byTicker.get(ticker) ?? [],
    balance: balance.byTicker.get(ticker) ?? [],
    cashflow: cashflow.byTicker.get(ticker) ?? [],
  };
}
