/** The eight block characters of a sparkline, lowest first. */
export const SPARK_BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/**
 * A series as a one-line sparkline for the terminal: one block character per value, in order,
 * its height the value's place between the series' minimum (`▁`) and maximum (`█`), linear. A flat
 * series (every value equal) is a row of `▄`; an empty series is the empty string. Values that are
 * not finite are drawn as {@link MISSING_MARK}. With the fiscal `years` of the values, the line
 * has {@link SPARK_SLOTS} characters, one per year up to the last one, and a year without a value
 * (missing in the filings, or before the series starts) is {@link MISSING_MARK}: a gap is seen,
 * never closed up.
 *
 * @example sparkline([1, 2, 3, 4, 5, 6, 7, 8]) // '▁▂▃▄▅▆▇█'
 * @example sparkline([1, 3], [2023, 2025]) // '·······▁·█'
 */
export function sparkline(values: readonly number[], years?: readonly number[]): string {
  if (years !== undefined && years.length === values.length && years.length > 0) {
    return sparkline(...yearSlots(values, years));
  }
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return values.map(() => ' ').join('');
  const min = Math.min(...finite);
  const span = Math.max(...finite) - min;
  const top = SPARK_BLOCKS.length - 1;
  return values
    .map((value) => {
      if (!Number.isFinite(value)) return MISSING_MARK;
      if (span === 0) return SPARK_BLOCKS[3];
      return SPARK_BLOCKS[Math.round(((value - min) / span) * top)];
    })
    .join('');
}

/** The slots of a sparkline drawn by fiscal year: the ten-year trend the card shows. */
const SPARK_SLOTS = 10;

/** The character of a year without a value (middle dot: visible, yet not a bar). */
const MISSING_MARK = '·';

/** The values placed in the last {@link SPARK_SLOTS} fiscal years; a year without one is NaN. */
function yearSlots(values: readonly number[], years: readonly number[]): [number[]] {
  const last = Math.max(...years);
  const slots = Array.from({ length: SPARK_SLOTS }, () => Number.NaN);
  years.forEach((year, i) => {
    const at = year - (last - SPARK_SLOTS + 1);
    if (at >= 0 && at < SPARK_SLOTS) slots[at] = values[i] as number;
  });
  return [slots];
}
