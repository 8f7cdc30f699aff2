import { QuotaError, type QuotaService } from '@svc/quota';
import {
  type Actor,
  type EvaluationFills,
  type EvaluationService,
  type FillState,
  FundamentalsError,
  MoatScoringError,
} from '@svc/use-cases';
import type { PgBoss } from 'pg-boss';
import { type JobsPool, openBoss } from '../jobs.js';

/** The pg-boss queue of the X-ray's background evaluations (one job per ticker at a time). */
export const EVALUATION_FILL_QUEUE = 'evaluation-fill';

/** How long a found "nothing to evaluate" is believed before the ticker is tried again. */
export const FILL_OUTCOME_TTL_MS = 24 * 3_600_000;

/** A job of {@link EVALUATION_FILL_QUEUE}: the ticker and whose quota pays for it. */
interface FillJob {
  readonly ticker: string;
  readonly userId: string;
  readonly plan: Actor['plan'];
}

/** What a finished job left as its output. */
interface FillOutput {
  readonly outcome?: 'evaluated' | 'no-data' | 'quota';
}

/** Options of {@link createEvaluationFills}. */
export interface EvaluationFillsOptions {
  /** The database's pool (`Database['pool']`); pg-boss keeps the queue there. */
  readonly pool: JobsPool;
  /** Quota usage, to queue no more than the user's `stock_evaluation` quota leaves. */
  readonly quotas: Pick<QuotaService, 'usage'>;
  /** pg-boss's schema. Default `pgboss`. */
  readonly schema?: string;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
  /** A job's or pg-boss's error (logged by the caller). */
  readonly onError?: (error: unknown) => void;
}

/** The background fill of the X-ray (see {@link createEvaluationFills}). */
export interface EvaluationFillsService extends EvaluationFills {
  /**
   * Works the queue in this process: each job asks the evaluation flow for its ticker as the user
   * who queued it (a cache miss spends one `stock_evaluation` unit of theirs; a fetch under way is
   * joined). Polls every `pollingIntervalSeconds` (default 5) while the queue is empty.
   */
  work(
    evaluations: Pick<EvaluationService, 'getEvaluation'>,
    options?: { pollingIntervalSeconds?: number },
  ): Promise<void>;
  /**
   * Stops pg-boss, waiting for a job under way at most `timeoutMs` (default 30,000 ms; at least
   * 1,000); the pool stays open.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * The X-ray's background evaluations on pg-boss, in the service's own database: a ticker the
 * evaluation cache lacks is queued once (`exclusive` queue, `singletonKey` the ticker, so one job
 * per ticker is queued or active however many users or processes ask), as long as the asking
 * user's `stock_evaluation` quota has units left for it in this period; the X-ray lists it as
 * `pending`. The worker ({@link EvaluationFillsService.work}, run by the servers' background)
 * evaluates it through the evaluation flow, which caches it; the next X-ray reads it from the
 * cache. A job that found nothing to evaluate (no fundamentals, too few years) leaves `no-data` as
 * its output, believed for {@link FILL_OUTCOME_TTL_MS}; one refused for quota is queued again
 * when the user's quota allows. pg-boss is started on first use.
 *
 * @example
 * const fills = createEvaluationFills({ pool: database.pool, quotas });
 * const xray = createXrayService({ holdings, evaluations, fills, now });
 */
export function createEvaluationFills(options: EvaluationFillsOptions): EvaluationFillsService {
  const now = options.now ?? (() => new Date());
  let opened: Promise<PgBoss> | undefined;
  const boss = () => {
    opened ??= (async () => {
      const started = await openBoss(options.pool, {
        ...(options.schema ? { schema: options.schema } : {}),
        schedule: false,
        ...(options.onError ? { onError: options.onError } : {}),
      });
      // a job names its user: kept a day after it ends (its outcome's lifetime), a day queued at most
      await started.createQueue(EVALUATION_FILL_QUEUE, {
        policy: 'exclusive',
        retentionSeconds: FILL_OUTCOME_TTL_MS / 1000,
        deleteAfterSeconds: FILL_OUTCOME_TTL_MS / 1000,
      });
      return started;
    })();
    return opened;
  };

  /** The state of the latest job of `ticker`, or undefined when a new one should be queued. */
  async function known(b: PgBoss, ticker: string): Promise<FillState | undefined> {
    const jobs = await b.findJobs<FillJob>(EVALUATION_FILL_QUEUE, { key: ticker });
    const latest = jobs.at(-1);
    if (!latest) return undefined;
    if (['created', 'retry', 'active'].includes(latest.state)) return 'pending';
    const output = latest.output as FillOutput | null;
    const at = latest.completedOn ?? latest.createdOn;
    const fresh = at && now().getTime() - new Date(at).getTime() < FILL_OUTCOME_TTL_MS;
    if (fresh && output?.outcome === 'no-data') return 'no-data';
    return undefined;
  }

  return {
    async request(actor, tickers) {
      const b = await boss();
      const usage = await options.quotas.usage(actor.id, actor.plan);
      const quota = usage.find((q) => q.name === 'stock_evaluation');
      // the user's jobs not started yet will each spend one of the units left
      const waiting = await b.findJobs<FillJob>(EVALUATION_FILL_QUEUE, {
        data: { userId: actor.id },
        queued: true,
      });
      const queued = waiting.filter((j) => j.state === 'created' || j.state === 'retry').length;
      let left = quota ? Math.max(0, quota.limit - quota.used - queued) : 0;
      const states = new Map<string, FillState>();
      const unknown: string[] = [];
      for (const ticker of tickers) {
        const state = await known(b, ticker);
        if (state === undefined) unknown.push(ticker);
        else states.set(ticker, state);
      }
      for (const ticker of unknown) {
        if (left <= 0) {
          states.set(ticker, 'quota');
          continue;
        }
        const job: FillJob = { ticker, userId: actor.id, plan: actor.plan };
        // null: another request queued it just now (exclusive per ticker): pending all the same
        await b.send(EVALUATION_FILL_QUEUE, job, {
          singletonKey: ticker,
          retryLimit: 2,
          expireInSeconds: 300,
        });
        left -= 1;
        states.set(ticker, 'pending');
      }
      return states;
    },

    async work(evaluations, workOptions = {}) {
      const b = await boss();
      await b.work<FillJob>(
        EVALUATION_FILL_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: workOptions.pollingIntervalSeconds ?? 5 },
        async ([job]): Promise<FillOutput> => {
          if (!job) return {};
          const { ticker, userId, plan } = job.data;
          try {
            await evaluations.getEvaluation({
              symbol: ticker,
              fresh: false,
              actor: { id: userId, plan },
            });
            return { outcome: 'evaluated' };
          } catch (error) {
            if (error instanceof QuotaError) return { outcome: 'quota' };
            const nothing =
              (error instanceof FundamentalsError &&
                (error.code === 'insufficient_data' || error.code === 'invalid_symbol')) ||
              (error instanceof MoatScoringError && error.code === 'insufficient_data');
            if (nothing) return { outcome: 'no-data' };
            options.onError?.(error);
            throw error; // pg-boss retries the job
          }
        },
      );
    },

    async close(timeoutMs = 30_000) {
      if (!opened) return;
      const b = await opened.catch(() => undefined);
      await b?.stop({ graceful: true, close: false, timeout: timeoutMs });
    },
  };
}
