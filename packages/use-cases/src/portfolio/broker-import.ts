import {
  ColumnMapping,
  checkMapping,
  type DerivedPortfolio,
  fingerprintRows,
  headerSet,
  headerSetKey,
  type ImportPlan,
  type LedgerTransaction,
  parseBrokerCsv,
  planImport,
} from '@svc/portfolio';
import {
  createRepositories,
  type Executor,
  type SavedImportMapping,
  type Transaction as StoredTransaction,
} from '@svc/portfolio-store';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { changeLedger, namesOf } from './change-ledger.js';
import type { ChangeContext } from './changes.js';
import { ISIN_PATTERN, type IsinResolver } from './isin-symbols.js';
import { encodeTransaction, toLedgerTransaction } from './ledger-codec.js';
import type { MarketInputsDeps } from './market-inputs.js';
import { money } from './position-records.js';
import {
  BrokerImportOptions,
  type ImportLine,
  type ImportResult,
  type MappingChecks,
} from './schemas.js';

/** What {@link previewBrokerImport} reads: the database only. */
export interface BrokerImportPreviewDeps {
  readonly db: Executor;
  /**
   * Maps instruments the export names by ISIN to quote symbols (`ISIN_SYMBOLS_FILE`); unknown
   * ISINs, and every ISIN without a resolver, stay the symbol. Applied after fingerprinting, so a
   * re-import after the table changed still finds its rows.
   */
  readonly isinSymbols?: IsinResolver;
}

/** What {@link importBrokerFile} needs: the database, the market data and the clock. */
export interface BrokerImportDeps
  extends BrokerImportPreviewDeps,
    Omit<MarketInputsDeps, 'marketData'> {
  readonly now: () => Date;
}

/**
 * Who imports (`ChangeContext`), and, for a confirmed proposal, how many new rows its summary
 * counted: when the file would now import another number (the ledger changed since), the import
 * is refused (`conflict`); a file whose rows are all present already imports nothing, as always.
 */
export interface ImportContext extends ChangeContext {
  readonly expectedNewRows?: number;
}

type ParsedOk = Extract<ReturnType<typeof parseBrokerCsv>, { ok: true }>;
type PlanOk = Extract<ImportPlan, { ok: true }>;

/**
 * The dry run of a broker import (`?dryRun=1`): what importing `text` into the portfolio would do
 * — the rows the file yields, how many the portfolio already holds, the rows skipped, adjusted or
 * failing (with their lines), and the holdings and cash after — without writing anything. Failing
 * rows are answered in `failed`, not thrown. The advisor's proposed import calls this too.
 *
 * @throws UseCaseError `validation_failed` for bad options; `not_found` (portfolio).
 */
export async function previewBrokerImport(
  deps: BrokerImportPreviewDeps,
  userId: string,
  portfolioId: string,
  text: string,
  options: BrokerImportOptions = {},
): Promise<ImportResult> {
  const settings = readOptions(options);
  const repos = createRepositories(deps.db);
  await requirePortfolio(repos, userId, portfolioId);
  const { parsed, saved, mapping } = await parseWithSaved(repos, userId, text, settings);
  const savedMapping = {
    ...(saved ? { savedMapping: { id: saved.id, used: true, saved: false } } : {}),
    ...(mapping ? { mappingChecks: mappingChecks(text, mapping, settings) } : {}),
  };
  if (!parsed.ok) {
    const failed = { ...failedResult(parsed.format ?? 'mapped', parsed.errors), ...savedMapping };
    return parsed.proposal ? { ...failed, proposal: parsed.proposal } : failed;
  }
  const stored = await repos.transactions.listAll(userId, portfolioId);
  const attempt = await planAgainst(repos, userId, portfolioId, stored, parsed, settings, deps);
  if (!attempt.plan.ok) {
    return { ...failedResult(parsed.format, attempt.plan.errors, parsed), ...savedMapping };
  }
  return {
    ...toResult(parsed, attempt.plan, attempt.names, { dryRun: true, importBatchId: null }),
    ...savedMapping,
  };
}

/**
 * Imports a broker export (every format of `BROKER_FORMATS`), all or nothing, as one
 * `changeLedger`: market data fetched first (for a first plan against the committed ledger),
 * then ONE database transaction that locks the portfolio, plans again against the ledger read
 * under the lock, drops the rows whose fingerprint it already holds, stores the rest and
 * replaces the derived holdings and cash (valued in EUR): a crash at any point leaves either the
 * whole import or none of it. Importing the same file again stores nothing and answers
 * `alreadyPresent`.
 * With `dryRun` it is {@link previewBrokerImport}.
 *
 * @throws UseCaseError `validation_failed` with `errors: [{ path: 'line N', message }]` for every
 *   failing row, or `errors: [{ path: 'mapping.checks.<id>', message }]` when the result of a
 *   given or saved column mapping fails a check and `confirmMapping` is not set (nothing stored);
 *   `not_found` (portfolio).
 */
