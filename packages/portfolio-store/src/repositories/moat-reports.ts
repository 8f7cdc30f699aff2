import type { Selectable } from 'kysely';
import type { MoatReportsTable } from '../db-types.js';
import { type Executor, iso, isUuid } from './shared.js';

/** A saved report as listed (CONTRACT §4). */
export interface MoatReportSummary {
  id: string;
  symbol: string;
  companyName: string | null;
  totalScore: number | null;
  maxScore: number | null;
  verdict: string | null;
  tags: string[];
  /** ISO-8601. */
  createdAt: string;
}

/** A saved report with its evaluation (`GET /api/moat-reports/{id}`). */
export interface MoatReport extends MoatReportSummary {
  /** The evaluation as saved (parsed JSON). */
  evaluation: Record<string, unknown>;
}

/**
 * A report to save (interface spec 2.6, with `evaluationJson` already parsed by the caller).
 * Missing `companyName`, `totalScore`, `maxScore` and `verdict` are taken from the evaluation
 * when it carries them.
 */
export interface NewMoatReport {
  symbol: string;
  evaluation: Record<string, unknown>;
  companyName?: string | null;
  totalScore?: number | null;
  maxScore?: number | null;
  verdict?: string | null;
  tags?: readonly string[];
  /** When it was saved (ISO-8601); default now. An account import keeps the exported instant. */
  createdAt?: string;
}

/** Normalises tags: trimmed, lower-cased, empty ones dropped, duplicates removed, sorted. */
export function normalizeTags(tags: readonly string[]): string[] {
  const clean = tags.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 0);
  return [...new Set(clean)].sort();
}

function pick<T>(value: unknown, guard: (v: unknown) => v is T): T | null {
  return guard(value) ? value : null;
}
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function toSummary(row: Omit<Selectable<MoatReportsTable>, 'evaluation' | 'user_id'>) {
  return {
    id: row.id,
    symbol: row.symbol,
    companyName: row.company_name,
    totalScore: row.total_score,
    maxScore: row.max_score,
    verdict: row.verdict,
    tags: row.tags,
    createdAt: iso(row.created_at),
  };
}

const SUMMARY_COLUMNS = [
  'id',
  'symbol',
  'company_name',
  'total_score',
  'max_score',
  'verdict',
  'tags',
  'created_at',
] as const;

/** Creates the saved-report repository over `db`. Every query is scoped by the owning user. */
export function createMoatReportsRepository(db: Executor) {
  return {
    /** Saves a report in the user's library; answers its id. Symbols are upper-cased. */
    async create(userId: string, report: NewMoatReport): Promise<{ id: string }> {
      const e = report.evaluation;
      return db
        .insertInto('moat_reports')
        .values({
          user_id: userId,
          symbol: report.symbol.toUpperCase(),
          company_name: report.companyName ?? pick(e.companyName, isString),
          evaluation: JSON.stringify(e),
          total_score: report.totalScore ?? pick(e.totalScore, isNumber),
          max_score: report.maxScore ?? pick(e.maxScore, isNumber),
          verdict: report.verdict ?? pick(e.verdict, isString),
          tags: normalizeTags(report.tags ?? []),
          ...(report.createdAt === undefined ? {} : { created_at: report.createdAt }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    },

    /**
     * The user's reports, newest first; with `tags`, only reports carrying every listed tag
     * (`tags @> $1`, served by the GIN index). Tags are normalised like on save.
     */
    async list(userId: string, options: { tags?: readonly string[] } = {}) {
      const tags = normalizeTags(options.tags ?? []);
      let select = db
        .selectFrom('moat_reports')
        .select(SUMMARY_COLUMNS)
        .where('user_id', '=', userId);
      if (tags.length > 0) select = select.where((eb) => eb('tags', '@>', eb.val(tags)));
      const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toSummary) satisfies MoatReportSummary[];
    },

    /** Every report of the user with its evaluation, oldest first (an account export). */
    async listAll(userId: string): Promise<MoatReport[]> {
      const rows = await db
        .selectFrom('moat_reports')
        .select([...SUMMARY_COLUMNS, 'evaluation'])
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ ...toSummary(row), evaluation: row.evaluation }));
    },

    /** One report of the user with its evaluation, or undefined (also for another user's). */
    async get(userId: string, reportId: string): Promise<MoatReport | undefined> {
      if (!isUuid(reportId)) return undefined;
      const row = await db
        .selectFrom('moat_reports')
        .select([...SUMMARY_COLUMNS, 'evaluation'])
        .where('id', '=', reportId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && { ...toSummary(row), evaluation: row.evaluation };
    },

    /** Deletes a report of the user. Answers whether one was deleted. */
    async delete(userId: string, reportId: string): Promise<boolean> {
      if (!isUuid(reportId)) return false;
      const result = await db
        .deleteFrom('moat_reports')
        .where('id', '=', reportId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

/** The saved-report repository (see {@link createMoatReportsRepository}). */
export type MoatReportsRepository = ReturnType<typeof createMoatReportsRepository>;
