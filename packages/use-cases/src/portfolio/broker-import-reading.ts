import { createHash } from 'node:crypto';
import {
  BROKER_CATALOGUE,
  ColumnMapping,
  catalogueDefinition,
  checkMapping,
  definitionMapping,
  draftDefinition,
  FormatDefinition,
  type MappingProposal,
  parseBrokerCsv,
} from '@svc/portfolio';
import { createRepositories, type Executor, type SavedImportMapping } from '@svc/portfolio-store';
import type { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { canonical } from './entity-tags.js';
import { BrokerImportOptions, type ImportResult, type MappingChecks } from './schemas.js';

// How a broker file is read, for the preview and the import alike: the options, the definition
// that recognises the file (catalogue, the user's saved ones, a given mapping, the mapper's
// proposal), the checks of a mapping's result, and the preview token that confirms a mapping.

/** The import options, parsed (defaults filled in). */
export type Settings = z.output<typeof BrokerImportOptions>;

/** @throws UseCaseError `validation_failed` with a field error per bad option. */
export function readOptions(options: BrokerImportOptions): Settings {
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
export type FileReading =
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

/**
 * The repositories over `db` and how `text` reads, for a portfolio of the user's: the first step
 * of the preview and of the import.
 *
 * @throws UseCaseError `not_found` when the user has no such portfolio.
 */
export async function openFile(
  db: Executor,
  userId: string,
  portfolioId: string,
  text: string,
  settings: Settings,
): Promise<{ repos: ReturnType<typeof createRepositories>; read: FileReading }> {
  const repos = createRepositories(db);
  if ((await repos.portfolios.get(userId, portfolioId)) === undefined) {
    throw new UseCaseError('not_found', `portfolio ${portfolioId} not found`);
  }
  return { repos, read: await readFile(repos, userId, text, settings) };
}

/** Whether checks ran and one failed. */
export function doubtful(checks: MappingChecks | undefined): boolean {
  return checks !== undefined && !checks.acceptable;
}

export function savedMappingOf(read: FileReading): Pick<ImportResult, 'savedMapping'> {
  return read.kind === 'saved'
    ? { savedMapping: { id: read.saved.id, used: true, saved: false } }
    : {};
}

export function definitionOf(read: FileReading): Pick<ImportResult, 'definition'> {
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

/** The checks of the import `mapping` makes of `text` (see `checkMapping`). */
export function mappingChecks(
  text: string,
  mapping: ColumnMapping,
  settings: Settings,
): MappingChecks {
  const verdict = checkMapping(text, mapping, {
    ...(settings.accountCurrency ? { accountCurrency: settings.accountCurrency } : {}),
  });
  return { acceptable: verdict.acceptable, checks: verdict.checks, needs: verdict.questions };
}

/** What a preview shows and its token covers: a file read with a mapping, into a portfolio. */
export interface PreviewSubject {
  readonly repos: ReturnType<typeof createRepositories>;
  readonly userId: string;
  readonly portfolioId: string;
  readonly text: string;
  readonly mapping: ColumnMapping;
  readonly settings: Settings;
}

/**
 * The token of a preview: SHA-256 (hex) of the user, the portfolio and its ledger version, the
 * file, the mapping and the options that change what is imported. Deterministic: previewing the
 * same file again gives the same token until the ledger changes.
 */
export async function previewTokenOf(of: PreviewSubject): Promise<string> {
  const { repos, userId, portfolioId, text, mapping, settings } = of;
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

/**
 * Refuses an import whose options do not carry the token of the preview of `of`.
 * @throws UseCaseError `validation_failed` (path `previewToken`).
 */
export async function requirePreview(of: PreviewSubject): Promise<void> {
  const expected = await previewTokenOf(of);
  if (of.settings.previewToken === expected) return;
  throw new UseCaseError(
    'validation_failed',
    of.settings.previewToken === undefined
      ? 'a file read with a mapping is imported only after its preview is confirmed: run the dry run and send its previewToken back'
      : 'the previewToken does not match this file, mapping and portfolio (the preview is of another file or mapping, or the portfolio changed since): preview again',
    { errors: [{ path: 'previewToken', message: 'confirm the dry run of this import' }] },
  );
}

/**
 * Refuses a real import whose mapping failed a check, naming each failed check and its question:
 * holdings with reason for doubt are never stored unless the user confirms (`confirmMapping`).
 */
export function refuseDoubtful(checks: MappingChecks): void {
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
