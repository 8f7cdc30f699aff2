import { setTimeout as sleep } from 'node:timers/promises';
import { ANNUAL_FORMS, type SecFilingsClient } from '@svc/fundamentals-client';
import {
  createRepositories,
  type Executor,
  type FoundFiling,
  type SecRefreshRepository,
} from '@svc/portfolio-store';
import { normaliseTicker } from '@svc/schemas';
import { type EvaluateCompanyDeps, evaluateCompany } from '../moat/evaluate-company.js';
import { keepEvaluation } from '../moat/keep-evaluation.js';
import {
  DEFAULT_METHODOLOGY_BATCH,
  type MethodologyRefreshDeps,
  type MethodologyReport,
  rescoreOlderMethodology,
} from './methodology-refresh.js';

/** SEC's fair-access ceiling across every process: one request per 100 ms. */
export const SEC_SHARED_INTERVAL_MS = 100;

/**
 * The budget every process shares for SEC (10 requests a second in total): each request takes
 * the next 100 ms slot in the database (`takeSecSlot`) and waits for it.
 *
 * @example
 * createSecEdgarProvider({ userAgent, acquire: sharedSecBudget(repos.secRefresh) });
 */
export function sharedSecBudget(
  store: Pick<SecRefreshRepository, 'takeSecSlot'>,
  intervalMs = SEC_SHARED_INTERVAL_MS,
): (signal?: AbortSignal) => Promise<void> {
  return async (signal) => {
    const wait = await store.takeSecSlot(intervalMs);
    if (wait > 0) await sleep(wait, undefined, signal ? { signal } : {});
  };
}

/** What {@link runRefreshPass} works with. */
export interface RefreshPassDeps {
  /** SEC's daily form index and ticker map (`createSecFilingsClient`). */
  readonly sec: Pick<SecFilingsClient, 'dailyIndex' | 'tickers'>;
  /** The cursor, the found filings and their leases (`createRepositories(db).secRefresh`). */
  readonly store: Pick<
    SecRefreshRepository,
    | 'addDays'
    | 'latestDay'
    | 'pendingDays'
    | 'dayMissing'
    | 'dayRead'
    | 'settleDay'
    | 'closeMissingDay'
    | 'leaseFiling'
    | 'settleFiling'
  >;
  /** The companies the cache holds (`createRepositories(db).evaluations.symbols`). */
  readonly cachedSymbols: () => Promise<string[]>;
  /** The evaluation's dependencies (fundamentals read fresh, quotes, splits, clock). */
  readonly evaluate: EvaluateCompanyDeps;
  /**
   * The database a filing's outcome is written to, in one transaction: the filing's lock and
   * `done`, and the evaluation kept by `keepEvaluation` (history, event, outbox, cache row).
   */
  readonly db: Executor;
  /**
   * Cached symbols scored by another methodology or reconciled otherwise than the server is
   * configured now (`evaluations.staleSymbols`); given, the pass ends by computing a batch of them
   * again (`rescoreOlderMethodology`, issue 39).
   */
  readonly staleSymbols?: MethodologyRefreshDeps['staleSymbols'];
}

/** Options of {@link runRefreshPass}. */
export interface RefreshPassOptions {
  /** Read this day's index only (YYYY-MM-DD), whatever the cursor says. */
  readonly date?: string;
  /** Days back the cursor starts when it is empty. Default 3. */
  readonly startDaysBack?: number;
  /** A missing day is closed as a holiday once a later day was read and this many days passed. Default 7. */
  readonly holidayGraceDays?: number;
  /** How long a filing's re-evaluation is leased to this process, ms. Default 120,000. */
  readonly leaseMs?: number;
  /** Filings re-evaluated at once by this process. Default 4. */
  readonly concurrency?: number;
  /** Attempts before a filing's re-evaluation is given up (`failed`). Default 3. */
  readonly maxAttempts?: number;
  /** Stale cached evaluations (older methodology, other reconciliation) computed again per pass; 0 none. Default 20. */
  readonly methodologyBatch?: number;
  readonly signal?: AbortSignal;
}