export async function importBrokerFile(
  deps: BrokerImportDeps,
  userId: string,
  portfolioId: string,
  text: string,
  options: BrokerImportOptions = {},
  context: ImportContext = {},
): Promise<ImportResult> {
  const settings = readOptions(options);
  if (settings.dryRun) return previewBrokerImport(deps, userId, portfolioId, text, settings);
  const repos = createRepositories(deps.db);
  await requirePortfolio(repos, userId, portfolioId);
  const { parsed, saved, mapping } = await parseWithSaved(repos, userId, text, settings);
  if (!parsed.ok) throw failure(parsed.errors);
  // a given or a saved mapping: its result is checked before anything is stored
  if (mapping && !settings.confirmMapping) refuseDoubtful(mappingChecks(text, mapping, settings));
  const { result } = await changeLedger(deps, userId, portfolioId, {
    breaks: { path: 'file' },
    inputPath: 'file',
    guard: context.guard,
    // a first plan outside the transaction tells which quotes and rates to fetch
    project: async (before) => {
      const draft = await planAgainst(repos, userId, portfolioId, before, parsed, settings, deps);
      if (!draft.plan.ok) throw failure(draft.plan.errors);
      return [
        ...draft.ledger,
        ...draft.plan.transactions.map((p, i) => ({ ...p.transaction, id: `new:${i}` })),
      ];
    },
    write: async (unit, before) => {
      const { plan, names } = await planAgainst(
        unit.repos,
        userId,
        portfolioId,
        before,
        parsed,
        settings,
        deps,
      );
      if (!plan.ok) throw failure(plan.errors);
      const expected = context.expectedNewRows;
      if (expected !== undefined && plan.transactions.length > 0) {
        if (plan.transactions.length !== expected) {
          throw new UseCaseError(
            'conflict',
            `the file would now import ${plan.transactions.length} transaction(s), not the ${expected} counted before; nothing was written`,
          );
        }
      }
      const rows = plan.transactions.map((p) => ({
        ...encodeTransaction(p.transaction),
        fingerprint: p.fingerprint,
        name: p.name ?? null,
      }));
      const written =
        rows.length === 0
          ? { inserted: [], importBatchId: null }
          : await unit.writes.insert(userId, portfolioId, rows, {
              kind: 'import',
              source: context.source ?? 'rest',
              summary: `Imported ${rows.length} transaction(s) from a ${parsed.format} file`,
            });
      const after = [...before, ...written.inserted];
      const result = toResult(parsed, plan, names, {
        dryRun: false,
        importBatchId: written.importBatchId,
      });
      // A confirmed mapping is saved with the import it read, in the same transaction.
      const header = settings.mapping && settings.saveMapping ? headerSet(text) : undefined;
      if (settings.mapping && header !== undefined) {
        const stored = await unit.repos.importMappings.save(userId, {
          headerKey: header.key,
          headers: header.names,
          mapping: settings.mapping,
        });
        return {
          result: { ...result, savedMapping: { id: stored.id, used: false, saved: true } },
          after,
        };
      }
      const used = saved && { savedMapping: { id: saved.id, used: true, saved: false } };
      return { result: used ? { ...result, ...used } : result, after };
    },
  });
  return result;
}

type Settings = z.output<typeof BrokerImportOptions>;

function readOptions(options: BrokerImportOptions): Settings {
  const parsed = BrokerImportOptions.safeParse(options);
  if (parsed.success) return parsed.data;
  throw new UseCaseError('validation_failed', 'invalid import options', {
    errors: parsed.error.issues.map((i) => ({
      path: i.path.map(String).join('.') || 'options',
      message: i.message,
    })),
  });
}

function parse(text: string, settings: Settings, mapping = settings.mapping) {
  return parseBrokerCsv(text, {
    format: settings.format,
    ...(settings.accountCurrency ? { accountCurrency: settings.accountCurrency } : {}),
    ...(mapping ? { mapping } : {}),
  });
}

/**
 * Parses the file; when no format reads it and no mapping was given, with the mapping the user
 * saved for its header set (`headerSetKey`), if any. A saved mapping that no longer validates is
 * ignored (the file then fails as unknown, with a proposed mapping).
 */
async function parseWithSaved(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  text: string,
  settings: Settings,
): Promise<{
  parsed: ReturnType<typeof parseBrokerCsv>;
  saved?: SavedImportMapping;
  /** The mapping the file was read with: the given one, else the saved one. */
  mapping?: ColumnMapping;
}> {
  const parsed = parse(text, settings);
  if (parsed.ok || parsed.format !== undefined || settings.mapping || settings.format !== 'auto') {
    return settings.mapping ? { parsed, mapping: settings.mapping } : { parsed };
  }
  const headerKey = headerSetKey(text);
  const saved =
    headerKey === undefined ? undefined : await repos.importMappings.find(userId, headerKey);
  const mapping = saved ? ColumnMapping.safeParse(saved.mapping) : undefined;
  if (!saved || !mapping?.success) return { parsed };
  return { parsed: parse(text, settings, mapping.data), saved, mapping: mapping.data };
}

