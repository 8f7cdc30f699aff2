import { createHash } from 'node:crypto';
import { Dec, formatDecimal } from '../decimal.js';
import {
  applyTransaction,
  type DerivedPortfolio,
  emptyLedger,
  heldQuantity,
  type LedgerTransaction,
  snapshot,
  sortTransactions,
} from '../derive-holdings.js';
import { PortfolioError } from '../errors.js';
import type { NewTransaction } from '../transaction.js';
import type { ImportedRow, ImportIssue } from './parse-broker-csv.js';

/** Version prefix of every fingerprint: bump it when the normalised fields change. */
const FINGERPRINT_VERSION = 'v1';

/** An imported row with its fingerprint (see {@link fingerprintRows}). */
export interface FingerprintedRow extends ImportedRow {
  readonly fingerprint: string;
}

/**
 * Gives every row its import fingerprint, a hex SHA-256 that is the same whenever the same row of
 * the same export is imported again:
 * - with the broker's own id of the row: `sha256(v1 | format | id | externalId | index)` (`index`
 *   numbers the transactions one row produces);
 * - otherwise a hash of the normalised transaction: `sha256(v1 | format | row | type | executedAt |
 *   symbol | quantity | price | amount | ratio | fee | currency | occurrence)`, decimals in
 *   canonical form, where `occurrence` numbers identical tuples within the file (0, 1, 2…) so that
 *   two genuine identical fills stay two while a re-import of the same file maps the n-th copy to
 *   the n-th copy already stored (the scheme of research note broker-import-anchors §4).
 * Hashing normalised fields rather than the raw text keeps a fingerprint stable when only the
 * file's formatting changes.
 */
export function fingerprintRows(format: string, rows: readonly ImportedRow[]): FingerprintedRow[] {
  const occurrences = new Map<string, number>();
  return rows.map((row) => {
    if (row.externalId !== undefined) {
      const key = [FINGERPRINT_VERSION, format, 'id', row.externalId, row.index].join('|');
      return { ...row, fingerprint: sha256(key) };
    }
    const tuple = [FINGERPRINT_VERSION, format, 'row', ...normalisedFields(row.transaction)].join(
      '|',
    );
    const occurrence = occurrences.get(tuple) ?? 0;
    occurrences.set(tuple, occurrence + 1);
    return { ...row, fingerprint: sha256(`${tuple}|${occurrence}`) };
  });
}

