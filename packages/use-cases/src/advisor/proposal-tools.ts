import type { AdvisorTool, Attachment, OfflineIntent, ToolOutcome } from '@svc/advisor';
import { NewTransaction, parseBrokerCsv } from '@svc/portfolio';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import {
  InstrumentAssignment,
  InstrumentSymbol,
  PortfolioId,
  Tags,
  TickerSymbol,
} from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';
import type { EvaluationService } from '../moat/evaluation-service.js';
import { instrumentsOf } from '../portfolio/change-ledger.js';
import { describeTransaction, transactionTag } from '../portfolio/change-summaries.js';
import { decodeTransaction } from '../portfolio/ledger-codec.js';
import type { PortfolioService } from '../portfolio/portfolio-service.js';
import { quoted, symbolText } from '../portfolio/quoted-text.js';
import { CreatePortfolioInput, TransactionPatch } from '../portfolio/schemas.js';
import type { ToolScope } from './advisor-tools.js';
import { fieldChanges, instrumentText, noteOf, saveReportSummary } from './proposal-summaries.js';
import { type ProposalDraft, storeProposal } from './proposals.js';

/** What the proposal tools need. */
export interface ProposalToolDeps {
  /** Where proposals are stored (`advisor_proposals` of `@svc/portfolio-store`). */
  readonly db: Executor;
  readonly portfolios: Pick<PortfolioService, 'listPortfolios' | 'importBrokerCsv'>;
  /** The evaluation flow: `served` reads what it can serve without a fetch (no quota). */
  readonly evaluations: Pick<EvaluationService, 'served'>;
  readonly now: () => Date;
}

/** The scope of the proposal tools: the user, the turn's attachments, the active portfolio. */
export interface ProposalScope extends ToolScope {
  readonly attachments: readonly Attachment[];
  readonly activePortfolioId?: string;
}

/**
 * Issue 41: most proposals one advisor turn may make. A turn is one user message and the model's
 * answer: five covers a correction of several rows asked at once, while a model driven to flood
 * the user with proposals stops at five (the tool answers an error the model reads).
 */
export const MAX_PROPOSALS_PER_TURN = 5;

/**
 * Issue 41: most pending (undecided, unexpired) proposals a user may hold, across every
 * conversation (the service keeps no conversation: each turn carries its messages). A proposal
 * beyond it is refused until the user confirms or rejects some, or they expire (15 minutes).
 */
export const MAX_PENDING_PROPOSALS = 10;

/** Most line errors of a broker file shown to the user and the model. */
export const MAX_LINE_ERRORS_SHOWN = 20;

/**
 * The broker-import reading of a CSV attachment, through `@svc/portfolio`'s importer
 * (`parseBrokerCsv`, no write): `null` when the header matches no broker format (a plain CSV).
 */
export function readBrokerExport(attachment: Attachment) {
  if (attachment.kind !== 'text' || attachment.text === undefined) return null;
  const isCsv =
    attachment.mediaType === 'text/csv' || attachment.filename.toLowerCase().endsWith('.csv');
  if (!isCsv) return null;
  const parsed = parseBrokerCsv(attachment.text);
  if (!parsed.ok && parsed.format === undefined) return null;
  return parsed;
}

/** Whether an attachment is a CSV text (a broker export the import flow may read). */
function isCsvAttachment(attachment: Attachment): boolean {
  return (
    attachment.kind === 'text' &&
    attachment.text !== undefined &&
    (attachment.mediaType === 'text/csv' || attachment.filename.toLowerCase().endsWith('.csv'))
  );
}

/** What a preview would leave: positions with quantities, cash per currency, counts per type. */
function describePreview(preview: {
  holdings: readonly { symbol: string; currency: string; quantity: string }[];
  cash: readonly { currency: string; amount: string }[];
  counts?: Record<string, number> | undefined;
  skipped: readonly unknown[];
}): string {
  const holdings = preview.holdings.map((h) => `${h.symbol} ${h.quantity} (${h.currency})`);
  const cash = preview.cash.map((c) => `${c.amount} ${c.currency}`);
  const counts = Object.entries(preview.counts ?? {}).map(([type, n]) => `${n} ${type}`);
  return `holdings ${holdings.join(', ') || 'none'}; cash ${cash.join(', ') || 'none'}; ${counts.join(', ') || 'no transactions'}; ${preview.skipped.length} row(s) skipped`;
}

