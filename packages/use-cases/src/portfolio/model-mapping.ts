import { ColumnMapping, type MappingProposal, parseBrokerCsv } from '@svc/portfolio';
import { type BrokerImportPreviewDeps, previewBrokerImport } from './broker-import-preview.js';
import type { ImportResult } from './schemas.js';

/** What a model is shown: the file's first lines and the generic proposal with its questions. */
export interface ModelMappingRequest {
  /** Up to 30 lines from the file's start (untrusted data: the caller spotlights it). */
  readonly lines: string[];
  /** The generic mapper's proposal, when it made one: the model answers its `needs`. */
  readonly proposal?: MappingProposal;
}

/** Asks a configured model for a column mapping; answers its raw JSON, checked before use. */
export type AskModelForMapping = (request: ModelMappingRequest) => Promise<unknown>;

/** The mapping offered to the user for confirmation, with the dry run that checked it. */
export type CheckedMapping =
  | {
      readonly offered: true;
      readonly source: 'generic' | 'model';
      readonly mapping: ColumnMapping;
      readonly preview: ImportResult;
    }
  | { readonly offered: false; readonly reason: string };

/**
 * A column mapping to offer for a file the importer cannot place on its own, never imported here:
 * a file a module reads needs none; the generic proposal is offered when it asks nothing and its
 * dry run has no failing row; otherwise the model (`ask`, only with a model configured) is asked,
 * and its answer is offered only when it is a valid `ColumnMapping` whose dry run against the
 * portfolio (`previewBrokerImport`, the same rules as an import) yields rows, no failing one and
 * no failed check of its result (`mappingChecks`).
 * The user then confirms by importing with the mapping; nothing is stored before.
 *
 * @throws UseCaseError `not_found` (portfolio), as the dry run.
 */
export async function mappingToOffer(
  deps: BrokerImportPreviewDeps & { readonly ask?: AskModelForMapping },
  userId: string,
  portfolioId: string,
  text: string,
): Promise<CheckedMapping> {
  const parsed = parseBrokerCsv(text);
  if (parsed.ok || parsed.format !== undefined) {
    return { offered: false, reason: 'a broker module reads this file: no mapping is needed' };
  }
  const proposal = parsed.proposal;
  if (proposal && proposal.needs.length === 0) {
    const checked = await check(deps, userId, portfolioId, text, proposal.mapping, 'generic');
    if (checked.offered) return checked;
  }
  if (deps.ask === undefined) {
    return { offered: false, reason: 'the proposal has open questions and no model is configured' };
  }
  const lines = text.split(/\r?\n/, 30);
  const answer = await deps.ask(proposal ? { lines, proposal } : { lines });
  const mapping = ColumnMapping.safeParse(answer);
  if (!mapping.success) return { offered: false, reason: 'the model gave no valid mapping' };
  return check(deps, userId, portfolioId, text, mapping.data, 'model');
}

async function check(
  deps: BrokerImportPreviewDeps,
  userId: string,
  portfolioId: string,
  text: string,
  mapping: ColumnMapping,
  source: 'generic' | 'model',
): Promise<CheckedMapping> {
  const preview = await previewBrokerImport(deps, userId, portfolioId, text, {
    dryRun: true,
    mapping,
  });
  if (preview.failed.length > 0) {
    const first = preview.failed[0];
    return {
      offered: false,
      reason: `the ${source} mapping fails ${preview.failed.length} row(s), first line ${first?.line}: ${first?.message}`,
    };
  }
  if (preview.rows === 0) return { offered: false, reason: `the ${source} mapping reads no row` };
  const doubts = preview.mappingChecks?.checks.filter((c) => !c.passed) ?? [];
  if (doubts.length > 0) {
    // its import would be refused unconfirmed: the holdings it gives are in doubt
    return {
      offered: false,
      reason: `the ${source} mapping fails its checks: ${doubts.map((c) => `${c.id} (${c.detail})`).join('; ')}`,
    };
  }
  return { offered: true, source, mapping, preview };
}
