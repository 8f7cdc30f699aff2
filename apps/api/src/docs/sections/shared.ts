import { PROBLEM_CODES as ALL_CODES, PROBLEMS } from '@svc/schemas';
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

/** The quotas and what consumes them (CONTRACT §3). */
export const QUOTAS: NonNullable<DocsContent['quotas']> = [
  {
    name: 'stock_evaluation',
    consumedBy:
      'GET /api/stock-evaluation with fresh=1 or a cache miss; MCP getMoatEvaluation with fresh',
  },
  {
    name: 'ai_consult',
    consumedBy:
      'POST /api/stock-evaluation/ai, POST /api/advisor/chat, POST /api/portfolio/ai-chat, MCP generateMoatNarrative',
  },
];
