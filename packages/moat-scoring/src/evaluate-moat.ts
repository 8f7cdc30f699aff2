import {
  CRITERION_KEYS,
  type Criterion,
  type CriterionKey,
  type DataQualityFlag,
  DataQualityFlags,
  Fundamentals,
  type MoatEvaluation,
  Valuation,
} from '@svc/schemas';
import { type Assessment, PASS_QUALITY } from './core/assessment.js';
import { flagsFor } from './core/data-quality.js';
import { mismatchFlags, reconcileProviders, withSecondaryFigures } from './core/reconcile.js';
import { buildScoringContext, type ScoringContext } from './core/scoring-context.js';
import { assessCapexEfficiency } from './criteria/capex-efficiency.js';
import { assessDebtSustainability } from './criteria/debt-sustainability.js';
import { assessEarningsConsistency } from './criteria/earnings-consistency.js';
import { assessGrossMargin } from './criteria/gross-margin.js';
import { assessNetMargin } from './criteria/net-margin.js';
import { assessProductDurability } from './criteria/product-durability.js';
import { assessRetainedEarnings } from './criteria/retained-earnings.js';
import { assessReturnOnInvestedCapital } from './criteria/return-on-invested-capital.js';
import { type CriterionResult, roundScore, toCriterion } from './criterion-result.js';
import { MoatScoringError } from './errors.js';
import { METHODOLOGY_VERSION } from './methodology.js';
import { verdictFor } from './verdict.js';

/** Default evaluation window: the last 10 fiscal years (Buffett & Clark's 10-year view). */
export const DEFAULT_WINDOW_YEARS = 10;

/** Options of {@link evaluateMoat}. */
export interface EvaluateMoatOptions {
  /** ISO 8601 instant copied to `_evaluatedAt`; the package never reads the clock. */
  readonly evaluatedAt?: string;
  /** Valuation signals computed elsewhere (`@svc/valuation`), attached as-is to `valuation`. */
  readonly valuation?: Valuation;
  /** Number of most recent fiscal years to score, an integer from 3 to 50; default 10. */
  readonly windowYears?: number;
  /**
   * Data-quality flags about the company as a whole, found outside the scoring (a reconciliation
   * of two providers), added to the evaluation's `dataQuality` before the criteria's own flags.
   */
  readonly dataQuality?: readonly DataQualityFlag[];
  /**
   * The same company's fundamentals from a second provider (issue 39: per-criterion provider
   * reconciliation). Where the two disagree on a series a criterion rests on (capex, total debt,
   * net income, equity; `reconcileProviders`), the criterion carries a `provider_mismatch` flag and
   * earns no points from the disputed gap: it is scored on the provider whose figures give the
   * lower quality. Without it nothing is compared.
   */
  readonly reconcileWith?: Fundamentals;
}

/** The result of {@link evaluateMoat}: a `MoatEvaluation` (interface spec 2.1) with extensions. */
export type MoatEvaluationResult = {
  [K in keyof MoatEvaluation as K extends 'criteria' ? never : K]: MoatEvaluation[K];
} & {
  /** The criteria, each with the data-quality flags of the series it rests on. */
  criteria: CriterionResult[];
  /** Fiscal years of the records inside the evaluation window, oldest first (extension). */
  _fiscalYears: number[];
  /** `fundamentals.asOf`: the point in time scored, or null for the latest figures. */
  asOf: string | null;
  /** {@link METHODOLOGY_VERSION} of the scoring that produced it. */
  methodologyVersion: string;
  /**
   * Data-quality findings (issue 39), `[]` when none: `options.dataQuality`, the findings about
   * the fundamentals in the window, then every criterion's flags, each flag once. A criterion
   * resting on a flagged series carries the flag too and earns no points from the gap.
   */
  dataQuality: DataQualityFlag[];
};

