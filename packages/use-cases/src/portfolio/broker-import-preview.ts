import type { DerivedPortfolio, ImportPlan } from '@svc/portfolio';
import type { Executor } from '@svc/portfolio-store';
import {
  definitionOf,
  doubtful,
  mappingChecks,
  openFile,
  previewTokenOf,
  readOptions,
  savedMappingOf,
} from './broker-import-reading.js';
import {
  type ImportResolvers,
  type ParsedOk,
  planAgainst,
  resolveRows,
} from './broker-import-rows.js';
import { money } from './position-records.js';
import type { BrokerImportOptions, ImportLine, ImportResult } from './schemas.js';

/** What {@link previewBrokerImport} reads: the database only (and the instrument resolvers). */
export interface BrokerImportPreviewDeps extends ImportResolvers {
  readonly db: Executor;
}

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
  const { repos, read } = await openFile(deps.db, userId, portfolioId, text, settings);
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
  const subject = { repos, userId, portfolioId, text, settings };
  const token = confirms
    ? { previewToken: await previewTokenOf({ ...subject, mapping: confirms }) }
    : {};
  return {
    ...toResult(parsed, attempt.plan, attempt.names, { dryRun: true, importBatchId: null }),
    ...extras,
    ...token,
  };
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

export function toResult(
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
