import type { Parsed } from './values.js';

/**
 * Builds an ISO 8601 UTC instant from calendar parts, rejecting impossible dates (31 February)
 * and years outside 1900–2199 (a two-digit year such as `21` is therefore rejected).
 */
export function instantFromParts(
  parts: {
    year: number;
    month: number;
    day: number;
    hour?: number;
    minute?: number;
    second?: number;
  },
  raw: string,
): Parsed<string> {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = parts;
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(time);
  const valid =
    year >= 1900 &&
    year <= 2199 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return valid ? { ok: true, value: date.toISOString() } : invalidDate(raw);
}

/**
 * Reads a day-first date (`dd-MM-yyyy`, `dd/MM/yyyy`, `dd.MM.yyyy`), a compact `yyyyMMdd`, or an
 * ISO date `yyyy-MM-dd`, as midnight UTC. These are the date forms Ghostfolio's CSV import accepts;
 * a two-digit year (`16/09/21`) is rejected rather than guessed.
 */
export function readCalendarDate(raw: string): Parsed<string> {
  const value = raw.trim();
  const dayFirst = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(value);
  if (dayFirst) {
    const [, d, m, y] = dayFirst;
    return instantFromParts({ year: Number(y), month: Number(m), day: Number(d) }, raw);
  }
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (compact) {
    const [, y, m, d] = compact;
    return instantFromParts({ year: Number(y), month: Number(m), day: Number(d) }, raw);
  }
  return readIsoInstant(raw);
}

/** Reads an ISO 8601 date-time with `Z` or an offset (any fraction digits) as a UTC instant. */
export function readIsoInstant(raw: string): Parsed<string> {
  const value = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    return invalidDate(raw);
  }
  const time = Date.parse(value);
  return Number.isNaN(time) ? invalidDate(raw) : { ok: true, value: new Date(time).toISOString() };
}

function invalidDate(raw: string): Parsed<string> {
  return { ok: false, message: `date "${raw}" is not a supported date` };
}
