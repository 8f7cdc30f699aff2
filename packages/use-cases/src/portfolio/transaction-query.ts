import type { TransactionQuery } from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import { TransactionListQuery } from './schemas.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * Validates list filters and turns them into the store's query. The store's bounds are
 * `from` inclusive and `to` exclusive; here both bounds are inclusive, as a user reading
 * "to 2024-03-31" expects: a day `to` becomes the next day's 00:00 UTC, a date-time `to` one
 * millisecond later (the store keeps millisecond timestamps).
 *
 * @throws UseCaseError `validation_failed` with one problem per bad field, or `to` before `from`.
 */
export function toStoreQuery(input: TransactionListQuery): TransactionQuery {
  const parsed = TransactionListQuery.safeParse(input);
  if (!parsed.success) {
    throw new UseCaseError('validation_failed', 'invalid transaction filters', {
      errors: parsed.error.issues.map((i) => ({
        path: i.path.map(String).join('.') || 'query',
        message: i.message,
      })),
    });
  }
  const { portfolioId, from, to, limit, cursor } = parsed.data;
  const start = from === undefined ? undefined : instant(from);
  const end = to === undefined ? undefined : new Date(instant(to).getTime() + boundWidth(to));
  if (start !== undefined && end !== undefined && end <= start) {
    const message = '`to` is before `from`';
    throw new UseCaseError('validation_failed', message, { errors: [{ path: 'to', message }] });
  }
  return { portfolioId, from: start, to: end, limit, cursor };
}

function instant(value: string): Date {
  return new Date(DAY.test(value) ? `${value}T00:00:00Z` : value);
}

function boundWidth(value: string): number {
  return DAY.test(value) ? DAY_MS : 1;
}
