import type { ProposalKind, ProposalView } from '@svc/advisor';
import { ColumnMapping, NewTransaction } from '@svc/portfolio';
import {
  type AdvisorProposal,
  createRepositories,
  type Executor,
  type Repositories,
} from '@svc/portfolio-store';
import {
  Instrument,
  InstrumentAssignment,
  InstrumentSymbol,
  PortfolioId,
  Tags,
} from '@svc/schemas';
import { z } from 'zod';
import { UseCaseError } from '../errors.js';
import { createReportService } from '../moat/reports.js';
import type { LedgerUnit } from '../portfolio/change-ledger.js';
import {
  createPortfolioService,
  type PortfolioServiceDeps,
} from '../portfolio/portfolio-service.js';
import { CreatePortfolioInput } from '../portfolio/schemas.js';
import { RowVersion, requireInstrumentUnchanged, requireRowUnchanged } from './proposal-guards.js';
import { PROPOSAL_TTL_MS } from './schemas.js';

/**
 * The payload of each proposal kind, checked again when the proposal is applied (the row is
 * data the server wrote, but a payload of an older shape must not apply half-understood).
 */
export const ProposalPayloads = {
  record_transaction: z.object({ portfolioId: PortfolioId, transaction: NewTransaction }),
  create_portfolio: CreatePortfolioInput,
  save_moat_report: z.object({ symbol: z.string(), tags: Tags.default([]) }),
  import_transactions: z.object({
    portfolioId: PortfolioId,
    filename: z.string(),
    format: z.string(),
    /** The file, imported on confirmation by the broker-import flow (fingerprints, one transaction). */
    text: z.string().min(1),
    /** What the dry run said: rows the file yields, rows new to the portfolio, rows already there. */
    rows: z.number().int().min(0),
    newRows: z.number().int().min(0),
    alreadyPresent: z.number().int().min(0),
    /** Issue 40: a layout no definition knows, read with these columns as previewed. */
    mapping: ColumnMapping.optional(),
    /** The token of the preview the proposal showed; the import is refused if it changed. */
    previewToken: z.string().optional(),
  }),
  /** Issue 30: the transaction's new values, in full (what the summary names). */
  edit_transaction: z.object({
    portfolioId: PortfolioId,
    transactionId: PortfolioId,
    transaction: NewTransaction,
    ...RowVersion.shape,
  }),
  delete_transaction: z.object({
    portfolioId: PortfolioId,
    transactionId: PortfolioId,
    ...RowVersion.shape,
  }),
  revert_change: z.object({ portfolioId: PortfolioId, changeId: PortfolioId }),
  /**
   * Issue 38: what the instrument held under `symbol` is (the body of
   * `PUT /api/portfolios/{id}/instruments/{symbol}`), and the instrument the summary showed.
   */
  assign_instrument: z.object({
    portfolioId: PortfolioId,
    symbol: InstrumentSymbol,
    assignment: InstrumentAssignment,
    before: Instrument.optional(),
  }),
} as const satisfies Record<ProposalKind, z.ZodType>;

/** What {@link storeProposal} writes. */
export interface ProposalDraft<K extends ProposalKind = ProposalKind> {
  readonly kind: K;
  readonly summary: string;
  readonly payload: z.input<(typeof ProposalPayloads)[K]> & Record<string, unknown>;
}

/**
 * A stored proposal as the `proposal` frame shows it; an import's file text stays on the server
 * (the user sent it; the frame names the file and the counts).
 */
export function toProposalView(row: AdvisorProposal): ProposalView {
  const { text: _text, ...payload } = row.payload as Record<string, unknown>;
  return {
    id: row.id,
    kind: row.kind as ProposalKind,
    summary: row.summary,
    payload: row.kind === 'import_transactions' ? payload : row.payload,
    expiresAt: row.expiresAt,
  };
}

