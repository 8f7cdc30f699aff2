/** One anchor of a piecewise-linear scale: metric value `x` maps to quality `q` (0–1). */
export type Anchor = readonly [x: number, q: number];

/**
 * Piecewise-linear interpolation between anchors, clamped at both ends (methodology §3,
 * `interp(x; a→qa, b→qb, …)`). Anchors must be monotonic in `x`, either increasing or
 * decreasing (debt years, where less is better, use decreasing anchors).
 *
 * @param x - the metric value, in the unit of the anchors (percent, years, ratio).
 * @returns the quality in [0, 1]; 0 when `x` is not finite.
 */
export function interpolate(x: number, anchors: readonly Anchor[]): number {
  if (!Number.isFinite(x) || anchors.length === 0) return 0;
  const first = anchors[0] as Anchor;
  const last = anchors[anchors.length - 1] as Anchor;
  const increasing = last[0] >= first[0];
  const beforeStart = increasing ? x <= first[0] : x >= first[0];
  if (beforeStart) return first[1];
  const afterEnd = increasing ? x >= last[0] : x <= last[0];
  if (afterEnd) return last[1];
  for (let i = 1; i < anchors.length; i += 1) {
    const [x1, q1] = anchors[i] as Anchor;
    const reached = increasing ? x <= x1 : x >= x1;
    if (reached) {
      const [x0, q0] = anchors[i - 1] as Anchor;
      return q0 + ((x - x0) / (x1 - x0)) * (q1 - q0);
    }
  }
  return last[1];
}
