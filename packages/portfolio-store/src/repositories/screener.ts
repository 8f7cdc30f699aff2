import { CompiledQuery, type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../db-types.js';
import { StoreError } from '../errors.js';
import { prepareStatement } from '../prepared-statements.js';
import { type Executor, iso } from './shared.js';

/** Sort keys of the screener (interface spec 4.2). */
export type ScreenerSortBy = 'score' | 'symbol' | 'pe' | 'marketCap';

/** Filters, sort and page of the screener (interface spec 4.2). Bounds are inclusive. */
export interface ScreenerQuery {
  /** Total score bounds (0..100). */
  scoreMin?: number;
  scoreMax?: number;
  /** Exact verdict label. */
  verdict?: string;
  /** Exact sector. */
  sector?: string;
  /** Exact industry. */
  industry?: string;
  /** P/E bounds; rows without a P/E are excluded when a bound is set. */
  peMin?: number;
  peMax?: number;
  /** Market capitalisation bounds in USD (number or decimal string). */
  marketCapMin?: number | string;
  marketCapMax?: number | string;
  /**
   * Bounds on the change of the total score since the symbol's previous evaluation (points, may
   * be negative); rows evaluated only once are excluded when a bound is set.
   */
  minScoreChange?: number;
  maxScoreChange?: number;
  /** Default `score`. */
  sortBy?: ScreenerSortBy;
  /** Default `desc` for `score` and `marketCap`, `asc` for `symbol` and `pe`. Nulls sort last. */
  sortDir?: 'asc' | 'desc';
  /** 1-based; default 1. */
  page?: number;
  /** 1 to 100; default 20. */
  limit?: number;
}

/** A screener row (CONTRACT §4). */
export interface ScreenerRow {
  symbol: string;
  companyName: string;
  sector: string | null;
  industry: string | null;
  totalScore: number;
  maxScore: number;
  verdict: string;
  peRatio: number | null;
  /** USD; decimal string. */
  marketCap: string | null;
  /** ISO-8601. */
  cachedAt: string;
  /** Total score minus the previous evaluation's; null when evaluated once. */
  scoreChange: number | null;
  /** How many data-quality flags the evaluation carries (`dataQuality`, issue 39); 0 when none. */
  dataQualityFlags: number;
  /**
   * The distinct codes of those flags, sorted (`provider_mismatch`, `ppe_rollforward`, …; issue
   * 39), so a row says what kind of doubt it carries; `[]` when none.
   */
  dataQualityCodes: string[];
}

/** A screener page (CONTRACT §4). */
export interface ScreenerPage {
  items: ScreenerRow[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

/** Statistics of the evaluation cache (`action=meta`, CONTRACT §4). */
export interface ScreenerMeta {
  count: number;
  /** ISO-8601 of the newest `cachedAt`; null when the cache is empty. */
  lastUpdatedAt: string | null;
  /** Row count per verdict label. */
  verdicts: Record<string, number>;
  /** Row count per sector (rows without a sector omitted), largest first. */
  sectors: { sector: string; count: number }[];
  /** Lowest and highest total score; null when the cache is empty. */
  scoreRange: { min: number | null; max: number | null };
}

/** Maximum page size (CONTRACT §4). */
export const SCREENER_MAX_LIMIT = 100;

const SORT_COLUMNS = {
  score: 'total_score',
  symbol: 'symbol',
  pe: 'pe_ratio',
  marketCap: 'market_cap',
} as const;

const DEFAULT_DIRECTION: Record<ScreenerSortBy, 'asc' | 'desc'> = {
  score: 'desc',
  symbol: 'asc',
  pe: 'asc',
  marketCap: 'desc',
};

type CacheQuery = SelectQueryBuilder<DB, 'evaluation_cache', object>;

function positiveInteger(value: number | undefined, fallback: number, max: number, name: string) {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new StoreError('invalid_input', `${name} must be an integer from 1 to ${max}`);
  }
  return n;
}

/** A filter of {@link ScreenerQuery}. */
type FilterKey =
  | 'scoreMin'
  | 'scoreMax'
  | 'verdict'
  | 'sector'
  | 'industry'
  | 'peMin'
  | 'peMax'
  | 'marketCapMin'
  | 'marketCapMax'
  | 'minScoreChange'
  | 'maxScoreChange';

const cap = (eb: ExpressionBuilder<DB, 'evaluation_cache'>, value: number | string) =>
  eb.cast<string>(eb.val(String(value)), 'numeric');

/** The condition of each filter, in the order the conditions are written (bounds inclusive). */
const FILTERS: Record<FilterKey, (s: CacheQuery, value: number | string) => CacheQuery> = {
  scoreMin: (s, v) => s.where('total_score', '>=', v as number),
  scoreMax: (s, v) => s.where('total_score', '<=', v as number),
  verdict: (s, v) => s.where('verdict', '=', v as string),
  sector: (s, v) => s.where('sector', '=', v as string),
  industry: (s, v) => s.where('industry', '=', v as string),
  peMin: (s, v) => s.where('pe_ratio', '>=', v as number),
  peMax: (s, v) => s.where('pe_ratio', '<=', v as number),
  marketCapMin: (s, v) => s.where((eb) => eb('market_cap', '>=', cap(eb, v))),
  marketCapMax: (s, v) => s.where((eb) => eb('market_cap', '<=', cap(eb, v))),
  minScoreChange: (s, v) => s.where('score_change', '>=', v as number),
  maxScoreChange: (s, v) => s.where('score_change', '<=', v as number),
};
const FILTER_KEYS = Object.keys(FILTERS) as FilterKey[];

/** Whether a filter applies: a bound when given, an exact text when non-empty. */
function isSet(q: ScreenerQuery, key: FilterKey): boolean {
  return key === 'verdict' || key === 'sector' || key === 'industry'
    ? Boolean(q[key])
    : q[key] !== undefined;
}

function applyFilters(select: CacheQuery, q: ScreenerQuery): CacheQuery {
  return FILTER_KEYS.filter((key) => isSet(q, key)).reduce(
    (s, key) => FILTERS[key](s, q[key] as number | string),
    select,
  );
}

/**
 * The statement that {@link ScreenerRepository.screen} runs for a page: the filtered rows in the
 * requested order, ties by symbol ascending, nulls last, with the count of every match as column
 * `total` (a scalar subquery, run once). Exposed so that its plan can be inspected (`EXPLAIN`).
 *
 * Not `count(*) over ()`: a window must read and sort every matching row, where the page alone is
 * read in the order of its sort index (migration 0009) and stops after `offset + limit` rows
 * (about 9 times the statements per second of the window form at 20 connections, see the API
 * README). One round trip still: PGlite serves one query at a time, so a second count query
 * doubled the screener's latency under load.
 *
 * @throws {StoreError} `invalid_input` for `page` < 1 or `limit` outside 1..100.
 */
export function screenerPageStatement(
  db: Executor,
  query: ScreenerQuery = {},
): CompiledQuery<PageRow> {
  const page = positiveInteger(query.page, 1, Number.MAX_SAFE_INTEGER, 'page');
  const limit = positiveInteger(query.limit, 20, SCREENER_MAX_LIMIT, 'limit');
  const sortBy = query.sortBy ?? 'score';
  const direction = query.sortDir ?? DEFAULT_DIRECTION[sortBy];
  const given = FILTER_KEYS.filter((key) => isSet(query, key));
  const shape = `${sortBy} ${direction} ${given.join(',')}`;
  let template = templates.get(shape);
  if (template === undefined) {
    template = pageTemplate(db, given, sortBy, direction);
    templates.set(shape, template);
  }
  const value = (slot: Slot): unknown => {
    if (slot === 'limit') return limit;
    if (slot === 'offset') return (page - 1) * limit;
    const v = query[slot];
    return slot === 'marketCapMin' || slot === 'marketCapMax' ? String(v) : v;
  };
  return CompiledQuery.raw(template.sql, template.slots.map(value)) as CompiledQuery<PageRow>;
}

/** A row of {@link screenerPageStatement}: the screener columns and the count of all matches. */
interface PageRow {
  symbol: string;
  company_name: string;
  sector: string | null;
  industry: string | null;
  total_score: number;
  max_score: number;
  verdict: string;
  pe_ratio: number | null;
  market_cap: string | null;
  cached_at: Date;
  score_change: number | null;
  data_quality_flags: number;
  data_quality_codes: unknown;
  total: string;
}

/** What a parameter of a page statement carries. */
type Slot = FilterKey | 'limit' | 'offset';

/**
 * The SQL of one shape of page statement (sort, direction, the filters given) and which value
 * each of its parameters takes: built once with Kysely, so a request only fills in its values
 * (building and compiling the statement was the largest part of the screener's own CPU after
 * the database). At most 4 sorts × 2 directions × 2^11 filter sets.
 */
interface PageTemplate {
  readonly sql: string;
  readonly slots: readonly Slot[];
}

const templates = new Map<string, PageTemplate>();

/** A parameter value that stands for its slot while the template is compiled. */
const PLACEHOLDER = '\u0000slot:';
const placeholder = (slot: Slot) => `${PLACEHOLDER}${slot}`;

function pageTemplate(
  db: Executor,
  given: readonly FilterKey[],
  sortBy: ScreenerSortBy,
  direction: 'asc' | 'desc',
): PageTemplate {
  const stand = Object.fromEntries(given.map((key) => [key, placeholder(key)])) as ScreenerQuery;
  const compiled = applyFilters(db.selectFrom('evaluation_cache'), stand)
    .select((eb) => [
      'symbol',
      'company_name',
      'sector',
      'industry',
      'total_score',
      'max_score',
      'verdict',
      'pe_ratio',
      'market_cap',
      'cached_at',
      'score_change',
      // columns written with the evaluation: reading them from the JSON detoasted every row
      'data_quality_flags',
      'data_quality_codes',
      applyFilters(eb.selectFrom('evaluation_cache'), stand)
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .$asScalar()
        .as('total'),
    ])
    .orderBy(SORT_COLUMNS[sortBy], (ob) =>
      direction === 'asc' ? ob.asc().nullsLast() : ob.desc().nullsLast(),
    )
    .orderBy('symbol', 'asc')
    .limit(placeholder('limit') as unknown as number)
    .offset(placeholder('offset') as unknown as number)
    .compile();
  const slots = compiled.parameters.map((parameter) => {
    const slot =
      typeof parameter === 'string' && parameter.startsWith(PLACEHOLDER)
        ? parameter.slice(PLACEHOLDER.length)
        : undefined;
    if (slot === undefined) throw new Error(`screener template: unexpected parameter ${parameter}`);
    return slot as Slot;
  });
  // Planned once per connection: the plan costs as much as the run (prepareStatement).
  prepareStatement(compiled.sql);
  return { sql: compiled.sql, slots };
}

/** The flag codes of a row: the driver hands jsonb over parsed (pg) or, on some paths, as text. */
function codesOf(raw: unknown): string[] {
  const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  return Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : [];
}

/** Creates the screener over the evaluation cache. */
export function createScreenerRepository(db: Executor) {
  return {
    /**
     * Filters, sorts and pages the evaluation cache in SQL ({@link screenerPageStatement}), with
     * the total count of matches. Ties sort by symbol ascending.
     * @throws {StoreError} `invalid_input` for `page` < 1 or `limit` outside 1..100, or a
     *   malformed market-cap bound.
     */
    async screen(query: ScreenerQuery = {}): Promise<ScreenerPage> {
      const page = positiveInteger(query.page, 1, Number.MAX_SAFE_INTEGER, 'page');
      const limit = positiveInteger(query.limit, 20, SCREENER_MAX_LIMIT, 'limit');
      const statement = screenerPageStatement(db, query);
      try {
        const { rows } = await db.executeQuery(statement);
        // A page past the end has no row to carry the count: count separately then only.
        const counted =
          rows[0] ??
          (page === 1
            ? { total: '0' }
            : await applyFilters(db.selectFrom('evaluation_cache'), query)
                .select((eb) => eb.fn.countAll<string>().as('total'))
                .executeTakeFirstOrThrow());
        const total = Number(counted.total);
        return {
          items: rows.map((r) => ({
            symbol: r.symbol,
            companyName: r.company_name,
            sector: r.sector,
            industry: r.industry,
            totalScore: r.total_score,
            maxScore: r.max_score,
            verdict: r.verdict,
            peRatio: r.pe_ratio,
            marketCap: r.market_cap,
            cachedAt: iso(r.cached_at),
            scoreChange: r.score_change,
            dataQualityFlags: Number(r.data_quality_flags),
            dataQualityCodes: codesOf(r.data_quality_codes),
          })),
          page,
          limit,
          total,
          totalPages: Math.ceil(total / limit),
        };
      } catch (error) {
        if ((error as { code?: unknown }).code === '22P02') {
          throw new StoreError('invalid_input', 'malformed market-cap bound', { cause: error });
        }
        throw error;
      }
    },

    /** Statistics of the whole cache for `action=meta`. */
    async meta(): Promise<ScreenerMeta> {
      const [summary, verdicts, sectors] = await Promise.all([
        db
          .selectFrom('evaluation_cache')
          .select((eb) => [
            eb.fn.countAll<string>().as('count'),
            eb.fn.max('cached_at').as('last'),
            eb.fn.min('total_score').as('min'),
            eb.fn.max('total_score').as('max'),
          ])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('evaluation_cache')
          .select(['verdict', (eb) => eb.fn.countAll<string>().as('count')])
          .groupBy('verdict')
          .orderBy('verdict')
          .execute(),
        db
          .selectFrom('evaluation_cache')
          .select([sql<string>`sector`.as('sector'), (eb) => eb.fn.countAll<string>().as('count')])
          .where('sector', 'is not', null)
          .groupBy('sector')
          .orderBy(sql`count(*)`, 'desc')
          .orderBy('sector')
          .execute(),
      ]);
      return {
        count: Number(summary.count),
        lastUpdatedAt: summary.last ? iso(summary.last) : null,
        verdicts: Object.fromEntries(verdicts.map((v) => [v.verdict, Number(v.count)])),
        sectors: sectors.map((s) => ({ sector: s.sector, count: Number(s.count) })),
        scoreRange: { min: summary.min, max: summary.max },
      };
    },
  };
}

/** The screener (see {@link createScreenerRepository}). */
export type ScreenerRepository = ReturnType<typeof createScreenerRepository>;
