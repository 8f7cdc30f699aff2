/** The eight block characters of a sparkline, lowest first. */
export const SPARK_BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/**
 * A series as a one-line sparkline for the terminal: one block character per value, in order,
 * its height the value's place between the series' minimum (`▁`) and maximum (`█`), linear. A flat
 * series (every value equal) is a row of `▄`; an empty series is the empty string. Values that are
 * not finite are drawn as a space.
 *
 * @example sparkline([1, 2, 3, 4, 5, 6, 7, 8]) // '▁▂▃▄▅▆▇█'
 */
export function sparkline(values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return values.map(() => ' ').join('');
  const min = Math.min(...finite);
  const span = Math.max(...finite) - min;
  const top = SPARK_BLOCKS.length - 1;
  return values
    .map((value) => {
      if (!Number.isFinite(value)) return ' ';
      if (span === 0) return SPARK_BLOCKS[3];
      return SPARK_BLOCKS[Math.round(((value - min) / span) * top)];
    })
    .join('');
}
