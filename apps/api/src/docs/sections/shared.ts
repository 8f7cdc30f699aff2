import {
  PROBLEM_CODES as ALL_CODES,
  PROBLEMS,
  type ProblemCode,
  QUOTA_NAMES,
  type QuotaName,
  VERDICT_BANDS,
} from '@svc/schemas';
import { CRITERIA } from '@svc/use-cases';
import type { DocsContent } from '../schema.js';

/** Public addresses the docs are written against. */
export interface DocsAddresses {
  /** `{base_url}` without trailing slash. */
  readonly baseUrl: string;
  /** `{account_url}` without trailing slash. */
  readonly accountUrl: string;
}

/** Title, one-line description and content of a section. */
export interface SectionText {
  readonly title: string;
  readonly description: string;
  readonly content: DocsContent;
}

/** The problem codes of CONTRACT §1, as documented: derived from `PROBLEMS` of `@svc/schemas`. */
export const PROBLEM_CODES: NonNullable<DocsContent['errors']> = ALL_CODES.map((code) => ({
  code,
  status: PROBLEMS[code].status,
  meaning: PROBLEMS[code].description,
}));

/**
 * A problem named in prose, its status from `PROBLEMS` of `@svc/schemas`: `problem('not_found')` is
 * `404 not_found`. The docs name statuses only through it, so no status is retyped.
 */
export const problem = (code: ProblemCode): string => `${PROBLEMS[code].status} ${code}`;

/** What consumes each quota of `QUOTA_NAMES` (CONTRACT §3): a new quota fails to compile here. */
const CONSUMED_BY: Readonly<Record<QuotaName, string>> = {
  stock_evaluation:
    'GET /api/stock-evaluation with fresh=1 or a cache miss; MCP getMoatEvaluation with fresh',
  ai_consult:
    'POST /api/stock-evaluation/ai, POST /api/advisor/chat, POST /api/portfolio/ai-chat, MCP generateMoatNarrative',
};

/** The quotas and what consumes them (CONTRACT §3), in `QUOTA_NAMES` order. */
export const QUOTAS: NonNullable<DocsContent['quotas']> = QUOTA_NAMES.map((name) => ({
  name,
  consumedBy: CONSUMED_BY[name],
}));

/** How many criteria the scoring model has (the criterion list of `@svc/moat-scoring`). */
export const CRITERIA_COUNT = CRITERIA.length;

/** The criteria's names in display order, lower case ("earnings consistency, gross margin, …"). */
export const CRITERIA_NAMES = CRITERIA.map((criterion) => criterion.name.toLowerCase()).join(', ');

/** The verdict bands in words ("at least 70% Strong Durable Competitive Advantage, …, else …"). */
export const VERDICTS_TEXT = VERDICT_BANDS.map((band) =>
  band.minPercent > 0 ? `at least ${band.minPercent}% ${band.label}` : `else ${band.label}`,
).join(', ');
