import { brentRoot } from './brent.js';

/** A dated cash flow from the investor's side: negative paid in, positive received. */
export interface DatedFlow {
  /** Day as days since 1970-01-01 (see `toEpochDay`). */
  readonly day: number;
  readonly amount: number;
}

/** Result of {@link xirr}: the annual rate (fraction), or why there is none. */
export type XirrResult =
  | { readonly ok: true; readonly rate: number }
  | { readonly ok: false; readonly reason: 'no_solution' | 'multiple_solutions' };

/**
 * Grid of annual rates scanned for sign changes of the net present value before Brent refines
 * the root: from −99.9999 % to +10⁶ %, dense near 0 where portfolio returns lie.
 */
const GRID = [
  -0.999999, -0.9999, -0.999, -0.99, -0.95, -0.9, -0.8, -0.6, -0.4, -0.2, -0.1, -0.05, 0, 0.05, 0.1,
  0.2, 0.4, 0.7, 1, 2, 5, 10, 100, 1e4,
];

/**
 * The internal rate of return of irregular dated cash flows, annualised with actual/365 day
 * counting: the `r > −1` solving Σ CFᵢ / (1 + r)^((dᵢ − d₀) / 365) = 0. This is the
 * money-weighted return of the CFA Institute's definition (the IRR of the portfolio's flows,
 * its start value an investment and its end value a receipt) and the formula of Excel's and
 * LibreOffice's `XIRR`.
 *
 * The net present value is evaluated on a grid of rates; each sign change brackets a root that
 * {@link brentRoot} refines to 1e-12. No sign change → `no_solution` (all flows of one sign, or
 * nothing invested); several → `multiple_solutions` (flows changing sign more than once can have
 * several IRRs, and picking one would be a guess). Never a number that is not a root.
 *
 * @example
 * ```ts
 * // Excel's XIRR documentation example: 0.373362535
 * xirr([-10000, 2750, 4250, 3250, 2750].map((amount, i) =>
 *   ({ day: toEpochDay(['2008-01-01', '2008-03-01', '2008-10-30', '2009-02-15', '2009-04-01'][i])!, amount })));
 * ```
 */
export function xirr(flows: readonly DatedFlow[]): XirrResult {
  const present = flows.filter((f) => f.amount !== 0);
  if (present.length < 2) return { ok: false, reason: 'no_solution' };
  const d0 = Math.min(...present.map((f) => f.day));
  const years = present.map((f) => (f.day - d0) / 365);
  const amounts = present.map((f) => f.amount);
  const npv = (rate: number): number => {
    const logGrowth = Math.log1p(rate);
    let sum = 0;
    for (let i = 0; i < amounts.length; i++) {
      sum += (amounts[i] as number) * Math.exp(-(years[i] as number) * logGrowth);
    }
    return sum;
  };
  const brackets: [number, number][] = [];
  let previous = npv(GRID[0] as number);
  if (previous === 0) brackets.push([GRID[0] as number, GRID[0] as number]);
  for (let i = 1; i < GRID.length; i++) {
    const value = npv(GRID[i] as number);
    if (value === 0) brackets.push([GRID[i] as number, GRID[i] as number]);
    else if (previous !== 0 && Math.sign(value) !== Math.sign(previous)) {
      brackets.push([GRID[i - 1] as number, GRID[i] as number]);
    }
    previous = value;
  }
  if (brackets.length === 0) return { ok: false, reason: 'no_solution' };
  if (brackets.length > 1) return { ok: false, reason: 'multiple_solutions' };
  const [lower, upper] = brackets[0] as [number, number];
  const root = brentRoot(npv, lower, upper);
  return root.ok ? { ok: true, rate: root.root } : { ok: false, reason: 'no_solution' };
}
