import { PgBoss } from 'pg-boss';

/** The pg-boss queue of the refresh pass (issue 33). */
export const REFRESH_QUEUE = 'refresh-pass';

/** What runs the jobs: a node-postgres pool (or PGlite's pool of one, see `createDatabase`). */
export interface JobsPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss starts under way per pool: one at a time (see {@link openBoss}). */
const starting = new WeakMap<JobsPool, Promise<unknown>>();

/**
 * A started pg-boss over `pool`. Starts on one pool are serialised within the process: on the
 * embedded database the pool is one connection, and two starts (each creating or checking
 * pg-boss's schema in a transaction) interleaved on it would abort each other.
 */
export async function openBoss(
  pool: JobsPool,
  options: { schema?: string; schedule: boolean; onError?: (error: unknown) => void },
): Promise<PgBoss> {
  const boss = new PgBoss({
    db: {
      executeSql: async (text: string, values?: unknown[]) =>
        pool.query(text, values ?? []) as never,
    },
    schema: options.schema ?? 'pgboss',
    schedule: options.schedule,
    supervise: true,
  });
  boss.on('error', (error: unknown) => options.onError?.(error));
  const previous = starting.get(pool) ?? Promise.resolve();
  const started = previous.catch(() => undefined).then(() => boss.start());
  starting.set(pool, started);
  await started;
  return boss;
}

/** Options of {@link startJobs}. */
export interface JobsOptions {
  /** The database's pool (`Database['pool']`). */
  readonly pool: JobsPool;
  /** PostgreSQL schema of pg-boss's tables. Default `pgboss`. */
  readonly schema?: string;
  /**
   * `REFRESH_SCHEDULE`: a cron expression (UTC) on which the refresh pass is queued, once however
   * many processes run; null (`off`) unschedules it; undefined leaves the shared schedule as
   * the other processes set it (a process that cannot run a pass, having no `SEC_USER_AGENT`).
   */
  readonly refreshSchedule: string | null | undefined;
  /** Runs one refresh pass (for `date`, YYYY-MM-DD, when the job names one). */
  readonly refresh?: (date: string | undefined) => Promise<unknown>;
  /** Seconds between polls for a queued job. Default 10. */
  readonly pollingIntervalSeconds?: number;
  /** A job's or pg-boss's error (logged by the caller; the jobs go on). */
  readonly onError?: (error: unknown) => void;
}

/** The job queue of a process (see {@link startJobs}). */
export interface Jobs {
  /** The pg-boss instance (its queues, schedules and maintenance). */
  readonly boss: PgBoss;
  /** Queues one refresh pass now; the id of the job, or null when one is already queued. */
  queueRefresh(date?: string): Promise<string | null>;
  /**
   * Stops taking jobs, waits for the one under way (at most `timeoutMs`, default 30,000 ms; at
   * least 1,000, pg-boss's floor: a job still running then is left to pg-boss's retry), and stops
   * pg-boss (the pool stays open).
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the service's jobs on pg-boss over the service's own database (PostgreSQL, or the
 * embedded PGlite through its node-postgres adapter: pg-boss takes the pool as its `db`): the
 * refresh pass in a `singleton` queue (one pass at a time across every process), queued on
 * `REFRESH_SCHEDULE` by pg-boss's cron (its schedule is kept in the database and sent once
 * however many processes run), worked by every process that gives `refresh`. pg-boss creates
 * and migrates its schema on start.
 *
 * @example
 * const jobs = await startJobs({ pool: database.pool, refreshSchedule: '30 6 * * *', refresh: (date) => runRefreshPass(deps, { date }) });
 * await jobs.stop();
 */
export async function startJobs(options: JobsOptions): Promise<Jobs> {
  const boss = await openBoss(options.pool, {
    ...(options.schema ? { schema: options.schema } : {}),
    schedule: true,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  await boss.createQueue(REFRESH_QUEUE, { policy: 'singleton' });
  if (options.refreshSchedule) {
    await boss.schedule(REFRESH_QUEUE, options.refreshSchedule, {}, { tz: 'UTC' });
  } else if (options.refreshSchedule === null) {
    await boss.unschedule(REFRESH_QUEUE);
  }
  if (options.refresh) {
    const refresh = options.refresh;
    await boss.work<{ date?: string }>(
      REFRESH_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 10 },
      async ([job]) => {
        try {
          await refresh(job?.data?.date);
        } catch (error) {
          options.onError?.(error);
          throw error; // pg-boss retries the job
        }
      },
    );
  }
  return {
    boss,
    queueRefresh: (date) => boss.send(REFRESH_QUEUE, date ? { date } : {}),
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, close: false, timeout: timeoutMs });
    },
  };
}
