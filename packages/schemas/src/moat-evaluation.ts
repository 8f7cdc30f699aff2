import { z } from 'zod';
import { AsOfDate } from './as-of.js';
import { DataQualityFlags } from './data-quality.js';

/** The criterion keys of the scoring model (interface spec 2.3: eight), in display order. */
export const CRITERION_KEYS = [
  'earnings_consistency',
  'gross_margin',
  'net_margin',
  'retained_earnings',
  'return_on_invested_capital',
  'debt_sustainability',
  'capex_efficiency',
  'product_durability',
] as const;
export const CriterionKey = z.enum(CRITERION_KEYS).meta({ id: 'CriterionKey' });
export type CriterionKey = z.infer<typeof CriterionKey>;

/** Criterion result status (interface spec 2.2). */
export const CriterionStatus = z.enum(['pass', 'warning', 'fail']).meta({ id: 'CriterionStatus' });
export type CriterionStatus = z.infer<typeof CriterionStatus>;

/**
 * Verdict labels by minimum percentage of the maximum score (interface spec 2.4), highest first.
 * The label of the highest minimum that `totalScore / maxScore × 100` reaches applies.
 */
export const VERDICT_BANDS = [
  { minPercent: 70, label: 'Strong Durable Competitive Advantage' },
  { minPercent: 50, label: 'Moderate Competitive Advantage' },
  { minPercent: 35, label: 'Narrow Moat — Proceed with Caution' },
  { minPercent: 0, label: 'No Clear Moat Detected' },
] as const;
export const VERDICT_LABELS = [
  'Strong Durable Competitive Advantage',
  'Moderate Competitive Advantage',
  'Narrow Moat — Proceed with Caution',
  'No Clear Moat Detected',
] as const;
export const Verdict = z.enum(VERDICT_LABELS).meta({ id: 'Verdict' });
export type Verdict = z.infer<typeof Verdict>;

/** The most points an evaluation totals (interface spec 2.3): the criteria share it equally. */
export const MAX_TOTAL_SCORE = 100;

/** Points per criterion: {@link MAX_TOTAL_SCORE} shared by the {@link CRITERION_KEYS} (12.5). */
export const CRITERION_MAX_SCORE = MAX_TOTAL_SCORE / CRITERION_KEYS.length;

/** One criterion of an evaluation (interface spec 2.2, also named CriterionResult). */
export const Criterion = z
  .looseObject({
    key: CriterionKey,
    name: z.string(),
    status: CriterionStatus,
    value: z.string().describe('Display value, e.g. "Median ROIC 31.2% (10/10 yrs ≥ 15%)"'),
    numericValue: z.number().finite().nullable().optional().describe('Headline metric, unrounded'),
    benchmark: z.string().optional().describe('Pass rule and its source'),
    score: z.number().finite().min(0).max(CRITERION_MAX_SCORE).describe('0 to maxScore'),
    maxScore: z
      .number()
      .finite()
      .min(0)
      .max(CRITERION_MAX_SCORE)
      .describe(`${CRITERION_MAX_SCORE}, or 0 when the criterion does not apply`),
    trend: z.array(z.number().finite()).optional().describe('Yearly series behind the criterion'),
    _trendYears: z
      .array(z.number().int())
      .optional()
      .describe('Fiscal year of each trend point (extension)'),
    dataQuality: DataQualityFlags.optional().describe(
      'Data-quality flags of the series this criterion rests on (CONTRACT §9); a flagged series earns no points from its gap. Always present (possibly empty) from methodology version 2',
    ),
  })
  .meta({ id: 'Criterion' });
export type Criterion = z.infer<typeof Criterion>;

/** Valuation signals (interface spec 2.5). Null when not meaningful, never a misleading number. */
export const Valuation = z
  .looseObject({
    peRatio: z.number().finite().nullable().describe('Price / trailing diluted EPS'),
    forwardPE: z.number().finite().nullable().describe('Price / next-year estimated EPS'),
    pegRatio: z.number().finite().nullable().describe('P/E / EPS growth in percent'),
    augmentedPayoutRatio: z
      .number()
      .finite()
      .nullable()
      .describe('(Dividends + buybacks) / net income, percent'),
    sellTrigger: z.boolean().describe('true when P/E ≥ 40'),
  })
  .meta({ id: 'Valuation' });
export type Valuation = z.infer<typeof Valuation>;

/** A moat evaluation (interface spec 2.1). Extension fields start with an underscore. */
export const MoatEvaluation = z
  .looseObject({
    symbol: z.string().min(1),
    companyName: z.string(),
    sector: z.string().optional(),
    industry: z.string().optional(),
    totalScore: z.number().finite().min(0).max(MAX_TOTAL_SCORE),
    maxScore: z.number().finite().min(0).max(MAX_TOTAL_SCORE),
    verdict: Verdict,
    criteriaCount: z.number().int().min(0).max(8).optional(),
    passedCount: z.number().int().min(0).max(8).optional(),
    criteria: z.array(Criterion),
    valuation: Valuation.optional(),
    asOf: AsOfDate.nullable()
      .optional()
      .describe(
        'Point in time of the evaluation (YYYY-MM-DD): scored on the figures filed by then; null for the latest figures',
      ),
    methodologyVersion: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Version of the scoring methodology that produced it (@svc/moat-scoring METHODOLOGY_VERSION); absent on evaluations made before versions were recorded',
      ),
    dataQuality: DataQualityFlags.optional().describe(
      'Data-quality flags of the evaluation: those of its criteria and those about the company as a whole (CONTRACT §9). Always present (possibly empty) from methodology version 2',
    ),
    _cached: z.boolean().optional(),
    _cachedAt: z.string().optional(),
    _evaluatedAt: z.string().optional(),
  })
  .meta({ id: 'MoatEvaluation' });
export type MoatEvaluation = z.infer<typeof MoatEvaluation>;
