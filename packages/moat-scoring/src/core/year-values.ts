import type { MetricKey } from '@svc/schemas';

/**
 * One fiscal year flattened for scoring: the finite value of each metric or `null` (provenance is
 * dropped; every record has the same shape, which keeps property reads fast).
 */
export type YearValues = {
  readonly fiscalYear: number;
  readonly periodStart: string | null;
  readonly periodEnd: string;
} & { readonly [K in MetricKey]: number | null };
