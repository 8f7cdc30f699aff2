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

/**
 * An RFC 3339 date-time (seconds required, fraction optional, `Z` or an offset up to ±23:59)
 * dated in the years 1900 to 2999, calendar-checked (29 February only in leap years: divisible
 * by 4, centuries only by 400), whose UTC instant stays in those years too: on 1900-01-01 no
 * positive offset, on 2999-12-31 no negative one (`2999-12-31T23:59:59-23:59` would be stored as
 * 3000-01-01 and refused by every later edit and by the export's import). One pattern, so that
 * the document states the rule whole and the server checks exactly it.
 */
const MONTH_DAY = {
  any: '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))',
  notJan1:
    '(?:01-(?:0[2-9]|[12]\\d|3[01])|(?:0[3578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))',
  notDec31:
    '(?:(?:0[13578]|10)-(?:0[1-9]|[12]\\d|3[01])|12-(?:0[1-9]|[12]\\d|30)|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))',
};
const TIME = 'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const HH_MM = '(?:[01]\\d|2[0-3]):[0-5]\\d';
const EXECUTED_AT_PATTERN = new RegExp(
  '^(?:(?:' +
    // 29 February of a leap year in 1900–2999 (1900 is not one; 2000, 2400, 2800 are)
    '(?:(?:19|2\\d)(?:0[48]|[2468][048]|[13579][26])|2[048]00)-02-29' +
    // 1901–2998, any day; 1900 but 1 January; 2999 but 31 December: any offset
    `|(?:19(?:0[1-9]|[1-9]\\d)|2(?:[0-8]\\d\\d|9(?:[0-8]\\d|9[0-8])))-${MONTH_DAY.any}` +
    `|1900-${MONTH_DAY.notJan1}|2999-${MONTH_DAY.notDec31}` +
    `)${TIME}(?:Z|[+-]${HH_MM})` +
    // the first and the last day: only offsets that keep the UTC instant in 1900–2999
    `|1900-01-01${TIME}(?:Z|-${HH_MM}|\\+00:00)` +
    `|2999-12-31${TIME}(?:Z|\\+${HH_MM}|-00:00))$`,
);

/**
 * When a transaction was executed, as an input: an ISO 8601 / RFC 3339 date-time with `Z` or any
 * offset RFC 3339 allows (`-23:59` to `+23:59`), dated in the years 1900 to 2999 (a year 0000
 * trade is a typing error, refused with 400), its UTC instant too. The store keeps the UTC instant
 * (`2024-03-01T14:30:00+23:59` is kept as `2024-02-29T14:31:00.000Z`), so every offset the
 * document allows is taken although PostgreSQL's own parser stops at ±15:59. Records read back
 * are {@link IsoDateTime}s.
 *
 * @example
 * ```ts
 * ExecutedAt.safeParse('2024-03-01T14:30:00+23:59').success; // true
 * ExecutedAt.safeParse('0000-01-01T00:00:00Z').success; // false
 * ```
 */
export const ExecutedAt = z
  .string()
  .regex(
    EXECUTED_AT_PATTERN,
    'must be an ISO 8601 date-time with Z or an offset, in the years 1900 to 2999 (its UTC instant too)',
  )
  .meta({ format: 'date-time' })
  .describe(
    'ISO 8601 date-time with Z or a UTC offset (up to ±23:59), in the years 1900 to 2999, the ' +
      'UTC instant too (no positive offset on 1900-01-01, no negative one on 2999-12-31), e.g. ' +
      '2024-03-01T14:30:00Z; stored as the UTC instant',
  );
