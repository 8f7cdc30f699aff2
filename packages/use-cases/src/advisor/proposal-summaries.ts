import type { NewTransaction, Transaction } from '@svc/portfolio';
import { quoted, symbolText } from '../portfolio/quoted-text.js';

/** The fields of a transaction a summary compares, in the order it names them. */
const FIELDS = [
  'type',
  'symbol',
  'quantity',
  'price',
  'fee',
  'amount',
  'ratio',
  'currency',
  'executedAt',
  'note',
] as const;

/** A field's value as a summary shows it: user text quoted, an instant as ISO 8601 UTC. */
function shown(field: (typeof FIELDS)[number], value: unknown): string {
  if (field === 'note') return quoted(String(value));
  if (field === 'symbol') return symbolText(String(value));
  if (field === 'executedAt') return new Date(String(value)).toISOString();
  return String(value);
}

/**
 * Every field an edit changes, adds or removes, in words: `price 150 → 151.25`, `fee set to 1.5`,
 * `note removed (was “rent”)`; `nothing would change` when none does. Text fields are
 * {@link quoted}, so removing a note never reads as a change of a value to itself.
 */
export function fieldChanges(before: Transaction, after: NewTransaction): string {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of FIELDS) {
    const [was, now] = [a[field], b[field]];
    const same =
      field === 'executedAt'
        ? new Date(String(was)).getTime() === new Date(String(now)).getTime()
        : was === now;
    if (same || (was === undefined && now === undefined)) continue;
    if (now === undefined) parts.push(`${field} removed (was ${shown(field, was)})`);
    else if (was === undefined) parts.push(`${field} set to ${shown(field, now)}`);
    else parts.push(`${field} ${shown(field, was)} → ${shown(field, now)}`);
  }
  return parts.length === 0 ? 'nothing would change' : parts.join(', ');
}

/**
 * The note a transaction would be written with, as a summary ends: ` with the note “…”` (quoted,
 * bounded), or nothing. A proposal's summary names everything it would write; the amounts come
 * from `describeTransaction`.
 */
export function noteOf(transaction: NewTransaction | Transaction): string {
  return transaction.note ? ` with the note ${quoted(transaction.note)}` : '';
}

/**
 * The summary of a proposal to save a moat report: the company, its score, and every tag it
 * would write (quoted), or that it writes none.
 *
 * @example
 * saveReportSummary('MCD', 64.82, 87.5, ['quality']); // 'Save the moat report of MCD (64.82/87.5) with the tags “quality”'
 */
export function saveReportSummary(
  symbol: string,
  totalScore: number,
  maxScore: number,
  tags: readonly string[],
): string {
  const withTags =
    tags.length === 0
      ? 'with no tags'
      : `with the tag${tags.length === 1 ? '' : 's'} ${tags.map(quoted).join(', ')}`;
  return `Save the moat report of ${symbol} (${totalScore}/${maxScore}) ${withTags}`;
}

/**
 * What an instrument is, as an assignment's summary names it (issue 38): ticker, exchange (MIC),
 * ISIN, kind, currency, quoted name and CIK where known, and how it was resolved when given.
 *
 * @example
 * instrumentText({ ticker: 'ASTS', mic: 'XNAS', currency: 'USD', kind: 'share', resolution: 'export' });
 * // 'ticker ASTS on XNAS, share in USD (resolved by export)'; unresolved: '… (unresolved)'
 */
export function instrumentText(instrument: {
  readonly ticker?: string | undefined;
  readonly mic?: string | undefined;
  readonly isin?: string | undefined;
  readonly kind?: string | undefined;
  readonly currency?: string | undefined;
  readonly name?: string | undefined;
  readonly cik?: string | undefined;
  readonly resolution?: string | undefined;
}): string {
  const { ticker, mic, isin, kind, currency, name, cik, resolution } = instrument;
  const parts = [
    ticker ? `ticker ${ticker}${mic ? ` on ${mic}` : ''}` : mic ? `on ${mic}` : undefined,
    isin ? `ISIN ${isin}` : undefined,
    kind || currency
      ? [kind, currency ? `in ${currency}` : undefined].filter(Boolean).join(' ')
      : undefined,
    name ? `named ${quoted(name)}` : undefined,
    cik ? `CIK ${cik}` : undefined,
  ].filter((p): p is string => p !== undefined && p !== '');
  const how =
    resolution === 'unresolved'
      ? ' (unresolved)'
      : resolution
        ? ` (resolved by ${resolution})`
        : '';
  return `${parts.join(', ') || 'nothing known'}${how}`;
}
