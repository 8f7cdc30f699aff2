import { z } from 'zod';

/** ISO 4217 alphabetic currency code: three upper-case letters (`EUR`, `USD`). */
export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of three upper-case letters, e.g. EUR')
  .describe('ISO 4217 currency code, three upper-case letters (EUR, USD, CHF)');

/** An instant as ISO 8601 date-time with `Z` or an offset (`2024-03-01T14:30:00Z`). */
export const IsoDateTime = z.iso
  .datetime({ offset: true })
  .describe('ISO 8601 date-time with Z or a UTC offset, e.g. 2024-03-01T14:30:00Z');