async function requirePortfolio(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
): Promise<void> {
  if ((await repos.portfolios.get(userId, portfolioId)) === undefined) {
    throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
  }
}

/** The rows with their ISIN symbols replaced by the resolver's quote symbols (names kept). */
function resolveIsins<
  R extends { transaction: { symbol?: string | undefined }; name?: string | undefined },
>(rows: R[], resolver: IsinResolver | undefined): R[] {
  if (!resolver) return rows;
  return rows.map((row) => {
    const isin = row.transaction.symbol;
    if (isin === undefined || !ISIN_PATTERN.test(isin)) return row;
    const symbol = resolver.symbolOf(isin);
    return symbol === undefined
      ? row
      : { ...row, name: row.name ?? isin, transaction: { ...row.transaction, symbol } };
  });
}

async function planAgainst(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  stored: readonly StoredTransaction[],
  parsed: ParsedOk,
  settings: Settings,
  deps: { readonly isinSymbols?: IsinResolver | undefined },
): Promise<{ plan: ImportPlan; names: Map<string, string>; ledger: LedgerTransaction[] }> {
  const rows = resolveIsins(fingerprintRows(parsed.format, parsed.rows), deps.isinSymbols);
  const ledger = stored.map(toLedgerTransaction);
  const names = namesOf(stored);
  const present = await repos.transactions.presentFingerprints(
    userId,
    portfolioId,
    rows.map((r) => r.fingerprint),
  );
  const plan = planImport({
    existing: ledger,
    existingFingerprints: present,
    rows,
    oversell: settings.oversell,
  });
  for (const row of rows)
    if (row.name && !names.has(row.transaction.symbol ?? '')) {
      if (row.transaction.symbol) names.set(row.transaction.symbol, row.name);
    }
  return { plan, names, ledger };
}

/** The checks of the import `mapping` makes of `text` (see `checkMapping`). */
function mappingChecks(text: string, mapping: ColumnMapping, settings: Settings): MappingChecks {
  const verdict = checkMapping(text, mapping, {
    ...(settings.accountCurrency ? { accountCurrency: settings.accountCurrency } : {}),
  });
  return { acceptable: verdict.acceptable, checks: verdict.checks, needs: verdict.questions };
}

/**
 * Refuses a real import whose mapping failed a check, naming each failed check and its question:
 * holdings with reason for doubt are never stored unless the user confirms (`confirmMapping`).
 */
function refuseDoubtful(checks: MappingChecks): void {
  if (checks.acceptable) return;
  const failed = checks.checks.filter((c) => !c.passed);
  throw new UseCaseError(
    'validation_failed',
    `the mapping's result is in doubt (${failed.map((c) => c.id).join(', ')}): answer its questions and correct the mapping, or confirm it with confirmMapping`,
    {
      errors: failed.map((c) => ({
        path: `mapping.checks.${c.id}`,
        message: [c.detail, checks.needs.find((n) => n.check === c.id)?.question]
          .filter(Boolean)
          .join(' — '),
      })),
    },
  );
}

function failure(errors: readonly ImportLine[]): UseCaseError {
  return new UseCaseError('validation_failed', 'the file has rows that cannot be imported', {
    errors: errors.map((e) => ({ path: `line ${e.line}`, message: e.message })),
  });
}

function failedResult(
  format: ImportResult['format'],
  failed: readonly ImportLine[],
  parsed?: ParsedOk,
): ImportResult {
  return {
    format,
    dryRun: true,
    rows: parsed?.rows.length ?? 0,
    imported: 0,
    alreadyPresent: 0,
    skipped: parsed?.skipped ?? [],
    warnings: [],
    failed: [...failed],
    holdings: [],
    cash: [],
    importBatchId: null,
  };
}

function toResult(
  parsed: ParsedOk,
  plan: PlanOk,
  names: ReadonlyMap<string, string>,
  extra: { dryRun: boolean; importBatchId: string | null },
): ImportResult {
  const after: DerivedPortfolio = plan.after;
  return {
    format: parsed.format,
    dryRun: extra.dryRun,
    rows: parsed.rows.length,
    imported: plan.transactions.length,
    alreadyPresent: plan.alreadyPresent,
    skipped: [...parsed.skipped, ...plan.duplicates].sort((a, b) => a.line - b.line),
    warnings: plan.warnings,
    failed: [],
    holdings: after.holdings.map((h) => ({
      symbol: h.symbol,
      name: names.get(h.symbol) ?? h.symbol,
      currency: h.currency,
      quantity: h.quantity,
      averageCost: h.averageCost,
      costBasis: money(h.costBasis) ?? h.costBasis,
    })),
    cash: after.cash.map((c) => ({ currency: c.currency, amount: money(c.amount) ?? c.amount })),
    importBatchId: extra.importBatchId,
  };
}
