import { FundamentalsError, type FundamentalsProvider } from '@svc/fundamentals-client';
import {
  createFundamentalsProvider,
  createReconcileProvider,
  type FundamentalsSettings,
} from '@svc/providers';
import { UseCaseError } from '@svc/use-cases';

/** The server's fundamentals provider, or a stand-in that explains why there is none. */
export interface OpenedFundamentals {
  readonly provider: FundamentalsProvider;
  /** Why the configured provider could not be created (log it at start); absent when it was. */
  readonly unavailable?: string;
}

/**
 * A provider that refuses every request with 503 `upstream_unavailable` and `detail`: the
 * evaluation flow then gives the quota unit back and cached evaluations are still served.
 */
export function unavailableFundamentalsProvider(detail: string): FundamentalsProvider {
  return {
    name: 'unavailable',
    async getFundamentals() {
      throw new UseCaseError('upstream_unavailable', detail);
    },
  };
}

/**
 * Creates the configured fundamentals provider once (`createFundamentalsProvider` of
 * `@svc/use-cases`). When it cannot be created — `sec-edgar` without a valid `SEC_USER_AGENT`,
 * a missing snapshot or SimFin folder — the server still starts: the answer carries a stand-in
 * ({@link unavailableFundamentalsProvider}) and the reason, which the caller logs as a warning.
 *
 * @throws whatever the provider factory throws other than FundamentalsError `invalid_config`.
 * @example
 * const { provider, unavailable } = openFundamentalsProvider(config.fundamentals);
 * if (unavailable) logger.warn(unavailable);
 */
export function openFundamentalsProvider(settings: FundamentalsSettings): OpenedFundamentals {
  try {
    return { provider: createFundamentalsProvider(settings) };
  } catch (error) {
    if (!(error instanceof FundamentalsError && error.code === 'invalid_config')) throw error;
    const reason = `The fundamentals provider "${settings.provider}" is not configured on this server (${error.message}); only cached evaluations can be served.`;
    return { provider: unavailableFundamentalsProvider(reason), unavailable: reason };
  }
}

/** Where {@link openReconcileProvider} writes its warnings. */
export interface ReconcileLogger {
  warn(message: string): void;
}

/**
 * Creates the second provider of `RECONCILE_PROVIDER` (issue 39; `createReconcileProvider` of
 * `@svc/providers`), or null when it is `off`. Every failed read of it — a company it does not
 * cover, an outage — is logged as a warning (`reconcile: simfin has no figures for X …`) and
 * passed on, for the evaluation flow to go on without it and say so on the evaluation. When it
 * cannot be created (`sec-edgar` without `SEC_USER_AGENT`) the server still starts, without
 * reconciliation, and says so once.
 *
 * @throws whatever the provider factory throws other than FundamentalsError `invalid_config`.
 * @example
 * const reconcile = openReconcileProvider(config.fundamentals, logger);
 */
export function openReconcileProvider(
  settings: FundamentalsSettings,
  logger: ReconcileLogger,
): FundamentalsProvider | null {
  let provider: FundamentalsProvider | null;
  try {
    provider = createReconcileProvider(settings);
  } catch (error) {
    if (!(error instanceof FundamentalsError && error.code === 'invalid_config')) throw error;
    logger.warn(
      `RECONCILE_PROVIDER=${settings.reconcileProvider} is not configured (${error.message}): evaluations are not reconciled`,
    );
    return null;
  }
  if (provider === null) return null;
  const inner = provider;
  return {
    name: inner.name,
    async getFundamentals(symbol, options) {
      try {
        return await inner.getFundamentals(symbol, options);
      } catch (error) {
        const code = error instanceof FundamentalsError ? ` ${error.code}` : '';
        const message = error instanceof Error ? error.message : String(error);
        logger.warn(
          `reconcile: ${inner.name} gave no figures for ${symbol}${options?.asOf ? ` as of ${options.asOf}` : ''} (${code.trim() || 'error'}: ${message}); evaluated without reconciliation`,
        );
        throw error;
      }
    },
  };
}
