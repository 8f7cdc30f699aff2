import type { Parsed } from './values.js';

/**
 * Builds an ISO 8601 UTC instant from calendar parts, rejecting impossible dates (31 February)
 * and years outside 1900–2199 (a two-digit year such as `21` is therefore rejected).
 */
function instantFromParts(
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

/** Field order of a date written with separators. */
export type DateOrder = 'dmy' | 'mdy' | 'ymd';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  fev: 2,
  mar: 3,
  mrt: 3,
  maa: 3,
  apr: 4,
  avr: 4,
  may: 5,
  mai: 5,
  mei: 5,
  jun: 6,
  jui: 6,
  jul: 7,
  aug: 8,
  aou: 8,
  sep: 9,
  oct: 10,
  okt: 10,
  nov: 11,
  dec: 12,
  dez: 12,
};

/**
 * Reads a broker's date or date-time written in `order` (`dd-MM-yyyy`, `MM/dd/yyyy`,
 * `yyyy-MM-dd`; separators `-`, `/` or `.`; a month may be an English, Dutch, German or French
 * abbreviation such as `Apr`, `mrt`, `Dez`), optionally followed by a time `HH:mm[:ss[.fff]]` after
 * a space, `T` or `;`. A time without zone is the broker's wall-clock time and is stored as that
 * wall-clock time in UTC (exports do not state their zone). Days written with a leading zero too
 * many (`010.09.2024`, seen in XTB exports) are read by value. Two-digit years are rejected.
 */
export function readDateTime(raw: string, order: DateOrder): Parsed<string> {
  const value = raw.trim();
  const match =
    /^(\d{1,4}|[A-Za-z]{3,4})[-/.](\d{1,3}|[A-Za-zéû]{3,9})[-/.](\d{1,4})(?:[ T;]+(\d{1,2}):?(\d{2})(?::?(\d{2})(?:[.,](\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      value,
    );
  if (!match) return invalidDate(raw);
  const [, a = '', b = '', c = '', hh, mm, ss, fraction, zone] = match;
  const [dayText, monthText, yearText] =
    order === 'dmy' ? [a, b, c] : order === 'mdy' ? [b, a, c] : [c, b, a];
  if (yearText.length !== 4) return invalidDate(raw);
  const month = /^\d+$/.test(monthText)
    ? Number(monthText)
    : MONTHS[
        monthText
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[^a-z]/g, '')
          .slice(0, 3)
      ];
  if (month === undefined) return invalidDate(raw);
  const parts = {
    year: Number(yearText),
    month,
    day: Number(dayText),
    hour: hh === undefined ? 0 : Number(hh),
    minute: mm === undefined ? 0 : Number(mm),
    second: ss === undefined ? 0 : Number(ss),
  };
  const base = instantFromParts(parts, raw);
  if (!base.ok) return base;
  let time = Date.parse(base.value);
  if (fraction !== undefined) time += Math.round(Number(`0.${fraction}`) * 1000);
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return { ok: true, value: new Date(time).toISOString() };
}
