import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, createTestContext, ORIGIN, registerUser, type TestContext } from './helpers.js';

/**
 * The errors a newcomer meets first (issue 42) say what to do: each answer is problem+json with a
 * code from PROBLEMS and a detail naming the header, type or body to send.
 */
describe('errors a newcomer can act on', () => {
  let ctx: TestContext;
  let cookie: string;
  let portfolioId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ cookie } = await registerUser(ctx.app, 'newcomer@example.com'));
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN },
      payload: { name: 'First' },
    });
    portfolioId = created.json().id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a write without Origin is 403 naming the header to send', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie },
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().code).toBe('forbidden');
    expect(res.json().detail).toContain(`"Origin: ${BASE_URL}"`);
  });

  it('a CSV sent as form data (curl --data-binary) is 415 naming the accepted types', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/portfolios/${portfolioId}/import?dryRun=1`,
      headers: { cookie, ...ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'date,symbol,quantity\n2024-01-02,AAPL,1\n',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
    const detail: string = res.json().detail;
    expect(detail).toContain('application/x-www-form-urlencoded is not accepted');
    for (const type of ['text/csv', 'multipart/form-data', 'application/json']) {
      expect(detail).toContain(type);
    }
    expect(detail).toContain('-H "Content-Type: …"');
  });

  it('a JSON route names only JSON', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers: { cookie, ...ORIGIN, 'content-type': 'application/xml' },
      payload: '<name>x</name>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().detail).toBe(
      'Content-Type application/xml is not accepted here; send application/json, text/plain.',
    );
  });

  it('a wrong current password is 403 forbidden, not "Not signed in"', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers: { cookie, ...ORIGIN },
      payload: { currentPassword: 'not it at all', newPassword: 'a new password here' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'forbidden',
      detail: 'The current password is wrong.',
    });
    expect(res.json().title).not.toBe('Not signed in');
  });

  it('DELETE /api/account without a body is 400 saying which body to send', async () => {
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { cookie, ...ORIGIN },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().detail).toContain('{"password": "…"}');
    expect(res.json().errors).toEqual([
      { path: 'body', message: 'required: {"password": "…"} or {}' },
    ]);
    // nothing was erased
    const session = await ctx.app.inject({ url: '/api/auth/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
  });
});
