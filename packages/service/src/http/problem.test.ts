import { FundamentalsError } from '@svc/fundamentals-client';
import { MoatScoringError } from '@svc/moat-scoring';
import { StoreError } from '@svc/portfolio-store';
import { QuotaError } from '@svc/quota';
import { PROBLEM_CODES, PROBLEMS } from '@svc/schemas';
import { UseCaseError } from '@svc/use-cases';
import { describe, expect, it } from 'vitest';
import { toProblem } from './problem.js';

describe('toProblem', () => {
  it('keeps the code, status and extras of a UseCaseError', () => {
    const answer = toProblem(
      new UseCaseError('rate_limited', 'slow down', { retryAfterSeconds: 12.2 }),
      '/x',
    );
    expect(answer.status).toBe(429);
    expect(answer.headers).toEqual({ 'retry-after': '13' });
    expect(answer.body).toMatchObject({
      code: 'rate_limited',
      status: 429,
      detail: 'slow down',
      instance: '/x',
    });
  });

  it.each([
    [
      { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413, message: 'too large' },
      413,
      'payload_too_large',
    ],
    [
      { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415, message: 'bad type' },
      415,
      'unsupported_media_type',
    ],
    [
      { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400, message: 'bad json' },
      400,
      'validation_failed',
    ],
    [{ statusCode: 404, message: 'nope' }, 404, 'not_found'],
    [{ statusCode: 503, message: 'db down at 10.0.0.3' }, 500, 'internal'],
    [new TypeError('x is undefined'), 500, 'internal'],
    ['a thrown string', 500, 'internal'],
  ])('maps %o to %i %s', (error, status, code) => {
    const answer = toProblem(error, undefined);
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body).not.toHaveProperty('instance');
    if (status === 500) {
      expect(answer.unexpected).toBe(true);
      expect(JSON.stringify(answer.body)).not.toMatch(/x is undefined|10\.0\.0\.3|a thrown string/);
    }
  });

  it('turns request validation errors into field errors with part-prefixed paths', () => {
    const error = {
      statusCode: 400,
      validationContext: 'body',
      validation: [
        { instancePath: '/email', message: 'Invalid email address' },
        { instancePath: '', message: 'Expected object' },
      ],
    };
    const answer = toProblem(error, '/api/auth/login');
    expect(answer.body.errors).toEqual([
      { path: 'body.email', message: 'Invalid email address' },
      { path: 'body', message: 'Expected object' },
    ]);
  });

  it("maps the packages' errors: StoreError codes and an exhausted quota", () => {
    expect(toProblem(new StoreError('conflict', 'dup'), undefined).status).toBe(409);
    expect(toProblem(new StoreError('not_found', 'gone'), undefined).status).toBe(404);
    expect(toProblem(new StoreError('invalid_input', 'bad'), undefined).status).toBe(400);
    const denied = {
      ok: false as const,
      name: 'ai_consult' as const,
      limit: 5,
      used: 5,
      periodStart: '2030-03-01T00:00:00.000Z',
      resetsAt: '2030-04-01T00:00:00.000Z',
      retryAfterSeconds: 3600,
    };
    const answer = toProblem(new QuotaError('quota_exceeded', 'no', { denied }), undefined);
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('3600');
    expect(answer.body.quota).toEqual({
      name: 'ai_consult',
      limit: 5,
      used: 5,
      resetsAt: '2030-04-01T00:00:00.000Z',
    });
  });

  it.each([
    [new FundamentalsError('invalid_symbol', 'Invalid symbol "$"'), 400, 'validation_failed'],
    [new FundamentalsError('insufficient_data', 'Unknown ticker ZZZZ'), 404, 'insufficient_data'],
    [
      new FundamentalsError('upstream_unavailable', 'HTTP 503 from https://x/'),
      503,
      'upstream_unavailable',
    ],
    [
      new FundamentalsError('parse_failed', 'not a companyfacts document'),
      503,
      'upstream_unavailable',
    ],
    [new FundamentalsError('invalid_config', 'SEC_USER_AGENT is not set'), 500, 'internal'],
    [new MoatScoringError('insufficient_data', 'only 2 usable years'), 404, 'insufficient_data'],
    [new MoatScoringError('invalid_argument', 'windowYears 2'), 500, 'internal'],
  ])('maps %o to %i %s without the provider message', (error, status, code) => {
    const answer = toProblem(error, '/api/stock-evaluation');
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
    expect(answer.body.detail).not.toContain(error.message);
  });

  it('keeps the code and the detail of a UseCaseError: its message is written for the user', () => {
    const answer = toProblem(new UseCaseError('not_found', 'No report with this id.'), '/x');
    expect([answer.status, answer.body.code, answer.body.detail]).toEqual([
      404,
      'not_found',
      'No report with this id.',
    ]);
  });

  it('gives a malformed symbol a symbol field error, and keeps use-case field errors', () => {
    const symbol = toProblem(new FundamentalsError('invalid_symbol', 'bad'), undefined);
    expect(symbol.body.errors?.map((e) => e.path)).toEqual(['symbol']);
    const errors = [{ path: 'evaluationJson.verdict', message: 'Invalid option' }];
    const answer = toProblem(
      new UseCaseError('validation_failed', 'evaluationJson is not a MoatEvaluation', { errors }),
      undefined,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual(errors);
  });

  it('gives every code a 4xx/5xx status', () => {
    for (const code of PROBLEM_CODES) expect(PROBLEMS[code].status).toBeGreaterThanOrEqual(400);
  });
});
