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
import { createRepositories, type Executor, type SavedImportMapping } from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import type { ChangeContext } from './changes.js';
import { utcDay } from './decimal-text.js';
import { type InstrumentHint, type InstrumentResolver, instrumentSymbol } from './instruments.js';
import { ISIN_PATTERN, type IsinResolver } from './isin-symbols.js';
import { deriveChecked, fromStoreError, readLedgerWithNames } from './ledger.js';
import { encodeTransaction } from './ledger-codec.js';
import { gatherMarketInputs, historicEurRates, type MarketInputsDeps } from './market-inputs.js';
import { money } from './position-records.js';
import { storeValuation } from './revaluation.js';
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
  /**
   * Resolves each instrument the file names (issue 38: the export's ISIN and ticker, the user's
   * assignment, OpenFIGI, SEC, the offline file); its transactions are stored under the
   * instrument's symbol (the ticker when known) with the instrument. Without it, only
   * `isinSymbols` applies and rows are stored without an instrument.
   */
  readonly instruments?: InstrumentResolver;
}

/** What {@link importBrokerFile} needs: the database, the market data and the clock. */
export interface BrokerImportDeps
  extends BrokerImportPreviewDeps,
    Omit<MarketInputsDeps, 'marketData'> {
  readonly now: () => Date;
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
  const resolved = await resolveRows(deps, userId, parsed);
  const attempt = await planAgainst(repos, userId, portfolioId, resolved, settings);
  if (!attempt.plan.ok) {
    return { ...failedResult(parsed.format, attempt.plan.errors, parsed), ...savedMapping };
  }
  return {
    ...toResult(parsed, attempt.plan, attempt.names, { dryRun: true, importBatchId: null }),
    ...savedMapping,
  };
}

/**
 * Imports a broker export (every format of `BROKER_FORMATS`), all or nothing, in ONE database
 * transaction that locks the portfolio, drops the rows whose fingerprint it already holds,
 * stores the rest and replaces the derived holdings and cash (valued in EUR): a crash at any
 * point leaves either the whole import or none of it. Importing the same file again stores
 * nothing and answers `alreadyPresent`. Market data is fetched before the transaction.
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
  context: ChangeContext = {},
): Promise<ImportResult> {
  const settings = readOptions(options);
  if (settings.dryRun) return previewBrokerImport(deps, userId, portfolioId, text, settings);
  const repos = createRepositories(deps.db);
  await requirePortfolio(repos, userId, portfolioId);
  const { parsed, saved, mapping } = await parseWithSaved(repos, userId, text, settings);
  if (!parsed.ok) throw failure(parsed.errors);
  // a given or a saved mapping: its result is checked before anything is stored
  if (mapping && !settings.confirmMapping) refuseDoubtful(mappingChecks(text, mapping, settings));
  // a first plan outside the transaction tells which quotes and rates to fetch
  const resolved = await resolveRows(deps, userId, parsed);
  const draft = await planAgainst(repos, userId, portfolioId, resolved, settings);
  if (!draft.plan.ok) throw failure(draft.plan.errors);
  const drafted = draft.plan;
  const valuedAt = deps.now();
  const marketDeps = { quotes: deps.quotes, fx: deps.fx, marketData: repos.marketData };
  const inputs = await gatherMarketInputs(marketDeps, drafted.after, utcDay(valuedAt));
  const eurRateOn = await historicEurRates(marketDeps, [
    ...draft.ledger,
    ...drafted.transactions.map((p) => p.transaction),
  ]);
  return deps.db
    .transaction()
    .execute(async (trx) => {
      const tx = createRepositories(trx);
      if (!(await tx.portfolios.lockForUpdate(userId, portfolioId))) {
        throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
      }
      const { plan, names, ledger, instruments } = await planAgainst(
        tx,
        userId,
        portfolioId,
        resolved,
        settings,
      );
      if (!plan.ok) throw failure(plan.errors);
      const rows = plan.transactions.map((p) => ({
        ...encodeTransaction(
          p.transaction,
          p.transaction.symbol ? resolved.instruments.get(p.transaction.symbol) : undefined,
        ),
        fingerprint: p.fingerprint,
        name: p.name ?? null,
      }));
      const batch =
        rows.length === 0
          ? { importBatchId: null }
          : await tx.transactions.importMany(userId, portfolioId, rows, {
              source: context.source ?? 'rest',
              summary: `Imported ${rows.length} transaction(s) from a ${parsed.format} file`,
            });
      const after = deriveChecked(
        [...ledger, ...plan.transactions.map((p, i) => ({ ...p.transaction, id: `new:${i}` }))],
        'file',
        { eurRateOn },
      );
      await storeValuation(
        tx,
        userId,
        portfolioId,
        after,
        { ...inputs, valuedAt: valuedAt.toISOString(), names },
        instruments,
      );
      const result = toResult(parsed, plan, names, {
        dryRun: false,
        importBatchId: batch.importBatchId,
      });
      // A confirmed mapping is saved with the import it read, in the same transaction.
      if (settings.mapping && settings.saveMapping) {
        const header = headerSet(text);
        if (header !== undefined) {
          const stored = await tx.importMappings.save(userId, {
            headerKey: header.key,
            headers: header.names,
            mapping: settings.mapping,
          });
          return { ...result, savedMapping: { id: stored.id, used: false, saved: true } };
        }
      }
      return saved
        ? { ...result, savedMapping: { id: saved.id, used: true, saved: false } }
        : result;
    })
    .catch((error: unknown) => fromStoreError(error, 'file'));
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

type Row = ReturnType<typeof fingerprintRows>[number];

/** The file's rows, fingerprinted, under their instruments' symbols; see {@link resolveRows}. */
interface ResolvedRows {
  readonly rows: Row[];
  /** The instrument of each symbol the rows are stored under (its first buy or sell's). */
  readonly instruments: Map<string, Instrument>;
}

