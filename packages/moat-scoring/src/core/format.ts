/** Display formatting of criterion values. */

/** A fraction as percent text: `0.431` → `"43.1%"`. */
export function percent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** A signed fraction as percent text: `0.098` → `"+9.8%"`. */
export function signedPercent(fraction: number, digits = 1): string {
  const text = percent(fraction, digits);
  return fraction > 0 ? `+${text}` : text;
}

/** A difference of fractions in percentage points: `0.012` → `"+1.2 pp"`. */
export function points(fraction: number, digits = 1): string {
  const value = (fraction * 100).toFixed(digits);
  return `${fraction > 0 ? '+' : ''}${value} pp`;
}

/** An amount in compact form with its currency: `41.2e9, 'USD'` → `"$41.2B"`, EUR → `"EUR 41.2B"`. */
export function amount(value: number, currency: string): string {
  const abs = Math.abs(value);
  const [scaled, suffix] =
    abs >= 1e12
      ? [abs / 1e12, 'T']
      : abs >= 1e9
        ? [abs / 1e9, 'B']
        : abs >= 1e6
          ? [abs / 1e6, 'M']
          : [abs, ''];
  const sign = value < 0 ? '-' : '';
  const prefix = currency === 'USD' ? '$' : `${currency} `;
  return `${sign}${prefix}${scaled.toFixed(suffix === '' ? 0 : 1)}${suffix}`;
}

/** A multiple: `1.34` → `"1.3×"`. */
export function times(value: number, digits = 1): string {
  return `${value.toFixed(digits)}×`;
}