/** The evaluation's flags: those given, then each criterion's, without repeats. */
function evaluationFlags(
  given: readonly DataQualityFlag[],
  criteria: readonly Criterion[],
): DataQualityFlag[] {
  const seen = new Set<string>();
  const out: DataQualityFlag[] = [];
  for (const flag of [...given, ...criteria.flatMap((c) => c.dataQuality ?? [])]) {
    const key = `${flag.code}\u0000${flag.series}\u0000${flag.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: flag.code, series: flag.series, message: flag.message });
  }
  return out;
}

function assessAll(context: ScoringContext): Record<CriterionKey, Assessment> {
  const roic = assessReturnOnInvestedCapital(context);
  const roicPasses = roic.kind === 'scored' && roic.quality >= PASS_QUALITY;
  return {
    earnings_consistency: assessEarningsConsistency(context),
    gross_margin: assessGrossMargin(context, { roicPasses }),
    net_margin: assessNetMargin(context),
    retained_earnings: assessRetainedEarnings(context),
    return_on_invested_capital: roic,
    debt_sustainability: assessDebtSustainability(context),
    capex_efficiency: assessCapexEfficiency(context, { roicPasses }),
    product_durability: assessProductDurability(context),
  };
}

/**
 * Reconciles the window's fiscal years with a second provider (see
 * `EvaluateMoatOptions.reconcileWith`): returns the `provider_mismatch` flags and, for each
 * criterion resting on a disputed series, rescores it with the second provider's figures put in
 * for the disputed years only (`withSecondaryFigures`); when that scores lower, the lower
 * assessment replaces the criterion's (it earns no points from the gap), with both figures said.
 */
function reconcile(
  primary: Fundamentals,
  secondary: Fundamentals | undefined,
  context: ScoringContext,
  windowYears: number,
  assessments: Record<CriterionKey, Assessment>,
): DataQualityFlag[] {
  if (secondary === undefined) return [];
  const fiscalYears = context.years.map((y) => y.fiscalYear);
  const disagreements = reconcileProviders(primary, secondary, { fiscalYears });
  const flags = mismatchFlags(disagreements, primary, secondary);
  if (flags.length === 0) return [];
  const other = assessAll(
    buildScoringContext(withSecondaryFigures(primary, secondary, disagreements), windowYears),
  );
  const years = [...new Set(disagreements.map((d) => d.fiscalYear))]
    .sort((a, b) => a - b)
    .map((y) => `FY${y}`)
    .join(', ');
  for (const key of CRITERION_KEYS) {
    if (flagsFor(key, flags).length === 0) continue;
    const mine = assessments[key];
    const theirs = other[key];
    if (mine.kind !== 'scored' || theirs.kind !== 'scored' || theirs.quality >= mine.quality) {
      continue;
    }
    assessments[key] = {
      ...theirs,
      value: `${theirs.value} — with ${secondary.provider}'s figures for the disputed ${years}, the lower of two disagreeing providers (${primary.provider}'s alone: ${mine.value})`,
    };
  }
  return flags;
}

function checkWindow(windowYears: number): void {
  if (!Number.isInteger(windowYears) || windowYears < 3 || windowYears > 50) {
    throw new MoatScoringError(
      'invalid_argument',
      `windowYears must be an integer from 3 to 50 (got ${windowYears})`,
      { path: 'options.windowYears' },
    );
  }
}

/**
 * Checks an argument against its zod schema at the public boundary, so that malformed input
 * (JavaScript callers, JSON read from disk) fails with one clear error instead of a `TypeError`
 * deep inside a criterion.
 * @throws {@link MoatScoringError} `invalid_argument` naming the first problem's path.
 */
function checkArgument(
  schema: typeof Fundamentals | typeof Valuation | typeof DataQualityFlags,
  value: unknown,
  name: string,
): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  const first = result.error.issues[0];
  const path = [name, ...(first?.path ?? []).map(String)].join('.');
  throw new MoatScoringError('invalid_argument', `${path}: ${first?.message ?? 'invalid'}`, {
    cause: result.error,
    path,
  });
}

function totals(criteria: readonly Criterion[]) {
  let total = 0;
  let max = 0;
  let applicable = 0;
  let passed = 0;
  for (const c of criteria) {
    total += c.score;
    max += c.maxScore;
    if (c.maxScore > 0) applicable += 1;
    if (c.status === 'pass') passed += 1;
  }
  return { totalScore: roundScore(total), maxScore: roundScore(max), applicable, passed };
}

/**
 * Scores a company against the 8 criteria of a durable competitive advantage (interface spec
 * 2.1–2.4) from its annual fundamentals. Pure and deterministic: no I/O, no clock.
 *
 * Each criterion maps its metrics to a quality in [0, 1] by piecewise-linear anchors (Floor 0,
 * Warning 0.40, Pass 0.75, Excellent 1), `score = 12.5 × quality` rounded to 2 decimals, status
 * pass ≥ 0.75 > warning ≥ 0.40 > fail. A criterion that cannot apply (gross margin of a bank, debt
 * of a company with no borrowing line) stays in `criteria` as a warning "N/A — why" worth 0 of 0
 * points and leaves the maximum; missing data never earns points. `totalScore` is the sum of the
 * rounded criterion scores, `maxScore` the sum of their maxima, and `verdict` follows
 * `totalScore / maxScore` ({@link verdictFor}). See the README for every formula and source.
 *
 * The evaluation says what it was made from: `asOf` (the point in time of `fundamentals.asOf`,
 * null for the latest figures), `methodologyVersion` ({@link METHODOLOGY_VERSION}) and
 * `dataQuality` (flags on the evaluation and on each criterion; empty lists when none).
 *
 * @param fundamentals - annual fundamentals, one record per fiscal year (any order; a duplicated
 *   fiscal year keeps the last record). Amounts in the reporting currency.
 * @param options - see {@link EvaluateMoatOptions}.
 * @returns the evaluation, valid against the `MoatEvaluation` schema of `@svc/schemas`.
 * @throws {@link MoatScoringError} `insufficient_data` with fewer than 3 usable fiscal years
 *   (revenue and net income) in the window; `invalid_argument` (with `path`, e.g.
 *   `fundamentals.years.3.revenue.value`) when `fundamentals` does not match the `Fundamentals`
 *   schema of `@svc/schemas`, `options.valuation` does not match `Valuation`, `options.dataQuality` is not a list of
 *   `DataQualityFlag`, or `windowYears` is
 *   not an integer from 3 to 50.
 * @example
 * ```ts
 * import { evaluateMoat } from '@svc/moat-scoring';
 *
 * const evaluation = evaluateMoat(fundamentals, { evaluatedAt: new Date().toISOString() });
 * console.log(evaluation.totalScore, evaluation.maxScore, evaluation.verdict);
 * for (const c of evaluation.criteria) console.log(c.name, c.status, c.value);
 * ```
 */
export function evaluateMoat(
  fundamentals: Fundamentals,
  options: EvaluateMoatOptions = {},
): MoatEvaluationResult {
  checkArgument(Fundamentals, fundamentals, 'fundamentals');
  if (options.valuation !== undefined) {
    checkArgument(Valuation, options.valuation, 'options.valuation');
  }
  if (options.dataQuality !== undefined) {
    checkArgument(DataQualityFlags, options.dataQuality, 'options.dataQuality');
  }
  if (options.reconcileWith !== undefined) {
    checkArgument(Fundamentals, options.reconcileWith, 'options.reconcileWith');
  }
  const windowYears = options.windowYears ?? DEFAULT_WINDOW_YEARS;
  checkWindow(windowYears);
  const context = buildScoringContext(fundamentals, windowYears);
  const assessments = assessAll(context);
  const disputed = reconcile(
    fundamentals,
    options.reconcileWith,
    context,
    windowYears,
    assessments,
  );
  const flags = [...(context.dataQuality ?? []), ...disputed];
  const criteria = CRITERION_KEYS.map((key) =>
    toCriterion(key, assessments[key], flagsFor(key, flags)),
  );
  const { totalScore, maxScore, applicable, passed } = totals(criteria);
  const { company } = fundamentals;
  return {
    symbol: company.ticker,
    companyName: company.name,
    ...(company.sector === null ? {} : { sector: company.sector }),
    ...(company.industry === null ? {} : { industry: company.industry }),
    totalScore,
    maxScore,
    verdict: verdictFor(totalScore, maxScore),
    criteriaCount: applicable,
    passedCount: passed,
    criteria,
    ...(options.valuation === undefined ? {} : { valuation: options.valuation }),
    asOf: fundamentals.asOf ?? null,
    methodologyVersion: METHODOLOGY_VERSION,
    dataQuality: evaluationFlags([...(options.dataQuality ?? []), ...flags], criteria),
    ...(options.evaluatedAt === undefined ? {} : { _evaluatedAt: options.evaluatedAt }),
    _fiscalYears: context.years.map((y) => y.fiscalYear),
  };
}