function normalisedFields(tx: NewTransaction): string[] {
  const canonical = (v: string | undefined) => (v === undefined ? '' : new Dec(v).toFixed());
  const fields = tx as Partial<Record<'quantity' | 'price' | 'amount' | 'ratio' | 'fee', string>>;
  return [
    tx.type,
    new Date(tx.executedAt).toISOString(),
    tx.symbol ?? '',
    canonical(fields.quantity),
    canonical(fields.price),
    canonical(fields.amount),
    canonical(fields.ratio),
    canonical(fields.fee),
    tx.currency,
  ];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * What to do with a sale of more units than the ledger holds at that moment:
 * - `cash-only` (default): the export began after the purchase (brokers cap the period of an
 *   export), so the units held are sold as usual and the rest of the sale only adds its proceeds
 *   to cash (a deposit noted as such); the row is listed in `warnings` with the quantity held then;
 * - `reject`: the import fails, naming the line, the quantity sold and the quantity held then.
 */
export type OversellPolicy = 'cash-only' | 'reject';

/** Input of {@link planImport}. */
export interface ImportPlanInput {
  /** The portfolio's stored transactions (any order). */
  readonly existing: readonly LedgerTransaction[];
  /** Fingerprints already stored in the portfolio. */
  readonly existingFingerprints: ReadonlySet<string>;
  /** The file's rows with fingerprints ({@link fingerprintRows}). */
  readonly rows: readonly FingerprintedRow[];
  /** Default `cash-only`. */
  readonly oversell?: OversellPolicy;
}

/** A transaction the import will store, with its fingerprint and the line it came from. */
export interface PlannedTransaction {
  readonly line: number;
  readonly fingerprint: string;
  readonly transaction: NewTransaction;
  readonly name?: string;
}

/** Result of {@link planImport}. */
export type ImportPlan =
  | {
      readonly ok: true;
      /** What to store, in execution order. */
      readonly transactions: PlannedTransaction[];
      /** Rows whose fingerprint is already stored in the portfolio. */
      readonly alreadyPresent: number;
      /** Rows repeated within the file (the same broker id twice), with the first line. */
      readonly duplicates: ImportIssue[];
      /** Rows imported with an adjustment (a sale beyond the units held), with the reason. */
      readonly warnings: ImportIssue[];
      /** Holdings and cash of the portfolio after the import. */
      readonly after: DerivedPortfolio;
    }
  | { readonly ok: false; readonly errors: ImportIssue[] };

type Replayed = LedgerTransaction & { readonly planned?: FingerprintedRow };

/**
 * Plans an import against a portfolio's ledger, without side effects: drops rows already stored
 * (by fingerprint) and rows repeated within the file, merges the rest with the stored
 * transactions, replays everything in execution order (`executedAt`, then the type order of
 * `deriveHoldings`, then file line) — never in file order, so a file listing a sale before the
 * purchase it closes imports — and applies the {@link OversellPolicy} to sales beyond the units
 * held at their moment. Returns what to store and the holdings and cash after, or every failing
 * line. Never throws for bad input.
 */
export function planImport(input: ImportPlanInput): ImportPlan {
  const policy = input.oversell ?? 'cash-only';
  const seen = new Map<string, number>();
  const duplicates: ImportIssue[] = [];
  let alreadyPresent = 0;
  const fresh: FingerprintedRow[] = [];
  for (const row of input.rows) {
    if (input.existingFingerprints.has(row.fingerprint)) {
      alreadyPresent++;
      continue;
    }
    const first = seen.get(row.fingerprint);
    if (first !== undefined) {
      if (row.index === 0) {
        duplicates.push({ line: row.line, message: `repeats line ${first} (same broker id)` });
      }
      continue;
    }
    seen.set(row.fingerprint, row.line);
    fresh.push(row);
  }
  const merged: Replayed[] = [
    ...input.existing.map((tx) => ({ ...tx, id: `0:${tx.id}` })),
    ...fresh.map((row) => ({
      ...row.transaction,
      id: `1:${String(row.line).padStart(9, '0')}:${String(row.index).padStart(3, '0')}`,
      planned: row,
    })),
  ];
  const ledger = emptyLedger();
  const planned: PlannedTransaction[] = [];
  const warnings: ImportIssue[] = [];
  const errors: ImportIssue[] = [];
  try {
    for (const tx of sortTransactions(merged)) {
      const row = tx.planned;
      if (row === undefined) {
        applyTransaction(ledger, tx);
        continue;
      }
      for (const adjusted of adjustForHoldings(ledger, row, policy, warnings, errors)) {
        applyTransaction(ledger, { ...adjusted.transaction, id: tx.id });
        planned.push(adjusted);
      }
    }
  } catch (error) {
    if (!(error instanceof PortfolioError)) throw error;
    const line = merged.find((t) => t.id === error.transactionId)?.planned?.line ?? 0;
    return {
      ok: false,
      errors: [{ line, message: error.message.replace(/^transaction \S+: /, '') }],
    };
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    transactions: planned,
    alreadyPresent,
    duplicates,
    warnings,
    after: snapshot(ledger),
  };
}

function adjustForHoldings(
  ledger: ReturnType<typeof emptyLedger>,
  row: FingerprintedRow,
  policy: OversellPolicy,
  warnings: ImportIssue[],
  errors: ImportIssue[],
): PlannedTransaction[] {
  const tx = row.transaction;
  const base = {
    line: row.line,
    fingerprint: row.fingerprint,
    ...(row.name ? { name: row.name } : {}),
  };
  if (tx.type !== 'sell') return [{ ...base, transaction: tx }];
  const held = heldQuantity(ledger, tx.symbol, tx.currency);
  const sold = new Dec(tx.quantity);
  if (held.gte(sold)) return [{ ...base, transaction: tx }];
  const at = tx.executedAt.slice(0, 10);
  const what = `sells ${sold.toFixed()} ${tx.symbol} (${tx.currency}) on ${at} but ${held.toFixed()} are held then`;
  if (policy === 'reject') {
    errors.push({ line: row.line, message: what });
    return [];
  }
  const shortfall = sold.minus(held);
  const fee = new Dec(tx.fee ?? '0');
  const out: PlannedTransaction[] = [];
  if (held.gt(0)) out.push({ ...base, transaction: { ...tx, quantity: held.toFixed() } });
  const proceeds = shortfall.times(tx.price).minus(held.gt(0) ? 0 : fee);
  const note = `proceeds of ${shortfall.toFixed()} ${tx.symbol} sold but not held in this portfolio (bought before the export begins)`;
  if (!proceeds.isZero()) {
    out.push({
      ...base,
      fingerprint: out.length === 0 ? row.fingerprint : `${row.fingerprint}:unheld`,
      transaction: {
        type: proceeds.gt(0) ? 'deposit' : 'withdrawal',
        amount: formatDecimal(proceeds.abs()),
        currency: tx.currency,
        executedAt: tx.executedAt,
        note,
      },
    });
  }
  warnings.push({
    line: row.line,
    message: `${what}: the ${shortfall.toFixed()} not held were recorded as cash only (${formatDecimal(proceeds)} ${tx.currency})`,
  });
  return out;
}
