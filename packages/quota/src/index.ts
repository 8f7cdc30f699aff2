export { type QuotaDenied, QuotaError, type QuotaErrorCode } from './errors.js';
export {
  DEFAULT_QUOTA_LIMITS,
  isPlan,
  isQuotaName,
  type QuotaLimit,
  type QuotaLimitOverrides,
  QuotaLimitOverridesSchema,
  type QuotaLimits,
  type QuotaPeriod,
  resolveQuotaLimits,
} from './limits.js';
export { periodEnd, periodStart, secondsUntil } from './period.js';
export {
  type ConsumeResult,
  createQuotaService,
  DEFAULT_REFUND_RETRY_DELAYS_MS,
  type QuotaEvent,
  type QuotaGranted,
  type QuotaReservation,
  type QuotaService,
  type QuotaServiceOptions,
  quotaExceeded,
} from './quota-service.js';
