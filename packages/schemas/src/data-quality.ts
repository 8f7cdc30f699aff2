import { z } from 'zod';

/**
 * A data-quality flag (CONTRACT §9, issue 39): something about the figures behind a criterion, or
 * behind the whole evaluation, that a reader must know before trusting the score — a vendor series
 * that cannot explain itself (capex below what PP&E growth needs), a blank read as zero, two
 * providers that disagree. A flagged series never earns points from its gap (the scorer's rule);
 * the flag says where to look.
 *
 * - `code`: stable snake_case name of the check that raised it (e.g. `ppe_rollforward`);
 * - `series`: the metric it is about, a `METRIC_KEYS` name (`capex`) or a derived series;
 * - `message`: one sentence for people, with the figures.
 */
export const DataQualityFlag = z
  .object({
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .describe('Stable snake_case name of the check, e.g. ppe_rollforward'),
    series: z.string().min(1).describe('The series it concerns, e.g. capex'),
    message: z.string().min(1).describe('What was found, with the figures'),
  })
  .meta({ id: 'DataQualityFlag' });

/** A data-quality flag (see {@link DataQualityFlag}). */
export type DataQualityFlag = z.infer<typeof DataQualityFlag>;

/** The flags of a criterion or an evaluation; an empty list when nothing was flagged. */
export const DataQualityFlags = z
  .array(DataQualityFlag)
  .describe('Data-quality flags; empty when nothing was flagged');
