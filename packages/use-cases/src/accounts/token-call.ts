import { AsyncLocalStorage } from 'node:async_hooks';
import type { QuotaService } from '@svc/quota';
import { insufficientScope, QUOTA_SCOPES, type TokenScope } from './scopes.js';

/**
 * One call made with a personal access token (an MCP tool call): the token's scopes, and the
 * quota units the call spent (refunds deducted), which its audit row records.
 */
interface TokenCall {
  readonly scopes: ReadonlySet<string>;
  /** Units spent per quota name during the call, refunds deducted. */
  readonly spent: Map<string, number>;
}

const calls = new AsyncLocalStorage<TokenCall>();

/** The outcome of {@link runTokenCall}: the value or the error, and the units spent either way. */
export type TokenCallOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly spent: Record<string, number> }
  | { readonly ok: false; readonly error: unknown; readonly spent: Record<string, number> };

/** The units a call spent, refunds deducted (a failed fetch refunds its unit: 0). */
function spentOf(call: TokenCall): Record<string, number> {
  return Object.fromEntries([...call.spent].filter(([, units]) => units !== 0));
}

/**
 * Runs `work` as a call with a token of these scopes: quota spending inside it (through a
 * service wrapped by {@link guardQuotaSpending}, however deep in a flow) is refused without the
 * scope the quota needs ({@link QUOTA_SCOPES}) and counted. Never throws: answers the value or
 * the error, with what was spent.
 *
 * @example
 * const outcome = await runTokenCall(principal.scopes, () => tool.handler(args));
 */
export async function runTokenCall<T>(
  scopes: readonly string[],
  work: () => Promise<T>,
): Promise<TokenCallOutcome<T>> {
  const call: TokenCall = { scopes: new Set(scopes), spent: new Map() };
  try {
    const value = await calls.run(call, work);
    return { ok: true, value, spent: spentOf(call) };
  } catch (error) {
    return { ok: false, error, spent: spentOf(call) };
  }
}

/**
 * Throws `insufficient_scope` synchronously when a token call lacks the scope of `quota` (outside
 * a token call, e.g. a signed-in browser, every quota may be spent). Synchronous on purpose: a
 * flow that registers the spending as a shared fetch never registers a refused one.
 */
function checkSpending(quota: string): TokenCall | undefined {
  const call = calls.getStore();
  if (call === undefined) return undefined;
  const scope = QUOTA_SCOPES[quota];
  if (scope !== undefined && !call.scopes.has(scope)) {
    throw insufficientScope([scope as TokenScope], `spending the ${quota} quota`);
  }
  return call;
}

function count(call: TokenCall | undefined, quota: string, units: number): void {
  if (call) call.spent.set(quota, (call.spent.get(quota) ?? 0) + units);
}

/** The spending methods of a quota service (`createQuotaService` of `@svc/quota`). */
type Spending = Pick<QuotaService, 'consume' | 'refund' | 'withQuota'>;

/**
 * Wraps a quota service so that, inside a {@link runTokenCall}, spending a quota needs its scope
 * (`stock_evaluation` → `moat:fresh`, `ai_consult` → `ai:consult`) and is counted for the audit
 * log. Outside a token call it behaves exactly as the service. Other members pass through.
 *
 * @example
 * const quotas = guardQuotaSpending(createQuotaService({ db, limits }));
 */
export function guardQuotaSpending<Q extends Partial<Spending>>(quotas: Q): Q {
  const guarded: Partial<Spending> = {};
  const { consume, refund, withQuota } = quotas;
  if (consume) {
    guarded.consume = (userId, plan, name, units = 1) => {
      const call = checkSpending(name);
      return consume.call(quotas, userId, plan, name, units).then((result) => {
        if (result.ok) count(call, name, units);
        return result;
      });
    };
  }
  if (refund) {
    guarded.refund = (userId, name, given) => {
      const call = calls.getStore();
      return refund.call(quotas, userId, name, given).then((used) => {
        count(call, name, -(given.units ?? 1));
        return used;
      });
    };
  }
  if (withQuota) {
    guarded.withQuota = <T>(
      userId: string,
      plan: Parameters<Spending['withQuota']>[1],
      name: Parameters<Spending['withQuota']>[2],
      work: () => Promise<T>,
    ): Promise<T> => {
      const call = checkSpending(name);
      const spending = withQuota.call(quotas, userId, plan, name, work) as Promise<T>;
      return spending.then((value) => {
        count(call, name, 1);
        return value;
      });
    };
  }
  return { ...quotas, ...guarded };
}
