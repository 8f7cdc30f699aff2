import { describe, expect, it } from 'vitest';
import { periodEnd, periodStart, secondsUntil } from './period.js';

describe('periods (UTC calendar)', () => {
  it.each([
    ['2026-03-15T12:34:56Z', 'month', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', 'month', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2026-02-01T00:00:00Z', 'month', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2028-02-29T08:00:00Z', 'day', '2028-02-29T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    ['2026-03-15T23:30:00-02:00', 'day', '2026-03-16T00:00:00.000Z', '2026-03-17T00:00:00.000Z'],
  ] as const)('%s by %s runs from %s to %s', (at, period, start, end) => {
    expect(periodStart(new Date(at), period).toISOString()).toBe(start);
    expect(periodEnd(new Date(at), period).toISOString()).toBe(end);
  });

  it('rounds Retry-After seconds up, to at least 1', () => {
    const now = new Date('2026-03-31T23:59:58.200Z');
    expect(secondsUntil(now, new Date('2026-04-01T00:00:00Z'))).toBe(2);
    expect(secondsUntil(now, now)).toBe(1);
  });
});
