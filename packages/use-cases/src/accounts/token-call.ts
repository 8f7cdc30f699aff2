import type { QuotaReservation, QuotaService } from '@svc/quota';
import { insufficientScope, QUOTA_SCOPES, type TokenScope } from './scopes.js';

/**
 * One call made with a personal access token (an MCP tool call): the token's scopes, and the
 * quota units the call spent (refunds deducted), which its audit row records. A flow that may
 * spend a quota takes it as `tokenCall` in its request and spends through
 * {@link guardQuotaSpending}`(quotas, tokenCall)`; REST requests pass none.
 */
export interface TokenCall {
  readonly scopes: ReadonlySet<string>;
  /** Units spent per quota name during the call, refunds deducted. */
  readonly spent: Map<string, number>;
}

/** The outcome of {@link runTokenCall}: the value or the error, and the units spent either way. */
export type TokenCallOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly spent: Record<string, number> }
  | { readonly ok: false; readonly error: unknown; readonly spent: Record<string, number> };

/** The units a call spent, refunds deducted (a failed fetch refunds its unit: 0). */
function spentOf(call: TokenCall): Record<string, number> {
  return Object.fromEntries([...call.spent].filter(([, units]) => units !== 0));
}

/**
 * Runs `work` as a call with a token of these scopes, handing it the {@link TokenCall} to pass to
 * the flows it calls: quota spending through {@link guardQuotaSpending} with that call is refused
 * without the scope the quota needs ({@link QUOTA_SCOPES}) and counted. Never throws: answers the
 * value or the error, with what was spent.
 *
 * The call is passed explicitly, not through async local storage: an `AsyncLocalStorage` turns
 * Node 20's promise hooks on for every request of the process (2–4% of each request's CPU).
 *
 * @example
 * const outcome = await runTokenCall(principal.scopes, (tokenCall) =>
 *   evaluations.getEvaluation({ symbol, fresh: true, actor, tokenCall }),
 * );
 */
export async function runTokenCall<T>(
  scopes: readonly string[],
  work: (call: TokenCall) => Promise<T>,
): Promise<TokenCallOutcome<T>> {
  const call: TokenCall = { scopes: new Set(scopes), spent: new Map() };
  try {
    const value = await work(call);
    return { ok: true, value, spent: spentOf(call) };
  } catch (error) {
    return { ok: false, error, spent: spentOf(call) };
  }
}

/**
 * Throws `insufficient_scope` synchronously when the call lacks the scope of `quota`.
 * Synchronous on purpose: a flow that registers the spending as a shared fetch never registers a
 * refused one.
 */
function checkSpending(call: TokenCall, quota: string): void {
  const scope = QUOTA_SCOPES[quota];
  if (scope !== undefined && !call.scopes.has(scope)) {
    throw insufficientScope([scope as TokenScope], `spending the ${quota} quota`);
  }
}

function count(call: TokenCall, quota: string, units: number): void {
  call.spent.set(quota, (call.spent.get(quota) ?? 0) + units);
}

/** The spending methods of a quota service (`createQuotaService` of `@svc/quota`). */
type Spending = Pick<QuotaService, 'consume' | 'refund' | 'withQuota' | 'reserve'>;

/**
 * The quota service a flow spends through for one token call: spending a quota needs its scope
 * (`stock_evaluation` → `moat:fresh`, `ai_consult` → `ai:consult`; else `insufficient_scope`,
 * thrown before the quota is touched) and is counted in `call.spent` for the audit log (a refund
 * or a refunded reservation deducts its units; a refused or failed `withQuota` counts nothing).
 * Without a call (a signed-in browser) it answers `quotas` itself. Other members pass through.
 *
 * @example
 * const spending = guardQuotaSpending(deps.quotas, request.tokenCall);
 * await spending.withQuota(actor.id, actor.plan, 'stock_evaluation', fetch);
 */
export function guardQuotaSpending<Q extends Partial<Spending>>(
  quotas: Q,
  call: TokenCall | undefined,
): Q {
  if (call === undefined) return quotas;
  const guarded: Partial<Spending> = {};
  const { consume, refund, withQuota, reserve } = quotas;
  if (consume) {
    guarded.consume = (userId, plan, name, units = 1) => {
      checkSpending(call, name);
      return consume.call(quotas, userId, plan, name, units).then((result) => {
        if (result.ok) count(call, name, units);
        return result;
      });
    };
  }
  if (refund) {
    guarded.refund = (userId, name, given) =>
      refund.call(quotas, userId, name, given).then((used) => {
        count(call, name, -(given.units ?? 1));
        return used;
      });
  }
  if (withQuota) {
    guarded.withQuota = <T>(
      userId: string,
      plan: Parameters<Spending['withQuota']>[1],
      name: Parameters<Spending['withQuota']>[2],
      work: () => Promise<T>,
    ): Promise<T> => {
      checkSpending(call, name);
      const spending = withQuota.call(quotas, userId, plan, name, work) as Promise<T>;
      return spending.then((value) => {
        count(call, name, 1);
        return value;
      });
    };
  }
  if (reserve) {
    guarded.reserve = (userId, plan, name) => {
      checkSpending(call, name);
      return reserve.call(quotas, userId, plan, name).then((unit): QuotaReservation => {
        count(call, name, 1);
        let given = false;
        return {
          ...unit,
          async refund() {
            const first = !given;
            given = true;
            await unit.refund();
            if (first) count(call, name, -1);
          },
        };
      });
    };
  }
  return { ...quotas, ...guarded };
}
