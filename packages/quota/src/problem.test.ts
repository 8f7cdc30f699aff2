import { describe, expect, it } from 'vitest';
import { quotaProblem, rateLimitProblem } from './problem.js';

describe('quotaProblem', () => {
  it('builds the CONTRACT §1 body with the quota and Retry-After', () => {
    const problem = quotaProblem(
      {
        ok: false,
        name: 'ai_consult',
        limit: 5,
        used: 5,
        periodStart: '2026-03-01T00:00:00.000Z',
        resetsAt: '2026-04-01T00:00:00.000Z',
        retryAfterSeconds: 3600,
      },
      { instance: '/api/advisor/chat' },
    );
    expect(problem.status).toBe(429);
    expect(problem.headers).toEqual({
      'retry-after': '3600',
      'content-type': 'application/problem+json',
    });
    expect(problem.body).toMatchObject({
      status: 429,
      code: 'quota_exceeded',
      instance: '/api/advisor/chat',
      quota: { name: 'ai_consult', limit: 5, used: 5, resetsAt: '2026-04-01T00:00:00.000Z' },
    });
    expect(problem.body.type).toBe('about:blank');
    expect(problem.body.title).toBe('Too Many Requests');
  });
});

describe('rateLimitProblem', () => {
  it('answers code rate_limited with Retry-After', () => {
    const problem = rateLimitProblem({
      ok: false,
      limit: 10,
      remaining: 0,
      resetsAt: '2026-03-01T00:00:30.000Z',
      retryAfterSeconds: 30,
    });
    expect(problem.headers['retry-after']).toBe('30');
    expect(problem.body.code).toBe('rate_limited');
    expect(problem.body).not.toHaveProperty('instance');
  });
});
