import { CRITERION_MAX_SCORE, MAX_TOTAL_SCORE, problemBody } from '@svc/schemas';
import {
  CRITERIA_COUNT,
  type DocsAddresses,
  PROBLEM_CODES,
  QUOTAS,
  type SectionText,
} from './shared.js';

/** The `overview` section. */
export function overview({ baseUrl }: DocsAddresses): SectionText {
  return {
    title: 'Overview',
    description: 'What the service does, how to reach it, and how errors look.',
    content: {
      summary:
        `The service tracks portfolios and scores listed companies against ${CRITERIA_COUNT} criteria of a durable ` +
        `competitive advantage ("moat"), ${CRITERION_MAX_SCORE} points each, ${MAX_TOTAL_SCORE} in total, from SEC filings. Output ` +
        'is informational only and is not financial advice. Browsers use the REST API with a ' +
        'session cookie; agents use the MCP server with a personal access token.',
      endpoints: [
        {
          method: 'GET',
          path: '/openapi.json',
          auth: 'none',
          description: 'OpenAPI 3.1.0 description (version 2.5.33)',
        },
        { method: 'GET', path: '/api/docs', auth: 'none', description: 'This documentation index' },
        {
          method: 'GET',
          path: '/.well-known/mcp.json',
          auth: 'none',
          description: 'MCP discovery document',
        },
      ],
      examples: [
        {
          title: 'Fetch the OpenAPI document',
          language: 'bash',
          code: `curl -s ${baseUrl}/openapi.json`,
        },
        {
          title: 'A problem answer (RFC 9457, application/problem+json)',
          language: 'json',
          code: JSON.stringify(
            problemBody('validation_failed', 'The request does not match the schema; see errors.', {
              instance: '/api/auth/register',
              errors: [{ path: 'body.email', message: 'Invalid email address' }],
            }),
            null,
            2,
          ),
        },
      ],
      errors: PROBLEM_CODES,
      quotas: QUOTAS,
      notes: [
        'Paths carry no version segment; the OpenAPI info.version is 2.5.33.',
        'Every 4xx/5xx body is problem+json with a stable `code`; 429 answers carry Retry-After (seconds).',
        'Quota periods are calendar months (UTC); GET /api/auth/session shows your limits and use.',
      ],
    },
  };
}
