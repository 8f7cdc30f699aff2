import { describe, expect, it } from 'vitest';
import { auditArguments } from './audit-arguments.js';
import {
  insufficientScope,
  missingScopes,
  SCOPE_NEEDS,
  TOKEN_SCOPES,
  withNeededScopes,
} from './scopes.js';
import { guardQuotaSpending, runTokenCall } from './token-call.js';

describe('withNeededScopes', () => {
  it.each([
    [['portfolio:values'], ['portfolio:read', 'portfolio:values']],
    [['reports:write'], ['moat:read', 'reports:write']],
    [
      ['moat:fresh', 'ai:consult'],
      ['moat:read', 'moat:fresh', 'ai:consult'],
    ],
    [['moat:read', 'moat:read'], ['moat:read']],
    [[], []],
  ] as const)('%j -> %j', (wanted, granted) => {
    expect(withNeededScopes(wanted)).toEqual(granted);
  });

  it('answers a set closed under SCOPE_NEEDS for every single scope', () => {
    for (const scope of TOKEN_SCOPES) {
      const granted = withNeededScopes([scope]);
      for (const has of granted) expect(missingScopes(granted, SCOPE_NEEDS[has])).toEqual([]);
    }
  });
});

describe('insufficientScope', () => {
  it('is a 403 problem with an RFC 6750 challenge naming the scopes', () => {
    const error = insufficientScope(['moat:fresh'], 'the tool x', 'https://svc.example');
    expect(error).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(error.message).toContain('moat:fresh');
    expect(error.options.headers?.['www-authenticate']).toBe(
      'Bearer realm="https://svc.example", error="insufficient_scope", scope="moat:fresh"',
    );
  });
});

/** A quota service that grants everything and remembers what it was asked. */
function fakeQuotas() {
  const log: string[] = [];
  return {
    log,
    quotas: {
      consume: async (_u: string, _p: 'free' | 'pro', name: 'ai_consult' | 'stock_evaluation') => {
        log.push(`consume ${name}`);
        return {
          ok: true as const,
          name,
          limit: 5,
          used: 1,
          remaining: 4,
          periodStart: 'p',
          resetsAt: 'r',
        };
      },
      refund: async (_u: string, name: string, _given: { periodStart: string }) => {
        log.push(`refund ${name}`);
        return 0;
      },
      withQuota: async <T>(
        _u: string,
        _p: 'free' | 'pro',
        name: string,
        work: () => Promise<T>,
      ) => {
        log.push(`withQuota ${name}`);
        return work();
      },
      reserve: async (_u: string, _p: 'free' | 'pro', name: 'ai_consult' | 'stock_evaluation') => {
        log.push(`reserve ${name}`);
        return {
          periodStart: 'p',
          refund: async () => {
            log.push(`refund ${name}`);
          },
        };
      },
    },
  };
}

describe('guardQuotaSpending', () => {
  it('refuses spending without its scope, before the quota is touched, and counts what is spent', async () => {
    const { log, quotas } = fakeQuotas();
    const denied = await runTokenCall(['moat:read'], (call) =>
      guardQuotaSpending(quotas, call).withQuota('u', 'free', 'stock_evaluation', async () => 'x'),
    );
    expect(denied).toMatchObject({ ok: false, spent: {}, error: { code: 'insufficient_scope' } });
    expect(log).toEqual([]);

    const allowed = await runTokenCall(['moat:read', 'moat:fresh', 'ai:consult'], async (call) => {
      const guarded = guardQuotaSpending(quotas, call);
      await guarded.withQuota('u', 'free', 'stock_evaluation', async () => 'x');
      await guarded.consume('u', 'free', 'ai_consult');
      await guarded.consume('u', 'free', 'ai_consult');
      await guarded.refund('u', 'ai_consult', { periodStart: 'p' });
      return 'done';
    });
    expect(allowed).toEqual({
      ok: true,
      value: 'done',
      spent: { stock_evaluation: 1, ai_consult: 1 },
    });
  });

  it('refuses a reservation without its scope and counts one given back (at most once)', async () => {
    const { log, quotas } = fakeQuotas();
    const denied = await runTokenCall(['moat:read'], (call) =>
      guardQuotaSpending(quotas, call).reserve('u', 'free', 'ai_consult'),
    );
    expect(denied).toMatchObject({ ok: false, spent: {}, error: { code: 'insufficient_scope' } });
    expect(log).toEqual([]);
    const kept = await runTokenCall(['ai:consult'], async (call) => {
      await guardQuotaSpending(quotas, call).reserve('u', 'free', 'ai_consult');
    });
    expect(kept.spent).toEqual({ ai_consult: 1 });
    const given = await runTokenCall(['ai:consult'], async (call) => {
      const unit = await guardQuotaSpending(quotas, call).reserve('u', 'free', 'ai_consult');
      await unit.refund();
      await unit.refund();
    });
    expect(given.spent).toEqual({});
  });

  it('leaves spending without a token call (a browser session) alone: the service itself', async () => {
    const { log, quotas } = fakeQuotas();
    const guarded = guardQuotaSpending(quotas, undefined);
    expect(guarded).toBe(quotas);
    expect(await guarded.withQuota('u', 'pro', 'ai_consult', async () => 7)).toBe(7);
    expect(log).toEqual(['withQuota ai_consult']);
  });

  it('does not count a spending whose work failed (its unit is refunded)', async () => {
    const { quotas } = fakeQuotas();
    const failed = await runTokenCall(['moat:read', 'moat:fresh'], (call) =>
      guardQuotaSpending(quotas, call).withQuota('u', 'free', 'stock_evaluation', async () => {
        throw new Error('no data');
      }),
    );
    expect(failed).toMatchObject({ ok: false, spent: {} });
  });
});

describe('auditArguments', () => {
  it('redacts secret-looking fields at any depth and keeps the rest', () => {
    expect(
      auditArguments({ symbol: 'AAPL', apiKey: 'sk-1', nested: { Password: 'p', tags: ['a'] } }),
    ).toEqual({
      symbol: 'AAPL',
      apiKey: '[redacted]',
      nested: { Password: '[redacted]', tags: ['a'] },
    });
  });

  it('cuts long strings and records no arguments as null', () => {
    const recorded = auditArguments({ evaluationJson: 'x'.repeat(10_000) }) as Record<
      string,
      string
    >;
    expect(recorded.evaluationJson?.length).toBeLessThan(260);
    expect(recorded.evaluationJson).toContain('10000 characters');
    expect(auditArguments({})).toBeNull();
    expect(auditArguments(undefined)).toBeNull();
  });

  it('keeps only the field names of arguments still too large', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`f${i}`, 'y'.repeat(150)]),
    );
    const recorded = auditArguments(wide) as { fields: string[] };
    expect(JSON.stringify(recorded).length).toBeLessThan(4_096);
    expect(recorded.fields).toHaveLength(40);
  });
});
