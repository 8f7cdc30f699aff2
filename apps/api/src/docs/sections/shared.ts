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

/** The problem codes of CONTRACT §1, as documented. */
export const PROBLEM_CODES: NonNullable<DocsContent['errors']> = [
  { code: 'unauthorized', status: 401, meaning: 'No valid session (REST) or token (MCP).' },
  { code: 'forbidden', status: 403, meaning: 'Cross-site request, or sign-up disabled.' },
  {
    code: 'insufficient_scope',
    status: 403,
    meaning: 'The access token lacks a scope (RFC 6750); `scope` names it.',
  },
  {
    code: 'not_found',
    status: 404,
    meaning: 'Unknown route, resource, docs section, or not yours.',
  },
  {
    code: 'validation_failed',
    status: 400,
    meaning: 'Input does not match the schema; see `errors`.',
  },
  {
    code: 'insufficient_data',
    status: 404,
    meaning: 'Too few fundamentals to evaluate the company.',
  },
  {
    code: 'quota_exceeded',
    status: 429,
    meaning: 'Plan quota used up; body has `quota`, header `Retry-After`.',
  },
  {
    code: 'rate_limited',
    status: 429,
    meaning: 'Too many requests or failed logins; see `Retry-After`.',
  },
  { code: 'payload_too_large', status: 413, meaning: 'Body above the size limit.' },
  {
    code: 'unsupported_media_type',
    status: 415,
    meaning: 'Content-Type not accepted by the route.',
  },
  {
    code: 'upstream_unavailable',
    status: 503,
    meaning: 'Fundamentals provider or model endpoint failed.',
  },
  { code: 'conflict', status: 409, meaning: 'Already exists, or changed/decided meanwhile.' },
  {
    code: 'internal',
    status: 500,
    meaning: 'Unexpected error; logged server-side, no stack trace.',
  },
];

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
