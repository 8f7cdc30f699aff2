import {
  fingerprintRows,
  type ImportPlan,
  type LedgerTransaction,
  type parseBrokerCsv,
  planImport,
} from '@svc/portfolio';
import type { createRepositories, Transaction as StoredTransaction } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import type { Settings } from './broker-import-reading.js';
import { namesOf } from './change-ledger.js';
import { type InstrumentHint, type InstrumentResolver, instrumentSymbol } from './instruments.js';
import { ISIN_PATTERN, type IsinResolver } from './isin-symbols.js';
import { toLedgerTransaction } from './ledger-codec.js';

// A read file's rows under their instruments' symbols, and the plan of importing them into a
// ledger, for the preview and the import alike.

/** How the instruments a file names are resolved (see {@link resolveRows}). */
export interface ImportResolvers {
  /**
   * Maps instruments the export names by ISIN to quote symbols (`ISIN_SYMBOLS_FILE`); unknown
   * ISINs, and every ISIN without a resolver, stay the symbol. Applied after fingerprinting, so a
   * re-import after the table changed still finds its rows.
   */
  readonly isinSymbols?: IsinResolver;
  /**
   * Resolves each instrument the file names (issue 38: the export's ISIN and ticker, the user's
   * assignment, OpenFIGI, SEC, the offline file); its transactions are stored under the
   * instrument's symbol (the ticker when known) with the instrument. Without it, only
   * `isinSymbols` applies and rows are stored without an instrument.
   */
  readonly instruments?: InstrumentResolver;
}

export type ParsedOk = Extract<ReturnType<typeof parseBrokerCsv>, { ok: true }>;

type Row = ReturnType<typeof fingerprintRows>[number];

/** The file's rows, fingerprinted, under their instruments' symbols; see {@link resolveRows}. */
export interface ResolvedRows {
  readonly rows: Row[];
  /** The instrument of each symbol the rows are stored under (its first buy or sell's). */
  readonly instruments: Map<string, Instrument>;
}

/**
 * Fingerprints the file's rows (over the symbols as the file gives them, so a re-import after a
 * resolution changed still finds its rows), then resolves the instrument of each symbol once
 * (issue 38) and stores the rows under the instrument's symbol (the ticker when known; the
 * export's name is kept, else the symbol it gave). The instrument's currency is the one its
 * first buy or sell in the file trades in (a dividend paid in the account currency does not
 * make another instrument). Without a resolver: `isinSymbols` alone, as before issue 38.
 */
export async function resolveRows(
  deps: ImportResolvers,
  userId: string,
  parsed: ParsedOk,
): Promise<ResolvedRows> {
  const rows = fingerprintRows(parsed.format, parsed.rows);
  const instruments = new Map<string, Instrument>();
  if (!deps.instruments) return { rows: resolveIsins(rows, deps.isinSymbols), instruments };
  const tradeCurrency = new Map<string, string>();
  for (const row of rows) {
    const tx = row.transaction;
    if ((tx.type === 'buy' || tx.type === 'sell') && tx.symbol && !tradeCurrency.has(tx.symbol)) {
      tradeCurrency.set(tx.symbol, tx.currency);
    }
  }
  // one ISIN, one ticker: the one most of its rows name, the earliest on a tie (Trading 212
  // names a corporate action's instrument by another ticker now and then)
  const tickerOf = new Map<string, string>();
  const counts = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (!row.isin || !row.ticker) continue;
    const tally = counts.get(row.isin) ?? new Map<string, number>();
    tally.set(row.ticker, (tally.get(row.ticker) ?? 0) + 1);
    counts.set(row.isin, tally);
  }
  for (const [isin, tally] of counts) {
    let best: [string, number] | undefined;
    for (const entry of tally) if (!best || entry[1] > best[1]) best = entry;
    if (best) tickerOf.set(isin, best[0]);
  }
  const hints = new Map<string, InstrumentHint>();
  const tickerFor = (row: Row) => (row.isin ? tickerOf.get(row.isin) : undefined) ?? row.ticker;
  const hintKey = (row: Row) =>
    JSON.stringify([row.transaction.symbol, row.isin ?? '', tickerFor(row) ?? '']);
  for (const row of rows) {
    const symbol = row.transaction.symbol;
    if (!symbol || hints.has(hintKey(row))) continue;
    const ticker = tickerFor(row);
    hints.set(hintKey(row), {
      symbol,
      currency: tradeCurrency.get(symbol) ?? row.transaction.currency,
      ...(row.isin ? { isin: row.isin } : {}),
      ...(ticker ? { ticker } : {}),
      ...(row.name ? { name: row.name } : {}),
      fromExport: row.isin !== undefined || row.ticker !== undefined,
    });
  }
  const keys = [...hints.keys()];
  const found = await deps.instruments.resolve(userId, [...hints.values()]);
  const byHint = new Map(keys.map((key, i) => [key, found[i] as Instrument]));
  const out = rows.map((row) => {
    const given = row.transaction.symbol;
    const instrument = given ? byHint.get(hintKey(row)) : undefined;
    if (!given || !instrument) return row;
    const symbol = instrumentSymbol(instrument, given);
    if (!instruments.has(symbol)) instruments.set(symbol, instrument);
    return symbol === given
      ? row
      : { ...row, name: row.name ?? given, transaction: { ...row.transaction, symbol } };
  });
  return { rows: out, instruments };
}

/** The rows with their ISIN symbols replaced by the resolver's quote symbols (names kept). */
function resolveIsins<
  R extends { transaction: { symbol?: string | undefined }; name?: string | undefined },
>(rows: R[], resolver: IsinResolver | undefined): R[] {
  if (!resolver) return rows;
  return rows.map((row) => {
    const isin = row.transaction.symbol;
    if (isin === undefined || !ISIN_PATTERN.test(isin)) return row;
    const symbol = resolver.symbolOf(isin);
    return symbol === undefined
      ? row
      : { ...row, name: row.name ?? isin, transaction: { ...row.transaction, symbol } };
  });
}

export async function planAgainst(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  stored: readonly StoredTransaction[],
  resolved: ResolvedRows,
  settings: Settings,
): Promise<{ plan: ImportPlan; names: Map<string, string>; ledger: LedgerTransaction[] }> {
  const { rows } = resolved;
  const ledger = stored.map(toLedgerTransaction);
  const names = namesOf(stored);
  const present = await repos.transactions.presentFingerprints(
    userId,
    portfolioId,
    rows.map((r) => r.fingerprint),
  );
  const plan = planImport({
    existing: ledger,
    existingFingerprints: present,
    rows,
    oversell: settings.oversell,
  });
  for (const row of rows) {
    const symbol = row.transaction.symbol;
    if (!symbol) continue;
    if (row.name && !names.has(symbol)) names.set(symbol, row.name);
  }
  return { plan, names, ledger };
}