/**
 * Fingerprints the file's rows (over the symbols as the file gives them, so a re-import after a
 * resolution changed still finds its rows), then resolves the instrument of each symbol once
 * (issue 38) and stores the rows under the instrument's symbol (the ticker when known; the
 * export's name is kept, else the symbol it gave). The instrument's currency is the one its
 * first buy or sell in the file trades in (a dividend paid in the account currency does not
 * make another instrument). Without a resolver: `isinSymbols` alone, as before issue 38.
 */
async function resolveRows(
  deps: BrokerImportPreviewDeps,
  userId: string,
  parsed: ParsedOk,
): Promise<ResolvedRows> {
  const rows = fingerprintRows(parsed.format, parsed.rows);
  const instruments = new Map<string, Instrument>();
  if (!deps.instruments) return { rows: resolveIsins(rows, deps.isinSymbols), instruments };
  const tradeCurrency = new Map<string, string>();
  for (const row of rows) {
    const tx = row.transaction;
    if ((tx.type === 'buy' || tx.type === 'sell') && tx.symbol && !tradeCurrency.has(tx.symbol)) {
      tradeCurrency.set(tx.symbol, tx.currency);
    }
  }
  // one ISIN, one ticker: the one most of its rows name, the earliest on a tie (Trading 212
  // names a corporate action's instrument by another ticker now and then)
  const tickerOf = new Map<string, string>();
  const counts = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (!row.isin || !row.ticker) continue;
    const tally = counts.get(row.isin) ?? new Map<string, number>();
    tally.set(row.ticker, (tally.get(row.ticker) ?? 0) + 1);
    counts.set(row.isin, tally);
  }
  for (const [isin, tally] of counts) {
    let best: [string, number] | undefined;
    for (const entry of tally) if (!best || entry[1] > best[1]) best = entry;
    if (best) tickerOf.set(isin, best[0]);
  }
  const hints = new Map<string, InstrumentHint>();
  const tickerFor = (row: Row) => (row.isin ? tickerOf.get(row.isin) : undefined) ?? row.ticker;
  const hintKey = (row: Row) =>
    JSON.stringify([row.transaction.symbol, row.isin ?? '', tickerFor(row) ?? '']);
  for (const row of rows) {
    const symbol = row.transaction.symbol;
    if (!symbol || hints.has(hintKey(row))) continue;
    const ticker = tickerFor(row);
    hints.set(hintKey(row), {
      symbol,
      currency: tradeCurrency.get(symbol) ?? row.transaction.currency,
      ...(row.isin ? { isin: row.isin } : {}),
      ...(ticker ? { ticker } : {}),
      ...(row.name ? { name: row.name } : {}),
      fromExport: row.isin !== undefined || row.ticker !== undefined,
    });
  }
  const keys = [...hints.keys()];
  const found = await deps.instruments.resolve(userId, [...hints.values()]);
  const byHint = new Map(keys.map((key, i) => [key, found[i] as Instrument]));
  const out = rows.map((row) => {
    const given = row.transaction.symbol;
    const instrument = given ? byHint.get(hintKey(row)) : undefined;
    if (!given || !instrument) return row;
    const symbol = instrumentSymbol(instrument, given);
    if (!instruments.has(symbol)) instruments.set(symbol, instrument);
    return symbol === given
      ? row
      : { ...row, name: row.name ?? given, transaction: { ...row.transaction, symbol } };
  });
  return { rows: out, instruments };
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
  resolved: ResolvedRows,
  settings: Settings,
): Promise<{
  plan: ImportPlan;
  names: Map<string, string>;
  ledger: LedgerTransaction[];
  instruments: Map<string, Instrument>;
}> {
  const { rows } = resolved;
  const { ledger, names, instruments } = await readLedgerWithNames(
    repos.transactions,
    userId,
    portfolioId,
  );
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
  for (const row of rows) {
    const symbol = row.transaction.symbol;
    if (!symbol) continue;
    if (row.name && !names.has(symbol)) names.set(symbol, row.name);
  }
  // the file's word on an instrument is newer than the ledger's
  for (const [symbol, instrument] of resolved.instruments) instruments.set(symbol, instrument);
  return { plan, names, ledger, instruments };
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
