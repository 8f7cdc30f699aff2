import { describe, expect, it } from 'vitest';
import { QuotaError } from './errors.js';
import { DEFAULT_QUOTA_LIMITS, resolveQuotaLimits } from './limits.js';

describe('resolveQuotaLimits', () => {
  it('answers the documented defaults without overrides', () => {
    expect(resolveQuotaLimits()).toEqual({
      free: {
        stock_evaluation: { limit: 10, period: 'month' },
        ai_consult: { limit: 5, period: 'month' },
      },
      pro: {
        stock_evaluation: { limit: 500, period: 'month' },
        ai_consult: { limit: 200, period: 'month' },
      },
    });
  });

  it('lays partial overrides over the defaults', () => {
    const limits = resolveQuotaLimits({
      free: { ai_consult: { limit: 0 } },
      pro: { stock_evaluation: { period: 'day' } },
    });
    expect(limits.free.ai_consult).toEqual({ limit: 0, period: 'month' });
    expect(limits.pro.stock_evaluation).toEqual({ limit: 500, period: 'day' });
    expect(limits.free.stock_evaluation).toEqual(DEFAULT_QUOTA_LIMITS.free.stock_evaluation);
  });

  it.each([
    { free: { ai_consult: { limit: -1 } } },
    { free: { ai_consult: { limit: 1.5 } } },
    { free: { chat: { limit: 1 } } },
    { gold: {} },
    { pro: { ai_consult: { period: 'year' } } },
  ])('rejects %j', (overrides) => {
    expect(() => resolveQuotaLimits(overrides as never)).toThrow(QuotaError);
  });
});
