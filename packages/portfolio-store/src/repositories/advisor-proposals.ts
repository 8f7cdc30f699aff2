import type { Selectable } from 'kysely';
import type { AdvisorProposalsTable, ProposalStatus } from '../db-types.js';
import { type Executor, iso, isoOrNull, isUuid } from './shared.js';

/** An action the advisor proposed (CONTRACT §4, advisor `proposal` frame plus its state). */
export interface AdvisorProposal {
  id: string;
  kind: string;
  summary: string;
  payload: Record<string, unknown>;
  status: ProposalStatus;
  /** ISO-8601. */
  expiresAt: string;
  /** ISO-8601, set once applied. */
  appliedAt: string | null;
  /** ISO-8601. */
  createdAt: string;
}

/** A proposal to store. */
export interface NewAdvisorProposal {
  kind: string;
  summary: string;
  payload: Record<string, unknown>;
  expiresAt: Date;
}

/**
 * Outcome of a decision on a proposal: `decided` with the updated proposal, or why not:
 * `not_found` (no such proposal for this user → 404) or `conflict` (already decided, or expired
 * → 409), with the proposal as it is.
 */
export type ProposalDecision =
  | { outcome: 'decided'; proposal: AdvisorProposal }
  | { outcome: 'not_found' }
  | { outcome: 'conflict'; reason: 'already_decided' | 'expired'; proposal: AdvisorProposal };

function toProposal(row: Selectable<AdvisorProposalsTable>): AdvisorProposal {
  return {
    id: row.id,
    kind: row.kind,
    summary: row.summary,
    payload: row.payload,
    status: row.status,
    expiresAt: iso(row.expires_at),
    appliedAt: isoOrNull(row.applied_at),
    createdAt: iso(row.created_at),
  };
}

/** Creates the advisor-proposal repository over `db`. Every query is scoped by the owning user. */
export function createAdvisorProposalsRepository(db: Executor) {
  const find = async (userId: string, proposalId: string) => {
    if (!isUuid(proposalId)) return undefined;
    const row = await db
      .selectFrom('advisor_proposals')
      .selectAll()
      .where('id', '=', proposalId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toProposal(row);
  };

  /** One atomic conditional UPDATE; when it matches nothing, a read explains why. */
  const decide = async (
    userId: string,
    proposalId: string,
    status: 'applied' | 'rejected',
    now: Date,
  ): Promise<ProposalDecision> => {
    if (!isUuid(proposalId)) return { outcome: 'not_found' };
    const row = await db
      .updateTable('advisor_proposals')
      .set({ status, decided_at: now, applied_at: status === 'applied' ? now : null })
      .where('id', '=', proposalId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    if (row) return { outcome: 'decided', proposal: toProposal(row) };
    const current = await find(userId, proposalId);
    if (!current) return { outcome: 'not_found' };
    const reason = current.status === 'pending' ? 'expired' : 'already_decided';
    return { outcome: 'conflict', reason, proposal: current };
  };

  return {
    /** Stores a pending proposal for the user. */
    async create(userId: string, proposal: NewAdvisorProposal): Promise<AdvisorProposal> {
      const row = await db
        .insertInto('advisor_proposals')
        .values({
          user_id: userId,
          kind: proposal.kind,
          summary: proposal.summary,
          payload: JSON.stringify(proposal.payload),
          expires_at: proposal.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toProposal(row);
    },

    /** A proposal of the user, or undefined (also for another user's). */
    findForUser: find,

    /** How many of the user's proposals are pending and unexpired at `now`. */
    async countPending(userId: string, now: Date): Promise<number> {
      const row = await db
        .selectFrom('advisor_proposals')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Marks a proposal applied at most once: `UPDATE … WHERE status = 'pending' AND expires_at >
     * now RETURNING`, so of any number of concurrent calls exactly one gets `decided`. To apply
     * the proposal's effect atomically with the mark, call it on a transaction
     * (`db.transaction().execute((trx) => createRepositories(trx).proposals.markApplied(…))`)
     * and do the work in the same transaction.
     */
    markApplied(userId: string, proposalId: string, now: Date): Promise<ProposalDecision> {
      return decide(userId, proposalId, 'applied', now);
    },

    /** Marks a pending, unexpired proposal rejected (same rules as {@link markApplied}). */
    markRejected(userId: string, proposalId: string, now: Date): Promise<ProposalDecision> {
      return decide(userId, proposalId, 'rejected', now);
    },
  };
}

/** The advisor-proposal repository (see {@link createAdvisorProposalsRepository}). */
export type AdvisorProposalsRepository = ReturnType<typeof createAdvisorProposalsRepository>;