/** A day the pass read, or found missing. */
export interface RefreshDayReport {
  readonly day: string;
  /** `read`: the index was there; `missing`: not yet (tried again next pass); `closed`: a holiday. */
  readonly outcome: 'read' | 'missing' | 'closed';
  readonly httpStatus?: number;
  /** Annual filings in the index (10-K, 10-K/A, 20-F, 40-F). */
  readonly annualFilings?: number;
  /** Of which by companies the cache holds. */
  readonly ofCached?: number;
}

/** A filing this process acted on. */
export interface RefreshFilingReport extends FoundFiling {
  readonly outcome: 'evaluated' | 'failed' | 'retry' | 'skipped';
  /** The new evaluation's total and whether an `evaluation.changed` event was made. */
  readonly totalScore?: number;
  readonly verdict?: string;
  readonly changed?: boolean;
  readonly error?: string;
}

/** What {@link runRefreshPass} found and did. */
export interface RefreshReport {
  readonly days: RefreshDayReport[];
  readonly filings: RefreshFilingReport[];
  /** Cached evaluations of an older methodology or reconciled otherwise that the pass computed again (issue 39). */
  readonly methodology?: MethodologyReport[];
}

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const isWeekday = (day: string) => {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
};

/** Weekdays after `from` (exclusive) through `to` (inclusive), YYYY-MM-DD, oldest first. */
function weekdaysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (
    let t = Date.parse(`${from}T00:00:00Z`) + DAY_MS;
    t <= Date.parse(`${to}T00:00:00Z`);
    t += DAY_MS
  ) {
    const day = dayOf(new Date(t));
    if (isWeekday(day)) out.push(day);
  }
  return out;
}

/**
 * One refresh pass (issue 33): reads SEC's daily form index of every day the cursor has pending
 * (weekdays from the last one known through today; a day whose index is not published yet, 404
 * or 403, stays pending and is read again next pass), records the annual filings (10-K, 10-K/A,
 * 20-F, 40-F) of companies the cache holds, then re-evaluates each found filing's company with
 * fresh fundamentals and keeps the evaluation in the history with the filing that caused it
 * (trigger `filing`): the history row (and its `evaluation.changed` event when it differs), the
 * cache row and the filing's `done` are written in one transaction, after a lock that tells
 * whether another process did it already. Found filings are leased, so several processes share
 * a pass and one killed in the middle leaves nothing half done: its lease runs out and another
 * pass does the filing, once. With `deps.staleSymbols`, the pass ends by computing again up to
 * `methodologyBatch` cached evaluations of an older methodology or another reconciliation setting
 * (`rescoreOlderMethodology`).
 *
 * @example
 * const report = await runRefreshPass(deps, { date: '2025-10-31' });
 * report.filings.filter((f) => f.changed);
 */
