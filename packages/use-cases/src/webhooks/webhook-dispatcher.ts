import type {
  ClaimedWebhookMessage,
  WebhookAttemptOutcome,
  WebhooksRepository,
} from '@svc/portfolio-store';
import { Webhook } from 'standardwebhooks';
import type { WebhookPostResult, WebhookTransport } from './webhooks.js';

/**
 * Delays before the 2nd, 3rd, … attempt of a delivery (the schedule Standard Webhooks suggests:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); after the last, the delivery has failed for good.
 */
export const DEFAULT_RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
] as const;

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  /** The outbox relay, message queue and delivery log (`createRepositories(db).webhooks`). */
  readonly webhooks: Pick<WebhooksRepository, 'relayOutbox' | 'claimDue' | 'recordAttempt'>;
  /**
   * How each attempt is sent: it resolves and checks the host again on every attempt and connects
   * only to the checked address (`createWebhookTransport` of `@svc/service`).
   */
  readonly transport: Pick<WebhookTransport, 'post'>;
  /** Per-attempt timeout (connect to end of the answer), ms; default 10,000. */
  readonly timeoutMs?: number;
  /** Delays between attempts; default {@link DEFAULT_RETRY_DELAYS_MS}. */
  readonly retryDelaysMs?: readonly number[];
  /** Messages leased per round; default 20. */
  readonly batchSize?: number;
  /** Pause between rounds of {@link WebhookDispatcher.start}, ms; default 2,000. */
  readonly pollMs?: number;
  /** `User-Agent` of deliveries; default `svc-webhooks/1`. */
  readonly userAgent?: string;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
  /** Called with an error of a round (the loop goes on). */
  readonly onError?: (error: unknown) => void;
}

/** What one round did. */
export interface DispatchRound {
  /** Events taken from the outbox and turned into messages for the endpoints that want them. */
  readonly relayed: number;
  readonly attempted: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly disabled: number;
}

/**
 * Delivers events of any type to webhook endpoints (CONTRACT §7, Standard Webhooks 1.0). Each
 * round first relays the outbox (events written with what they describe, `keepEvaluation`): an
 * event becomes one message per endpoint that wants it then (its type, its symbols, the holdings
 * of its portfolio at that moment). Each leased message is POSTed as the generic envelope
 * `{ type, timestamp, data }` with `webhook-id` (the event id,
 * the same on every attempt), `webhook-timestamp` and `webhook-signature` (`v1,<base64
 * HMAC-SHA256>` by the `standardwebhooks` package). A 2xx is delivered; a 410 disables the
 * endpoint; anything else (another status, a redirect, a timeout, a refused or unreachable
 * address) is retried on the {@link DEFAULT_RETRY_DELAYS_MS} schedule. Every attempt is logged.
 * Messages are leased in the database, so any number of processes may dispatch: each message is
 * attempted by one at a time, and one whose process died is attempted again (at least once).
 *
 * @example
 * const dispatcher = createWebhookDispatcher({
 *   webhooks: repos.webhooks,
 *   transport: createWebhookTransport({ allowPrivate: false }), // of @svc/service
 * });
 * dispatcher.start();
 * // on shutdown:
 * await dispatcher.stop();
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions) {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 10_000;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const batchSize = options.batchSize ?? 20;
  const pollMs = options.pollMs ?? 2_000;
  const userAgent = options.userAgent ?? 'svc-webhooks/1';

  async function attempt(message: ClaimedWebhookMessage): Promise<WebhookAttemptOutcome> {
    const body = JSON.stringify({
      type: message.type,
      timestamp: message.timestamp,
      data: message.data,
    });
    let result: WebhookPostResult;
    try {
      const sentAt = now();
      const signature = new Webhook(message.secret).sign(message.eventId, sentAt, body);
      result = await options.transport.post(
        new URL(message.url),
        {
          'content-type': 'application/json',
          'user-agent': userAgent,
          'webhook-id': message.eventId,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        timeoutMs,
      );
    } catch (error) {
      result = { status: null, error: error instanceof Error ? error.message : String(error) };
    }
    const at = now();
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      return {
        status: 'succeeded',
        responseStatus: result.status,
        error: null,
        at,
        nextAttemptAt: null,
      };
    }
    if (result.status === 410) {
      return { status: 'disabled', responseStatus: 410, error: null, at, nextAttemptAt: null };
    }
    const delay = delays[message.attempt - 1];
    return {
      status: 'failed',
      responseStatus: result.status,
      error: result.error,
      at,
      nextAttemptAt: delay === undefined ? null : new Date(at.getTime() + delay),
    };
  }

  /**
   * Relays the outbox, then leases the due messages and attempts each once, in parallel; returns
   * what happened.
   */
  async function runDue(): Promise<DispatchRound> {
    let relayed = 0;
    for (;;) {
      const batch = await options.webhooks.relayOutbox(now(), batchSize * 5);
      relayed += batch;
      if (batch < batchSize * 5) break;
    }
    const claimed = await options.webhooks.claimDue(now(), batchSize, timeoutMs * 3 + 5_000);
    const outcomes = await Promise.all(
      claimed.map(async (message) => {
        const outcome = await attempt(message);
        await options.webhooks.recordAttempt(message, outcome);
        return outcome.status;
      }),
    );
    return {
      relayed,
      attempted: outcomes.length,
      succeeded: outcomes.filter((s) => s === 'succeeded').length,
      failed: outcomes.filter((s) => s === 'failed').length,
      disabled: outcomes.filter((s) => s === 'disabled').length,
    };
  }

  let running: Promise<void> | undefined;
  let stopping = false;
  let wakeUp: (() => void) | undefined;

  return {
    runDue,

    /** Runs rounds until {@link stop}: a full batch is followed at once, else after `pollMs`. */
    start(): void {
      if (running) return;
      stopping = false;
      running = (async () => {
        while (!stopping) {
          let full = false;
          try {
            full = (await runDue()).attempted >= batchSize;
          } catch (error) {
            options.onError?.(error);
          }
          if (full || stopping) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            timer.unref();
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeUp = undefined;
        }
      })();
    },

    /** Starts the next round now (e.g. after an event was made in this process). */
    wake(): void {
      wakeUp?.();
    },

    /** Stops after the round under way (its attempts are logged). */
    async stop(): Promise<void> {
      stopping = true;
      wakeUp?.();
      await running;
      running = undefined;
    },
  };
}

/** A webhook dispatcher (see {@link createWebhookDispatcher}). */
export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;
