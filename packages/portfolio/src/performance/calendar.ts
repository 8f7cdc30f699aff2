/**
 * Calendar days as integers (days since 1970-01-01, UTC), so that a timeline of ten years is a
 * plain array index. Civil-date conversion after Howard Hinnant's `days_from_civil` /
 * `civil_from_days` (proleptic Gregorian calendar), which needs no `Date` object per call.
 */

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` → days since 1970-01-01; `undefined` when it is not a real calendar day. */
export function toEpochDay(day: string): number | undefined {
  if (day.length !== 10 || !DAY_PATTERN.test(day)) return undefined;
  const y = digits(day, 0, 4);
  const m = digits(day, 5, 7);
  const d = digits(day, 8, 10);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return undefined;
  return fromCivil(y, m, d);
}

/** Days since 1970-01-01 → `YYYY-MM-DD`. */
export function fromEpochDay(epochDay: number): string {
  const { y, m, d } = toCivil(epochDay);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `true` for Saturday and Sunday (1970-01-01 was a Thursday). */
export function isWeekend(epochDay: number): boolean {
  const weekday = (((epochDay + 4) % 7) + 7) % 7; // 0 = Sunday
  return weekday === 0 || weekday === 6;
}

/**
 * The day `months` calendar months before `epochDay`, clamped to the end of a shorter month
 * (one month before 2024-03-31 is 2024-02-29).
 */
export function monthsBefore(epochDay: number, months: number): number {
  const { y, m, d } = toCivil(epochDay);
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return fromCivil(year, month, Math.min(d, daysInMonth(year, month)));
}

/** December 31 of the year before the year of `epochDay`. */
export function endOfPreviousYear(epochDay: number): number {
  return fromCivil(toCivil(epochDay).y - 1, 12, 31);
}

function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function fromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function toCivil(epochDay: number): { y: number; m: number; d: number } {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}
