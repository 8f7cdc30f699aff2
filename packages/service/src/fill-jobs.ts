import { createRepositories } from '@svc/portfolio-store';
import { normaliseTicker } from '@svc/schemas';
import {
  type FillCacheFailure,
  type FillCacheOptions,
  type FillCacheProgress,
  fillEvaluationCache,
} from '@svc/use-cases';
import { type JobsPool, openBoss } from './jobs.js';

/** The pg-boss queue of `fill-cache` (tickers in chunks, shared by every process that works it). */
export const FILL_QUEUE = 'fill-cache';

/** Tickers per job: small enough to share a fill evenly, large enough to keep the queue cheap. */
export const FILL_CHUNK = 10;

/** Options of {@link fillCacheOnJobs}. */
export interface FillOnJobsOptions extends Pick<FillCacheOptions, 'evaluate' | 'db' | 'signal'> {
  /** The database's pool (`Database['pool']`, PGlite's pool of one too). */
  readonly pool: JobsPool;
  /** pg-boss's schema. Default `pgboss`. */
  readonly schema?: string;
  /** Tickers to queue first; none: only work what is queued (join a fill under way). */
  readonly tickers?: readonly string[];
  /** Chunks worked at once by this process. Default 4. */
  readonly concurrency?: number;
  /** Called after each ticker this process finished. */
  readonly onProgress?: (progress: Omit<FillCacheProgress, 'done' | 'total'>) => void;
}

/** What this process did of a fill on jobs. */
export interface FillOnJobsSummary {
  /** Tickers this process evaluated and stored. */
  readonly evaluated: number;
  /** Tickers this process could not evaluate. */
  readonly failed: FillCacheFailure[];
  /** Chunks (jobs) this process worked. */
  readonly jobs: number;
}

/**
 * `fill-cache` on the job queue: queues the tickers in chunks of {@link FILL_CHUNK} (pg-boss,
 * `fill-cache` queue) and works the queue until it is empty, `concurrency` chunks at a time,
 * each chunk through `fillEvaluationCache` (each kept by `keepEvaluation`, trigger `fill-cache`). Any
 * number of processes may work the same queue (`tickers` omitted: join), so a fill spreads over
 * them; a chunk whose process died is expired by pg-boss (5 minutes) and worked again by the
 * next process that works the queue. Analyzes the cache at the end.
 *
 * @example
 * const summary = await fillCacheOnJobs({ pool: store.pool, db: store.db, tickers, evaluate });
 */
export async function fillCacheOnJobs(options: FillOnJobsOptions): Promise<FillOnJobsSummary> {
  let failure: unknown;
  const boss = await openBoss(options.pool, {
    ...(options.schema ? { schema: options.schema } : {}),
    schedule: false,
    onError: (error) => {
      failure ??= error;
    },
  });
  let evaluated = 0;
  let jobs = 0;
  const failed: FillCacheFailure[] = [];
  try {
    await boss.createQueue(FILL_QUEUE, { policy: 'standard' });
    const tickers = distinct(options.tickers ?? []);
    if (tickers.length > 0) {
      const chunks: { data: { tickers: string[] } }[] = [];
      for (let i = 0; i < tickers.length; i += FILL_CHUNK) {
        chunks.push({ data: { tickers: tickers.slice(i, i + FILL_CHUNK) } });
      }
      await boss.insert(
        FILL_QUEUE,
        chunks.map((chunk) => ({ ...chunk, expireInSeconds: 300, retryLimit: 2 })),
      );
    }
    const worker = async () => {
      for (;;) {
        options.signal?.throwIfAborted();
        const [job] = await boss.fetch<{ tickers: string[] }>(FILL_QUEUE, { batchSize: 1 });
        if (!job) return;
        try {
          const summary = await fillEvaluationCache({
            tickers: job.data.tickers,
            evaluate: options.evaluate,
            db: options.db,
            analyze: false,
            concurrency: 1,
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onProgress
              ? {
                  onProgress: ({ ticker, failure }: FillCacheProgress) =>
                    options.onProgress?.({ ticker, ...(failure ? { failure } : {}) }),
                }
              : {}),
          });
          evaluated += summary.evaluated;
          failed.push(...summary.failed);
          jobs += 1;
          await boss.complete(FILL_QUEUE, job.id);
        } catch (error) {
          await boss.fail(FILL_QUEUE, job.id, {
            message: error instanceof Error ? error.message : String(error),
          });
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
    if (failure) throw failure;
    await createRepositories(options.db).evaluations.analyze();
    return { evaluated, failed, jobs };
  } finally {
    await boss.stop({ graceful: true, close: false, timeout: 30_000 });
  }
}

/** Tickers without duplicates in their normalised spelling (`BF.B` / `bf-b`), in input order. */
function distinct(tickers: readonly string[]): string[] {
  const seen = new Set<string>();
  return tickers.filter((ticker) => {
    // a malformed ticker stays as given: evaluateCompany reports it as invalid_symbol
    const key = normaliseTicker(ticker) ?? ticker;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