/** Stores a pending proposal for the user, expiring {@link PROPOSAL_TTL_MS} after `now`. */
export async function storeProposal(
  db: Executor,
  userId: string,
  draft: ProposalDraft,
  now: Date,
): Promise<ProposalView> {
  const row = await createRepositories(db).proposals.create(userId, {
    kind: draft.kind,
    summary: draft.summary,
    payload: draft.payload,
    expiresAt: new Date(now.getTime() + PROPOSAL_TTL_MS),
  });
  return toProposalView(row);
}

/** Market inputs and clock of the portfolio flows that apply proposals. */
export type ApplyDeps = Omit<PortfolioServiceDeps, 'db'>;

/**
 * Marks the proposal applied in the repositories of the change's transaction (a conditional
 * update: pending, unexpired, this user's), or throws why not; see `createProposalService`.
 */
export type MarkApplied = (repos: Repositories) => Promise<void>;

/**
 * Applies a proposal's payload through the same flows as the REST writes (`createPortfolio`,
 * `recordTransaction`, `importBrokerCsv`, the corrections, `reports.save`), each in ONE database
 * transaction with `mark`: a change of a ledger is one `changeLedger` (quotes gathered first),
 * whose guard marks the proposal applied and checks what it recorded right after the portfolio
 * is locked; the other kinds open a transaction of their own for the mark and the write. A
 * failure anywhere rolls back the mark with the change (the proposal stays pending).
 * @throws UseCaseError `validation_failed` (payload no longer valid, sell beyond holdings, …),
 *   `not_found` (the portfolio is gone), `conflict` (decided, expired, the row or ledger the
 *   summary described changed, the evaluation to save left the cache).
 */
export async function applyProposal(
  db: Executor,
  deps: ApplyDeps,
  userId: string,
  proposal: AdvisorProposal,
  mark: MarkApplied,
): Promise<Record<string, unknown>> {
  const portfolios = createPortfolioService({ ...deps, db });
  const kind = proposal.kind as ProposalKind;
  /** In one transaction of its own: the mark, then `work` over that transaction. */
  const alone = <T>(work: (trx: Executor) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      await mark(createRepositories(trx));
      return work(trx);
    });
  const advisor = (guard?: (unit: LedgerUnit) => Promise<void>) => ({
    source: 'advisor' as const,
    guard: async (unit: LedgerUnit) => {
      await mark(unit.repos);
      await guard?.(unit);
    },
  });
  switch (kind) {
    case 'create_portfolio': {
      const input = parsePayload(kind, proposal.payload);
      return alone(async (trx) => ({
        portfolio: await createPortfolioService({ ...deps, db: trx }).createPortfolio(
          userId,
          input,
        ),
      }));
    }
    case 'record_transaction': {
      const { portfolioId, transaction } = parsePayload(kind, proposal.payload);
      return {
        transaction: await portfolios.recordTransaction(
          userId,
          portfolioId,
          transaction,
          advisor(),
        ),
      };
    }
    case 'import_transactions': {
      // The same flow as POST /portfolios/{id}/import: every row fingerprinted, the rows the
      // portfolio already holds dropped, all or nothing (here inside the confirmation's
      // transaction). Two proposals of one file, both confirmed, import it once (the second
      // writes nothing). Issue 41: a ledger that changed since the dry run so that the file
      // would now import another number of rows than the summary counted is refused (409).
      const { portfolioId, text, newRows, mapping, previewToken } = parsePayload(
        kind,
        proposal.payload,
      );
      const result = await portfolios.importBrokerCsv(
        userId,
        portfolioId,
        text,
        mapping && previewToken ? { mapping, previewToken } : {},
        {
          ...advisor(),
          expectedNewRows: newRows,
        },
      );
      return {
        imported: result.imported,
        alreadyPresent: result.alreadyPresent,
        importBatchId: result.importBatchId,
      };
    }
    case 'edit_transaction': {
      // The new values in full: every field the summary named replaces the stored one, and a
      // field the new values lack is removed (the patch's null).
      const payload = parsePayload(kind, proposal.payload);
      const { portfolioId, transactionId, transaction } = payload;
      return {
        transaction: await portfolios.editTransaction(
          userId,
          portfolioId,
          transactionId,
          fullPatch(transaction),
          advisor((unit) =>
            requireRowUnchanged(unit.repos, userId, portfolioId, transactionId, payload),
          ),
        ),
      };
    }
    case 'delete_transaction': {
      const payload = parsePayload(kind, proposal.payload);
      const { portfolioId, transactionId } = payload;
      await portfolios.deleteTransaction(
        userId,
        portfolioId,
        transactionId,
        advisor((unit) =>
          requireRowUnchanged(unit.repos, userId, portfolioId, transactionId, payload),
        ),
      );
      return { deleted: transactionId };
    }
    case 'revert_change': {
      const { portfolioId, changeId } = parsePayload(kind, proposal.payload);
      return {
        change: await portfolios.revertChange(userId, portfolioId, changeId, advisor()),
      };
    }
    case 'assign_instrument': {
      // The flow of PUT /portfolios/{id}/instruments/{symbol}: one `edit` change of the journal
      // (source advisor, revertible), applied only while the instrument is the one the summary
      // showed.
      const { portfolioId, symbol, assignment, before } = parsePayload(kind, proposal.payload);
      // a symbol reassigned away since is a changed instrument (409), not a missing one
      await requireInstrumentUnchanged(createRepositories(db), userId, portfolioId, symbol, before);
      return {
        assignment: await portfolios.assignInstrument(
          userId,
          portfolioId,
          symbol,
          assignment,
          advisor((unit) =>
            requireInstrumentUnchanged(unit.repos, userId, portfolioId, symbol, before),
          ),
        ),
      };
    }
    case 'save_moat_report': {
      const { symbol, tags } = parsePayload(kind, proposal.payload);
      return alone((trx) => saveReport(createRepositories(trx), userId, symbol, tags));
    }
    default:
      throw new UseCaseError('validation_failed', `unknown proposal kind ${String(kind)}`);
  }
}

