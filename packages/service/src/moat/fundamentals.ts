import { FundamentalsError, type FundamentalsProvider } from '@svc/fundamentals-client';
import { createFundamentalsProvider, type FundamentalsSettings } from '@svc/providers';
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
