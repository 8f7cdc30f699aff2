import { describe, expect, it } from 'vitest';
import { codeForStatus, PROBLEM_CODES, PROBLEMS, ProblemDetails, problemBody } from './problems.js';

describe('the problem table', () => {
  it('gives every code a 4xx/5xx status, a title and a description', () => {
    for (const code of PROBLEM_CODES) {
      const { status, title, description } = PROBLEMS[code];
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(title.length).toBeGreaterThan(0);
      expect(description.length).toBeGreaterThan(0);
    }
  });

  it('builds bodies that match ProblemDetails, with the status and title of the table', () => {
    for (const code of PROBLEM_CODES) {
      const body = problemBody(code, 'detail', { instance: '/x' });
      expect(ProblemDetails.parse(body)).toEqual(body);
      expect(body.status).toBe(PROBLEMS[code].status);
      expect(body.title).toBe(PROBLEMS[code].title);
      expect(body.type).toBe(`/api/docs/overview#problem-${code.replaceAll('_', '-')}`);
    }
  });

  it.each([
    [400, 'validation_failed'],
    [401, 'unauthorized'],
    [404, 'not_found'],
    [405, 'method_not_allowed'],
    [408, 'validation_failed'],
    [429, 'rate_limited'],
    [502, 'upstream_unavailable'],
    [503, 'upstream_unavailable'],
    [500, 'internal'],
  ] as const)('names a bare status %i %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});