/**
 * A note on a broker CSV attachment for the model and the user: its format and how many
 * transactions it holds, or its line errors (at most {@link MAX_LINE_ERRORS_SHOWN}).
 */
export function describeBrokerExport(attachment: Attachment): string | undefined {
  const parsed = readBrokerExport(attachment);
  if (parsed === null) {
    return isCsvAttachment(attachment)
      ? "A CSV no broker format of the catalogue recognises. proposeImport previews it with the user's saved definitions, else with columns the mapper proposes; such an import happens only when the user confirms that preview."
      : undefined;
  }
  if (parsed.ok) {
    return `Broker export (${parsed.format}): ${parsed.transactions.length} transaction(s), ${parsed.skipped.length} row(s) skipped. It can be proposed for import (proposeImport).`;
  }
  const lines = parsed.errors
    .slice(0, MAX_LINE_ERRORS_SHOWN)
    .map((e) => `line ${e.line}: ${e.message}`);
  return `Broker export (${parsed.format}) with ${parsed.errors.length} row(s) that cannot be imported: ${lines.join('; ')}`;
}

/**
 * A turn-bound advisor-only tool typed by its zod parameters (the proposal tools: they store a
 * pending proposal and read the turn's attachments, so they are not tool definitions of
 * `src/tools/`, which call a flow for an actor on every surface).
 */
function tool<S extends z.ZodType>(
  name: string,
  description: string,
  parameters: S,
  run: (args: z.output<S>) => Promise<ToolOutcome>,
  offline?: OfflineIntent,
): AdvisorTool {
  return {
    name,
    description,
    parameters,
    ...(offline === undefined ? {} : { offline }),
    run: (args) => run(args as z.output<S>),
  } as AdvisorTool;
}

const PortfolioIdArg = PortfolioId.describe('One of the user’s portfolio ids');

/**
 * The proposal tools: each stores a pending proposal for `scope.actor` (15 minutes) and returns it
 * as a `proposal` frame. None of them changes a portfolio: only `POST /api/advisor/confirm` does.
 * `proposeTransaction`, `proposeCreatePortfolio`, `proposeSaveMoatReport` (a cached
 * evaluation), `proposeImport` (a broker CSV attached to this turn, read by `parseBrokerCsv`; a
 * file with bad rows gives no proposal and lists its line errors); the corrections of issue 30
 * (`proposeEditTransaction`, `proposeDeleteTransaction`, `proposeRevertChange`) and of issue 38
 * (`proposeAssignInstrument`: what an instrument held under a symbol is).
 */
