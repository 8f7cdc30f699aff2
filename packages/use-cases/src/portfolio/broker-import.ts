import { createHash } from 'node:crypto';
import {
  BROKER_CATALOGUE,
  ColumnMapping,
  catalogueDefinition,
  checkMapping,
  type DerivedPortfolio,
  definitionMapping,
  draftDefinition,
  FormatDefinition,
  fingerprintRows,
  headerSet,
  type ImportPlan,
  type LedgerTransaction,
  type MappingProposal,
  parseBrokerCsv,
  planImport,
} from '@svc/portfolio';
import {
  createRepositories,
  type Executor,
  type SavedImportMapping,
  type Transaction as StoredTransaction,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { changeLedger, namesOf } from './change-ledger.js';
import type { ChangeContext } from './changes.js';
import { type InstrumentHint, type InstrumentResolver, instrumentSymbol } from './instruments.js';
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
 * failing (with their lines), the holdings and cash after, and the transactions per type —
 * without writing anything. Failing rows are answered in `failed`, not thrown. The advisor's
 * proposed import calls this too.
 *
 * A file no catalogue format and none of the user's saved definitions recognises is previewed
 * with the mapper's proposal (`proposal`, its checks in `mappingChecks`, their questions in
 * `needs`): the preview shows what confirming it would produce, and answers the `previewToken` a
 * real import with that mapping must send back. Nothing is imported on a guess.
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
  const read = await readFile(repos, userId, text, settings);
  const { parsed } = read;
  const extras = {
    ...savedMappingOf(read),
    ...(read.mapping ? { mappingChecks: mappingChecks(text, read.mapping, settings) } : {}),
    ...(read.proposal ? { proposal: read.proposal } : {}),
    ...definitionOf(read),
  };
  if (!parsed.ok) {
    return { ...failedResult(parsed.format ?? 'mapped', parsed.errors), ...extras };
  }
  const stored = await repos.transactions.listAll(userId, portfolioId);
  const resolved = await resolveRows(deps, userId, parsed);
  const attempt = await planAgainst(repos, userId, portfolioId, stored, resolved, settings);
  if (!attempt.plan.ok) {
    return { ...failedResult(parsed.format, attempt.plan.errors, parsed), ...extras };
  }
  // what a real import asks to be confirmed: a given or proposed mapping, a doubtful catalogue read
  const confirms =
    read.kind === 'given' ||
    read.kind === 'proposed' ||
    (read.kind === 'catalogue' && doubtful(extras.mappingChecks))
      ? read.mapping
      : undefined;
  const token = confirms
    ? {
        previewToken: await previewTokenOf(repos, userId, portfolioId, text, confirms, settings),
      }
    : {};
  return {
    ...toResult(parsed, attempt.plan, attempt.names, { dryRun: true, importBatchId: null }),
    ...extras,
    ...token,
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
 * A file recognised by a catalogue format or by one of the user's saved definitions imports
 * directly. A file read with a given `mapping` (no definition recognises it) imports only with
 * the `previewToken` of the dry run the user confirmed; the token covers the file, the mapping,
 * the options and the portfolio's ledger version, so a preview of another file or of an older
 * ledger confirms nothing. When the mapping's result fails a check, its questions stand: the
 * import is refused unless they are answered (a corrected mapping, previewed again) or the user
 * overrides them (`confirmMapping`). With `saveMapping` the confirmed mapping is saved to the user's
 * account as a definition (source `user`), recognised by the file's header from then on.
 *
 * @throws UseCaseError `validation_failed` with `errors: [{ path: 'line N', message }]` for every
 *   failing row; `errors: [{ path: 'previewToken', message }]` for a mapped import without the
 *   token of its preview; `errors: [{ path: 'mapping.checks.<id>', message }]` when the result
 *   of a given mapping or a saved definition fails a check and `confirmMapping` is not set
 *   (nothing stored);
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
  const read = await readFile(repos, userId, text, settings);
  const { parsed } = read;
  if (!parsed.ok || read.kind === 'proposed') {
    if (!parsed.ok && read.kind !== 'proposed') throw failure(parsed.errors);
    throw new UseCaseError(
      'validation_failed',
      'no broker format recognises this file: preview it (dryRun), check the proposal and send its mapping back with the previewToken',
      {
        errors: [
          { path: 'mapping', message: 'a file no definition recognises needs a confirmed mapping' },
        ],
      },
    );
  }
  if (read.kind === 'given') {
    await requirePreview(repos, userId, portfolioId, text, read.mapping, settings);
    // the preview's failed checks stay questions: answered (a corrected mapping), or overridden
    if (!settings.confirmMapping) refuseDoubtful(mappingChecks(text, read.mapping, settings));
  }
  // a catalogue definition whose read of this file fails a check: imported only as previewed
  if (read.kind === 'catalogue' && read.mapping) {
    const checks = mappingChecks(text, read.mapping, settings);
    if (doubtful(checks)) {
      await requirePreview(repos, userId, portfolioId, text, read.mapping, settings);
    }
  }
  // a saved definition: its result is checked before anything is stored
  if (read.kind === 'saved' && read.mapping && !settings.confirmMapping) {
    refuseDoubtful(mappingChecks(text, read.mapping, settings));
  }
  // each instrument the file names, resolved once before the lock (it may ask a service)
  const resolved = await resolveRows(deps, userId, parsed);
  const { result } = await changeLedger(deps, userId, portfolioId, {
    breaks: { path: 'file' },
    inputPath: 'file',
    guard: context.guard,
    // a first plan outside the transaction tells which quotes and rates to fetch
    project: async (before) => {
      const draft = await planAgainst(repos, userId, portfolioId, before, resolved, settings);
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
        resolved,
        settings,
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
        ...encodeTransaction(
          p.transaction,
          p.transaction.symbol ? resolved.instruments.get(p.transaction.symbol) : undefined,
        ),
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
      const result = {
        ...toResult(parsed, plan, names, { dryRun: false, importBatchId: written.importBatchId }),
        ...definitionOf(read),
      };
      // A confirmed mapping is saved, as the user's own definition, with the import it read, in
      // the same transaction.
      const header = read.kind === 'given' && settings.saveMapping ? headerSet(text) : undefined;
      if (read.kind === 'given' && header !== undefined) {
        const definition = draftDefinition(read.mapping, header.names, { confirmed: true });
        const stored = await unit.repos.importMappings.save(userId, {
          headerKey: header.key,
          headers: header.names,
          mapping: definition,
        });
        return {
          result: { ...result, savedMapping: { id: stored.id, used: false, saved: true } },
          after,
        };
      }
      return { result: { ...result, ...savedMappingOf(read) }, after };
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

/**
 * How a file was read: by a catalogue format (`catalogue`), by one of the user's saved
 * definitions (`saved`, with the mapping it resolved to), with the mapping the request gave
 * (`given`), or — no definition recognising it — with the mapper's proposal (`proposed`), which
 * only a confirmed preview imports.
 */
type FileReading =
  | { kind: 'catalogue'; parsed: Parsed; mapping?: ColumnMapping; proposal?: undefined }
  | {
      kind: 'saved';
      parsed: Parsed;
      saved: SavedImportMapping;
      definition: FormatDefinition;
      mapping?: ColumnMapping;
      proposal?: undefined;
    }
  | { kind: 'given'; parsed: Parsed; mapping: ColumnMapping; proposal?: undefined }
  | { kind: 'proposed'; parsed: Parsed; mapping: ColumnMapping; proposal: MappingProposal }
  | { kind: 'unread'; parsed: Parsed; mapping?: undefined; proposal?: MappingProposal };

type Parsed = ReturnType<typeof parseBrokerCsv>;

/**
 * A saved row as a definition: a saved `FormatDefinition`, or a column mapping saved by an earlier
 * version (recognised by the header names it was saved under). `undefined` when neither validates
 * (the row is then ignored; nothing is lost: it stays in the account).
 */
function definitionOfSaved(saved: SavedImportMapping): FormatDefinition | undefined {
  const definition = FormatDefinition.safeParse(saved.mapping);
  if (definition.success) return { ...definition.data, id: `user-${saved.id}`.slice(0, 41) };
  const mapping = ColumnMapping.safeParse(saved.mapping);
  if (!mapping.success || saved.headers.length === 0) return undefined;
  return {
    ...draftDefinition(mapping.data, saved.headers, { confirmed: true }),
    id: `user-${saved.id}`.slice(0, 41),
  };
}

async function readFile(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  text: string,
  settings: Settings,
): Promise<FileReading> {
  const base = {
    format: settings.format,
    ...(settings.accountCurrency ? { accountCurrency: settings.accountCurrency } : {}),
  };
  if (settings.mapping) {
    return {
      kind: 'given',
      parsed: parseBrokerCsv(text, { ...base, mapping: settings.mapping }),
      mapping: settings.mapping,
    };
  }
  const savedRows = settings.format === 'auto' ? await repos.importMappings.list(userId) : [];
  const own = savedRows.flatMap((saved) => {
    const definition = definitionOfSaved(saved);
    return definition ? [{ saved, definition }] : [];
  });
  const parsed = parseBrokerCsv(text, { ...base, definitions: own.map((o) => o.definition) });
  if (parsed.ok && parsed.definitionId !== undefined) {
    const match = own.find((o) => o.definition.id === parsed.definitionId);
    if (match) {
      const mapping = definitionMapping(text, match.definition);
      return { kind: 'saved', parsed, ...match, ...(mapping ? { mapping } : {}) };
    }
  }
  if (parsed.ok || parsed.proposal === undefined) {
    if (!parsed.ok) return { kind: 'unread', parsed };
    // a declarative definition of the catalogue: its read is checked like any mapping's
    const definition = catalogueDefinition(parsed.format);
    const mapping = definition ? definitionMapping(text, definition) : undefined;
    return { kind: 'catalogue', parsed, ...(mapping ? { mapping } : {}) };
  }
  const proposal = parsed.proposal;
  const previewed = parseBrokerCsv(text, { ...base, mapping: proposal.mapping });
  // a proposal its own import cannot read is no preview: the file fails with its questions
  if (!previewed.ok) return { kind: 'unread', parsed, proposal };
  return { kind: 'proposed', parsed: previewed, mapping: proposal.mapping, proposal };
}

/** Whether checks ran and one failed. */
function doubtful(checks: MappingChecks | undefined): boolean {
  return checks !== undefined && !checks.acceptable;
}

function savedMappingOf(read: FileReading): Pick<ImportResult, 'savedMapping'> {
  return read.kind === 'saved'
    ? { savedMapping: { id: read.saved.id, used: true, saved: false } }
    : {};
}

function definitionOf(read: FileReading): Pick<ImportResult, 'definition'> {
  if (read.kind === 'catalogue' && read.parsed.ok) {
    const entry = BROKER_CATALOGUE.find((e) => e.id === read.parsed.format);
    return entry
      ? {
          definition: {
            id: entry.id,
            label: entry.label,
            kind: 'catalogue',
            source: entry.source.reference,
          },
        }
      : {};
  }
  if (read.kind === 'saved') {
    const { definition } = read;
    return {
      definition: {
        id: definition.id,
        label: definition.label,
        kind: 'user',
        source: definition.source.reference,
      },
    };
  }
  if (read.kind === 'proposed') {
    return {
      definition: {
        id: 'proposal',
        label: 'columns proposed by the mapper',
        kind: 'proposed',
        source: 'proposed from this file; imported only when its preview is confirmed',
      },
    };
  }
  return {};
}

/** JSON with object keys sorted, so that equal mappings hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The token of a preview: SHA-256 (hex) of the user, the portfolio and its ledger version, the
 * file, the mapping and the options that change what is imported. Deterministic: previewing the
 * same file again gives the same token until the ledger changes.
 */
async function previewTokenOf(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  text: string,
  mapping: ColumnMapping,
  settings: Settings,
): Promise<string> {
  const version = await repos.portfolios.ledgerVersion(userId, portfolioId);
  const file = createHash('sha256').update(text).digest('hex');
  return createHash('sha256')
    .update(
      canonical([
        'import-preview-v1',
        userId,
        portfolioId,
        String(version ?? ''),
        file,
        mapping,
        settings.oversell,
        settings.accountCurrency ?? '',
      ]),
    )
    .digest('hex');
}

async function requirePreview(
  repos: ReturnType<typeof createRepositories>,
  userId: string,
  portfolioId: string,
  text: string,
  mapping: ColumnMapping,
  settings: Settings,
): Promise<void> {
  const expected = await previewTokenOf(repos, userId, portfolioId, text, mapping, settings);
  if (settings.previewToken === expected) return;
  throw new UseCaseError(
    'validation_failed',
    settings.previewToken === undefined
      ? 'a file read with a mapping is imported only after its preview is confirmed: run the dry run and send its previewToken back'
      : 'the previewToken does not match this file, mapping and portfolio (the preview is of another file or mapping, or the portfolio changed since): preview again',
    { errors: [{ path: 'previewToken', message: 'confirm the dry run of this import' }] },
  );
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
  stored: readonly StoredTransaction[],
  resolved: ResolvedRows,
  settings: Settings,
): Promise<{ plan: ImportPlan; names: Map<string, string>; ledger: LedgerTransaction[] }> {
  const { rows } = resolved;
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
  for (const row of rows) {
    const symbol = row.transaction.symbol;
    if (!symbol) continue;
    if (row.name && !names.has(symbol)) names.set(symbol, row.name);
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
    counts: countsOf(plan.transactions.map((p) => p.transaction.type)),
  };
}

/** How many transactions of each type (types with none left out). */
function countsOf(types: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of types) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}
