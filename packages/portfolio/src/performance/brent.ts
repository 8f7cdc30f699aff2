/** Result of {@link brentRoot}: a root inside the bracket, or why there is none. */
export type RootResult =
  | { readonly ok: true; readonly root: number; readonly iterations: number }
  | { readonly ok: false; readonly reason: 'not_bracketed' | 'not_converged' | 'not_finite' };

/** Options of {@link brentRoot}. */
export interface BrentOptions {
  /** Absolute tolerance on the root; default 1e-12. */
  readonly tolerance?: number;
  /** Iteration cap; default 200 (Brent converges in well under 100 for smooth functions). */
  readonly maxIterations?: number;
}

/**
 * Brent's method (R. P. Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 4,
 * the `zeroin` procedure): a root of `f` in `[a, b]` where `f(a)` and `f(b)` have opposite signs,
 * by inverse quadratic interpolation, secant steps and bisection, keeping the bracket at every
 * step. It cannot leave the bracket nor diverge, unlike Newton's method (which Excel's and most
 * libraries' XIRR use and which can return a wrong root or none without saying so).
 *
 * No sound, maintained root-finding package exists on npm (the `xirr` package is Newton only);
 * this is the textbook algorithm, as in Numerical Recipes §9.3.
 *
 * @returns `{ ok: false, reason: 'not_bracketed' }` when `f(a)` and `f(b)` do not differ in sign,
 *   `not_finite` when `f` returns NaN or ±∞ on the way, `not_converged` past `maxIterations`.
 * @example
 * ```ts
 * brentRoot((x) => x * x - 2, 0, 2); // { ok: true, root: 1.4142135623…, iterations: 7 }
 * ```
 */
export function brentRoot(
  f: (x: number) => number,
  lower: number,
  upper: number,
  options: BrentOptions = {},
): RootResult {
  const tolerance = options.tolerance ?? 1e-12;
  const maxIterations = options.maxIterations ?? 200;
  let a = lower;
  let b = upper;
  let fa = f(a);
  let fb = f(b);
  if (!Number.isFinite(fa) || !Number.isFinite(fb)) return { ok: false, reason: 'not_finite' };
  if (fa === 0) return { ok: true, root: a, iterations: 0 };
  if (fb === 0) return { ok: true, root: b, iterations: 0 };
  if (Math.sign(fa) === Math.sign(fb)) return { ok: false, reason: 'not_bracketed' };
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let iteration = 1; iteration <= maxIterations; iteration++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const tol = 2 * Number.EPSILON * Math.abs(b) + tolerance / 2;
    const m = (c - b) / 2;
    if (Math.abs(m) <= tol || fb === 0) return { ok: true, root: b, iterations: iteration };
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      // interpolation: secant (two points) or inverse quadratic (three)
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const qa = fa / fc;
        const r = fb / fc;
        p = s * (2 * m * qa * (qa - r) - (b - a) * (r - 1));
        q = (qa - 1) * (r - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = f(b);
    if (!Number.isFinite(fb)) return { ok: false, reason: 'not_finite' };
  }
  return { ok: false, reason: 'not_converged' };
}