export async function runRefreshPass(
  deps: RefreshPassDeps,
  options: RefreshPassOptions = {},
): Promise<RefreshReport> {
  const now = () => deps.evaluate.now();
  const today = dayOf(now());
  const signal = options.signal;
  if (options.date !== undefined) {
    await deps.store.addDays([options.date]);
  } else {
    const latest = await deps.store.latestDay();
    const from = latest ?? dayOf(new Date(now().getTime() - (options.startDaysBack ?? 3) * DAY_MS));
    await deps.store.addDays(weekdaysBetween(from, today));
  }
  const days = await deps.store.pendingDays(options.date);
  const reports: RefreshDayReport[] = [];
  let cikToSymbols: Map<string, string[]> | undefined;
  const cachedByCik = async () => {
    if (cikToSymbols) return cikToSymbols;
    const [tickers, cached] = await Promise.all([deps.sec.tickers(signal), deps.cachedSymbols()]);
    cikToSymbols = new Map();
    for (const symbol of cached) {
      const ticker = normaliseTicker(symbol);
      const cik = ticker === undefined ? undefined : tickers.get(ticker);
      if (cik === undefined) continue;
      cikToSymbols.set(cik, [...(cikToSymbols.get(cik) ?? []), symbol]);
    }
    return cikToSymbols;
  };
  for (const { day } of days) {
    signal?.throwIfAborted();
    const index = await deps.sec.dailyIndex(day, signal);
    if (!index.found) {
      await deps.store.dayMissing(day, index.status, now());
      const closed = await deps.store.closeMissingDay(
        day,
        today,
        options.holidayGraceDays ?? 7,
        now(),
      );
      reports.push({ day, outcome: closed ? 'closed' : 'missing', httpStatus: index.status });
      continue;
    }
    const annual = index.entries.filter((e) =>
      (ANNUAL_FORMS as readonly string[]).includes(e.form),
    );
    const byCik = await cachedByCik();
    const found: FoundFiling[] = annual.flatMap((e) =>
      (byCik.get(e.cik) ?? []).map((symbol) => ({
        accession: e.accession,
        cik: e.cik,
        symbol,
        form: e.form,
        filed: e.filed,
      })),
    );
    await deps.store.dayRead(day, found, now());
    reports.push({
      day,
      outcome: 'read',
      httpStatus: 200,
      annualFilings: annual.length,
      ofCached: found.length,
    });
  }

  const filings: RefreshFilingReport[] = [];
  const worker = async () => {
    for (;;) {
      signal?.throwIfAborted();
      const leased = await deps.store.leaseFiling(now(), options.leaseMs ?? 120_000, options.date);
      if (!leased) return;
      filings.push(await refreshOne(deps, leased, options));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  for (const { day } of await deps.store.pendingDays(options.date)) {
    await deps.store.settleDay(day, now());
  }
  const batch = options.methodologyBatch ?? DEFAULT_METHODOLOGY_BATCH;
  const methodology =
    deps.staleSymbols && batch > 0
      ? await rescoreOlderMethodology(
          { staleSymbols: deps.staleSymbols, evaluate: deps.evaluate, db: deps.db },
          { limit: batch, ...(signal ? { signal } : {}) },
        )
      : [];
  return { days: reports, filings, methodology };
}

async function refreshOne(
  deps: RefreshPassDeps,
  leased: FoundFiling & { attempts: number },
  options: RefreshPassOptions,
): Promise<RefreshFilingReport> {
  const filing: FoundFiling = {
    accession: leased.accession,
    cik: leased.cik,
    symbol: leased.symbol,
    form: leased.form,
    filed: leased.filed,
  };
  const cause = { accession: filing.accession, form: filing.form, filed: filing.filed };
  let evaluation: Awaited<ReturnType<typeof evaluateCompany>>;
  try {
    evaluation = await evaluateCompany(filing.symbol, deps.evaluate, {
      fresh: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const final = leased.attempts >= (options.maxAttempts ?? 3);
    await deps.store.settleFiling(
      filing.accession,
      filing.symbol,
      { state: final ? 'failed' : 'pending', error: message },
      // not final: try again after a short pause (the lease's end is `updated_at`)
      final ? deps.evaluate.now() : new Date(deps.evaluate.now().getTime() + 60_000),
    );
    return { ...filing, outcome: final ? 'failed' : 'retry', error: message };
  }
  return deps.db.transaction().execute(async (trx) => {
    const store = createRepositories(trx).secRefresh;
    if (!(await store.lockPending(filing.accession, filing.symbol))) {
      return { ...filing, outcome: 'skipped' as const };
    }
    const evaluatedAt = deps.evaluate.now();
    const kept = await keepEvaluation(trx, {
      evaluation,
      trigger: 'filing',
      evaluatedAt,
      filing: cause,
    });
    await store.settleFiling(
      filing.accession,
      filing.symbol,
      { state: 'done', historyId: kept.record.id },
      evaluatedAt,
    );
    return {
      ...filing,
      outcome: 'evaluated' as const,
      totalScore: evaluation.totalScore,
      verdict: evaluation.verdict,
      changed: kept.event !== undefined,
    };
  });
}

/**
 * The {@link RefreshPassDeps} over one database: its cursor, cache and history, each filing's
 * outcome written in one transaction of `db`.
 *
 * @example
 * const report = await runRefreshPass(refreshDepsFor(database.db, { sec, evaluate }), {});
 */
export function refreshDepsFor(
  db: Executor,
  parts: Pick<RefreshPassDeps, 'sec' | 'evaluate'>,
): RefreshPassDeps {
  const repos = createRepositories(db);
  return {
    ...parts,
    store: repos.secRefresh,
    cachedSymbols: () => repos.evaluations.symbols(),
    db,
    staleSymbols: (current, limit) => repos.evaluations.staleSymbols(current, limit),
  };
}
