import { draftDefinition, headerSet } from '@svc/portfolio';
import { UseCaseError } from '../errors.js';
import {
  type BrokerImportPreviewDeps,
  previewBrokerImport,
  toResult,
} from './broker-import-preview.js';
import {
  definitionOf,
  doubtful,
  mappingChecks,
  openFile,
  readOptions,
  refuseDoubtful,
  requirePreview,
  savedMappingOf,
} from './broker-import-reading.js';
import { planAgainst, resolveRows } from './broker-import-rows.js';
import { changeLedger } from './change-ledger.js';
import type { ChangeContext } from './changes.js';
import { encodeTransaction } from './ledger-codec.js';
import type { MarketInputsDeps } from './market-inputs.js';
import type { BrokerImportOptions, ImportLine, ImportResult } from './schemas.js';

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
  const { repos, read } = await openFile(deps.db, userId, portfolioId, text, settings);
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
    await requirePreview({ repos, userId, portfolioId, text, mapping: read.mapping, settings });
    // the preview's failed checks stay questions: answered (a corrected mapping), or overridden
    if (!settings.confirmMapping) refuseDoubtful(mappingChecks(text, read.mapping, settings));
  }
  // a catalogue definition whose read of this file fails a check: imported only as previewed
  if (read.kind === 'catalogue' && read.mapping) {
    const checks = mappingChecks(text, read.mapping, settings);
    if (doubtful(checks)) {
      await requirePreview({ repos, userId, portfolioId, text, mapping: read.mapping, settings });
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

function failure(errors: readonly ImportLine[]): UseCaseError {
  return new UseCaseError('validation_failed', 'the file has rows that cannot be imported', {
    errors: errors.map((e) => ({ path: `line ${e.line}`, message: e.message })),
  });
}
