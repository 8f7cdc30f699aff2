import { describe, expect, it } from 'vitest';
import { readCalendarDate } from './dates.js';
import { readNumber } from './values.js';

describe('readNumber', () => {
  it.each([
    ['12.5', {}, '12.5'],
    ['-$30.93', {}, '-30.93'],
    ['€88.94', {}, '88.94'],
    ['"1,234.56"'.slice(1, -1), {}, '1234.56'],
    ['1.234,56', {}, '1234.56'],
    ['1,234,567', {}, '1234567'],
    ['0,76672417', {}, '0.76672417'],
    ['1,234', {}, '1234'],
    ['1,234', { decimal: ',' as const }, '1.234'],
    ['1.234', { decimal: ',' as const }, '1234'],
    ['298.580', {}, '298.58'],
  ])('reads %s', (raw, style, expected) => {
    expect(readNumber(raw, 'x', style)).toEqual({ ok: true, value: expected });
  });

  it.each(['', 'abc', '1e5', '1.2.3,4,5'])('rejects %j', (raw) => {
    expect(readNumber(raw, 'x').ok).toBe(false);
  });
});

describe('readCalendarDate', () => {
  it.each([
    ['16-09-2021', '2021-09-16T00:00:00.000Z'],
    ['17/11/2021', '2021-11-17T00:00:00.000Z'],
    ['01.01.2022', '2022-01-01T00:00:00.000Z'],
    ['20500606', '2050-06-06T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2024-02-29T10:00:00+01:00', '2024-02-29T09:00:00.000Z'],
  ])('reads %s', (raw, expected) => {
    expect(readCalendarDate(raw)).toEqual({ ok: true, value: expected });
  });

  it.each(['16/09/21', '31-02-2021', '2023-02-29', '13/13/2021', 'tomorrow', '2024-02-29T10:00'])(
    'rejects %s',
    (raw) => {
      expect(readCalendarDate(raw).ok).toBe(false);
    },
  );
});