export function buildProposalTools(deps: ProposalToolDeps, scope: ProposalScope): AdvisorTool[] {
  const userId = scope.actor.id;

  async function ownedPortfolio(portfolioId: string | undefined) {
    const id = portfolioId ?? scope.activePortfolioId;
    const portfolios = await deps.portfolios.listPortfolios(userId);
    const found =
      id === undefined
        ? portfolios.length === 1
          ? portfolios[0]
          : undefined
        : portfolios.find((p) => p.id === id);
    if (!found) {
      throw new UseCaseError(
        'not_found',
        id === undefined ? 'name the portfolio (portfolioId)' : `portfolio ${id} not found`,
      );
    }
    return found;
  }

  async function ownedTransaction(portfolioId: string, transactionId: string) {
    const row = await createRepositories(deps.db).transactions.get(
      userId,
      portfolioId,
      transactionId,
    );
    if (!row) throw new UseCaseError('not_found', `transaction ${transactionId} not found`);
    return decodeTransaction(row);
  }

  let proposed = 0;
  const propose = async (draft: ProposalDraft): Promise<ToolOutcome> => {
    if (proposed >= MAX_PROPOSALS_PER_TURN) {
      throw new UseCaseError(
        'conflict',
        `at most ${MAX_PROPOSALS_PER_TURN} proposals per turn; nothing more was proposed`,
      );
    }
    const now = deps.now();
    const pending = await createRepositories(deps.db).proposals.countPending(userId, now);
    if (pending >= MAX_PENDING_PROPOSALS) {
      throw new UseCaseError(
        'conflict',
        `${pending} proposals already wait for the user's decision (at most ${MAX_PENDING_PROPOSALS}); ask the user to confirm or reject them first`,
      );
    }
    proposed += 1;
    const proposal = await storeProposal(deps.db, userId, draft, now);
    return {
      data: {
        proposalId: proposal.id,
        status: 'pending',
        expiresAt: proposal.expiresAt,
        note: 'Nothing changes until the user confirms it.',
      },
      summary: draft.summary,
      proposal,
    };
  };

  return [
    tool(
      'proposeTransaction',
      'Proposes recording one transaction in a portfolio; the user must confirm it.',
      z.strictObject({ portfolioId: PortfolioIdArg.optional(), transaction: NewTransaction }),
      async ({ portfolioId, transaction }) => {
        const portfolio = await ownedPortfolio(portfolioId);
        return propose({
          kind: 'record_transaction',
          summary: `Record ${describeTransaction(transaction)} in ${quoted(portfolio.name)}${noteOf(transaction)}`,
          payload: { portfolioId: portfolio.id, transaction },
        });
      },
    ),
    tool(
      'proposeCreatePortfolio',
      'Proposes creating a portfolio; the user must confirm it.',
      CreatePortfolioInput,
      async (input) =>
        propose({
          kind: 'create_portfolio',
          summary: `Create the portfolio ${quoted(input.name)} (${input.baseCurrency})`,
          payload: input,
        }),
    ),
    tool(
      'proposeSaveMoatReport',
      'Proposes saving the cached moat evaluation of a symbol to the user’s reports.',
      z.strictObject({
        symbol: TickerSymbol,
        tags: Tags.optional(),
      }),
      async ({ symbol, tags }) => {
        const evaluation = await deps.evaluations.served(symbol);
        if (!evaluation) throw new UseCaseError('not_found', `no cached evaluation of ${symbol}`);
        return propose({
          kind: 'save_moat_report',
          summary: saveReportSummary(
            evaluation.symbol,
            evaluation.totalScore,
            evaluation.maxScore,
            tags ?? [],
          ),
          payload: { symbol: evaluation.symbol, tags: tags ?? [] },
        });
      },
    ),
    tool(
      'proposeImport',
      'Proposes importing the transactions of a broker CSV attached to this message.',
      z.strictObject({
        filename: z.string().max(255).optional().describe('The attachment; default the only CSV'),
        portfolioId: PortfolioIdArg.optional(),
      }),
      async ({ filename, portfolioId }) => {
        // every CSV attached: a broker format of the catalogue, one of the user's saved
        // definitions (the dry run below applies them), or a layout only a preview can place
        const exports = scope.attachments.filter(isCsvAttachment);
        const file =
          filename === undefined
            ? exports.length === 1
              ? exports[0]
              : undefined
            : exports.find((a) => a.filename === filename);
        if (!file) throw new UseCaseError('not_found', 'no broker CSV attached under that name');
        const portfolio = await ownedPortfolio(portfolioId);
        // The dry run of the import route, against this portfolio: rows already there (same
        // fingerprint) are not imported again; rows that would fail (a sale of units never held)
        // give no proposal.
        const text = file.text ?? '';
        const preview = await deps.portfolios.importBrokerCsv(userId, portfolio.id, text, {
          dryRun: true,
        });
        const proposed = preview.definition?.kind === 'proposed' ? preview : undefined;
        if (preview.failed.length > 0) {
          const errors = preview.failed.slice(0, MAX_LINE_ERRORS_SHOWN);
          return {
            data: { imported: false, format: preview.format, errors },
            summary: `${quoted(file.filename)}: ${preview.failed.length} row(s) cannot be imported into ${quoted(portfolio.name)} (${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')})`,
          };
        }
        if (preview.imported === 0) {
          return {
            data: {
              imported: false,
              format: preview.format,
              alreadyPresent: preview.alreadyPresent,
            },
            summary: `${quoted(file.filename)}: all ${preview.rows} transaction(s) are already in ${quoted(portfolio.name)}; nothing to import`,
          };
        }
        const already =
          preview.alreadyPresent > 0
            ? `; ${preview.alreadyPresent} already there are left out`
            : '';
        // a layout no definition knows: the proposal carries the mapper's columns and the
        // preview's token, so confirming it imports exactly what the preview showed
        const unknownLayout =
          proposed?.proposal && proposed.previewToken
            ? {
                mapping: proposed.proposal.mapping,
                previewToken: proposed.previewToken,
                questions: (proposed.mappingChecks?.needs ?? []).map((n) => n.question),
              }
            : undefined;
        if (unknownLayout && proposed?.mappingChecks?.acceptable === false) {
          // questions the user must answer first: no proposal to confirm on a doubt
          return {
            data: { imported: false, format: preview.format, questions: unknownLayout.questions },
            summary: `${file.filename}: no broker format knows this layout, and the columns proposed for it leave questions open (${unknownLayout.questions.join(' ')}); answer them in the import preview before importing`,
          };
        }
        const read = unknownLayout
          ? `columns proposed for a layout no definition knows: ${describePreview(preview)}${unknownLayout.questions.length > 0 ? `; open questions: ${unknownLayout.questions.join(' ')}` : ''}`
          : (preview.definition?.label ?? preview.format);
        return propose({
          kind: 'import_transactions',
          summary: `Import ${preview.imported} transaction(s) from ${quoted(file.filename)} (${read}) into ${quoted(portfolio.name)}${already}`,
          payload: {
            portfolioId: portfolio.id,
            filename: file.filename,
            format: preview.format,
            text,
            rows: preview.rows,
            newRows: preview.imported,
            alreadyPresent: preview.alreadyPresent,
            skipped: preview.skipped,
            ...(unknownLayout
              ? { mapping: unknownLayout.mapping, previewToken: unknownLayout.previewToken }
              : {}),
          },
        });
      },
      'import',
    ),
    tool(
      'proposeEditTransaction',
      'Proposes correcting one transaction of a portfolio (give only the fields to change; null ' +
        'removes note or fee); the user must confirm it. The summary names the old and new values.',
      z.strictObject({
        portfolioId: PortfolioIdArg.optional(),
        transactionId: PortfolioId.describe('The transaction to correct (listTransactions)'),
        changes: TransactionPatch,
      }),
      async ({ portfolioId, transactionId, changes }) => {
        const portfolio = await ownedPortfolio(portfolioId);
        const current = await ownedTransaction(portfolio.id, transactionId);
        // `instrument` is read-only: it follows the symbol (issue 38)
        const { id: _id, portfolioId: _p, instrument: _i, ...fields } = current;
        const next: Record<string, unknown> = { ...fields };
        const { id: _id2, portfolioId: _p2, instrument: _i2, ...patchFields } = changes;
        for (const [key, value] of Object.entries(patchFields)) {
          if (value === null) delete next[key];
          else if (value !== undefined) next[key] = value;
        }
        const parsed = NewTransaction.safeParse(next);
        if (!parsed.success) {
          throw new UseCaseError('validation_failed', 'the corrected transaction is not valid', {
            errors: parsed.error.issues.map((i) => ({
              path: ['changes', ...i.path.map(String)].join('.'),
              message: i.message,
            })),
          });
        }
        return propose({
          kind: 'edit_transaction',
          summary: `In ${quoted(portfolio.name)}, change ${describeTransaction(current)} to ${describeTransaction(parsed.data)}: ${fieldChanges(current, parsed.data)}`,
          payload: {
            portfolioId: portfolio.id,
            transactionId,
            transaction: parsed.data,
            version: transactionTag(current),
            before: current,
          },
        });
      },
    ),
    tool(
      'proposeDeleteTransaction',
      'Proposes deleting one transaction of a portfolio; the user must confirm it (it can be ' +
        'reverted afterwards).',
      z.strictObject({
        portfolioId: PortfolioIdArg.optional(),
        transactionId: PortfolioId.describe('The transaction to delete (listTransactions)'),
      }),
      async ({ portfolioId, transactionId }) => {
        const portfolio = await ownedPortfolio(portfolioId);
        const current = await ownedTransaction(portfolio.id, transactionId);
        return propose({
          kind: 'delete_transaction',
          summary: `In ${quoted(portfolio.name)}, delete ${describeTransaction(current)}${noteOf(current)}`,
          payload: {
            portfolioId: portfolio.id,
            transactionId,
            version: transactionTag(current),
            before: current,
          },
        });
      },
    ),
    tool(
      'proposeRevertChange',
      'Proposes reverting one change of a portfolio (listPortfolioChanges): an import’s rows are ' +
        'removed, an edit’s old values return, a deleted transaction comes back; the user must ' +
        'confirm it.',
      z.strictObject({
        portfolioId: PortfolioIdArg.optional(),
        changeId: PortfolioId.describe('The change to revert (listPortfolioChanges)'),
      }),
      async ({ portfolioId, changeId }) => {
        const portfolio = await ownedPortfolio(portfolioId);
        const change = await createRepositories(deps.db).transactions.getChange(
          userId,
          portfolio.id,
          changeId,
        );
        if (!change) throw new UseCaseError('not_found', `change ${changeId} not found`);
        if (change.revertedBy !== null) {
          throw new UseCaseError('conflict', `change ${changeId} was already reverted`, {
            changes: [change.revertedBy],
          });
        }
        return propose({
          kind: 'revert_change',
          summary: `In ${quoted(portfolio.name)}, revert the ${change.kind} of ${change.at} (${change.transactionCount} transaction(s)): ${change.summary}`,
          payload: { portfolioId: portfolio.id, changeId },
        });
      },
    ),
    tool(
      'proposeAssignInstrument',
      'Proposes correcting what an instrument of a portfolio is (issue 38): the holding under ' +
        '`symbol` is the listing `assignment` names (a ticker and/or an ISIN; mic, currency, ' +
        'name, kind, cik optional, the rest kept). Every transaction of the symbol takes it ' +
        '(resolution user) and its ticker as symbol, so a holding said to be another merges with ' +
        'it; journalled, a revert undoes it. The user must confirm it. Use it only when the user ' +
        'says what the instrument is.',
      z.strictObject({
        portfolioId: PortfolioIdArg.optional(),
        symbol: InstrumentSymbol.describe('The symbol the portfolio holds it under (listHoldings)'),
        assignment: InstrumentAssignment,
      }),
      async ({ portfolioId, symbol, assignment }) => {
        const portfolio = await ownedPortfolio(portfolioId);
        const rows = await createRepositories(deps.db).transactions.listAll(userId, portfolio.id);
        const count = rows.filter((row) => row.symbol === symbol).length;
        if (count === 0) {
          throw new UseCaseError(
            'not_found',
            `portfolio ${portfolio.id} has no transaction of ${symbol}`,
          );
        }
        const before = instrumentsOf(rows).get(symbol);
        return propose({
          kind: 'assign_instrument',
          summary: `In ${quoted(portfolio.name)}, say that ${symbolText(symbol)}${before ? ` (now ${instrumentText(before)})` : ''} is ${instrumentText(assignment)}, other fields kept: ${count} transaction(s) reassigned; a revert undoes it`,
          payload: {
            portfolioId: portfolio.id,
            symbol,
            assignment,
            ...(before ? { before } : {}),
          },
        });
      },
    ),
  ];
}
