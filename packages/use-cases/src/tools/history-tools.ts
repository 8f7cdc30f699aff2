import { EvaluationChangesPage, EvaluationChangesQuery } from '../moat/evaluation-changes.js';
import {
  EvaluationDiff,
  EvaluationDiffQuery,
  EvaluationHistoryPage,
  EvaluationHistoryQuery,
} from '../moat/evaluation-history-schemas.js';
import { defineTool } from './definition.js';

/** Read-only, no quota, answers from the database only. */
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/*
 * The evaluation-history tools (issue 21), MCP only, the flows of
 * `GET /api/stock-evaluation/history[/diff]`. Unnamed copies of the schemas: a tool schema must
 * be `type: "object"` at its top, not a bare `$ref`.
 */

/** `getEvaluationHistory {symbol, page?, limit?}`: the kept evaluations, newest first. */
export const getEvaluationHistory = defineTool({
  name: 'getEvaluationHistory',
  title: 'List the kept evaluations of a company',
  description:
    'Every fresh evaluation of a company, newest first and paged: total, verdict, change since ' +
    'the previous one, and the provider, fiscal years and SEC filings (accession numbers, filed ' +
    'dates) it was built from. Shared by all users; no quota.',
  input: EvaluationHistoryQuery.extend({}),
  output: EvaluationHistoryPage.extend({}),
  annotations: READ_ONLY,
  scopes: ['moat:read'],
  surfaces: ['mcp'],
  run: (flows, _actor, query) => flows.history.list(query),
});

/** `compareEvaluations {symbol, from?, to?}`: the diff of two (default the latest two). */
export const compareEvaluations = defineTool({
  name: 'compareEvaluations',
  title: 'Compare two evaluations of a company',
  description:
    'What moved between two kept evaluations (ids from getEvaluationHistory, or none for the ' +
    'latest against the previous): total and verdict change, each criterion’s score, value and ' +
    'status, the yearly figures that changed and the filings behind them, and a summary. No quota.',
  input: EvaluationDiffQuery.extend({}),
  output: EvaluationDiff.extend({}),
  annotations: READ_ONLY,
  scopes: ['moat:read'],
  surfaces: ['mcp'],
  run: (flows, _actor, query) => flows.history.diff(query),
});

/** `getEvaluationChanges {since?, symbol?, cursor?, limit?}`: the change feed (CONTRACT §7). */
export const getEvaluationChanges = defineTool({
  name: 'getEvaluationChanges',
  title: 'List what changed in the evaluations of companies',
  description:
    'The evaluation.changed events made since an instant, oldest first: each names the company, ' +
    'the previous and the new total, verdict and fiscal years, the criteria whose status or ' +
    'score moved, and the new annual filing (accession, form, filed date) that caused it, if ' +
    'one did. An event is made whenever a kept evaluation differs from the one before it in ' +
    'verdict, by at least a point of total, or in a criterion’s status. Page on with ' +
    '`nextCursor`; `since` is required without `cursor`. Shared by all users; no quota.',
  input: EvaluationChangesQuery.extend({}),
  output: EvaluationChangesPage.extend({}),
  annotations: READ_ONLY,
  scopes: ['moat:read'],
  surfaces: ['mcp'],
  run: (flows, _actor, query) => flows.history.changes(query),
});