/** Saves the cached evaluation of `symbol` as a report of the user, with `tags`. */
async function saveReport(
  repos: Repositories,
  userId: string,
  symbol: string,
  tags: string[],
): Promise<Record<string, unknown>> {
  const cached = await repos.evaluations.get(symbol);
  if (!cached) throw new UseCaseError('conflict', `no cached evaluation of ${symbol} any more`);
  const { evaluation } = cached;
  const saved = await createReportService({ reports: repos.reports }).save(userId, {
    symbol: evaluation.symbol,
    evaluationJson: JSON.stringify(evaluation),
    companyName: evaluation.companyName,
    totalScore: evaluation.totalScore,
    maxScore: evaluation.maxScore,
    verdict: evaluation.verdict,
    tags,
  });
  return { reportId: saved.id };
}

/** Optional fields of a transaction that a full replacement removes when the new values lack them. */
const REPLACED_FIELDS = ['symbol', 'quantity', 'price', 'amount', 'ratio', 'fee', 'note'] as const;

/** A `TransactionPatch` that makes a transaction exactly `tx`. */
export function fullPatch(tx: z.output<typeof NewTransaction>): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...tx };
  for (const field of REPLACED_FIELDS) if (!(field in tx)) patch[field] = null;
  return patch;
}

function parsePayload<K extends ProposalKind>(
  kind: K,
  payload: unknown,
): z.output<(typeof ProposalPayloads)[K]> {
  const parsed = (ProposalPayloads[kind] as z.ZodType).safeParse(payload);
  if (parsed.success) return parsed.data as z.output<(typeof ProposalPayloads)[K]>;
  throw new UseCaseError('validation_failed', 'the proposal no longer matches its schema', {
    errors: parsed.error.issues.map((i) => ({
      path: ['payload', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  });
}
