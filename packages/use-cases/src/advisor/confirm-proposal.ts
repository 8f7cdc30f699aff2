import {
  createRepositories,
  type Executor,
  type ProposalDecision,
  type Repositories,
} from '@svc/portfolio-store';
import { UseCaseError } from '../errors.js';
import type { Actor } from '../moat/evaluation-service.js';
import { type ApplyDeps, applyProposal } from './proposals.js';
import type { ConfirmProposalRequest, ConfirmProposalResult } from './schemas.js';

/** What {@link createProposalService} needs. */
export interface ProposalServiceDeps extends ApplyDeps {
  /** The Kysely instance of `@svc/portfolio-store`, migrated. */
  readonly db: Executor;
}

function refused(decision: Exclude<ProposalDecision, { outcome: 'decided' }>): never {
  if (decision.outcome === 'not_found') {
    throw new UseCaseError('not_found', 'no such proposal');
  }
  const why =
    decision.reason === 'expired'
      ? `the proposal expired at ${decision.proposal.expiresAt}`
      : `the proposal was already ${decision.proposal.status}`;
  throw new UseCaseError('conflict', why);
}

/**
 * The decision on an advisor proposal (`POST /api/advisor/confirm`, CONTRACT §4).
 *
 * - `accept`: the proposal is read, then its change is made through the same flows as the REST
 *   writes (`applyProposal`), in ONE database transaction with the mark "applied" (a conditional
 *   update: pending, unexpired, this user's): a change of a ledger is one `changeLedger` (quotes
 *   first), which marks the proposal and checks what it recorded (the row's tag, the ledger
 *   version) right after locking the portfolio; if anything fails, the mark rolls back with the
 *   change and the proposal stays pending.
 * - `reject`: marked rejected; nothing else changes.
 *
 * A proposal is decided at most once: a second decision, or one after `expiresAt`, is a
 * `conflict`; an unknown id, or another user's proposal, is `not_found` (the same answer, so ids
 * of others cannot be probed).
 *
 * @throws UseCaseError `not_found`, `conflict`, and the `validation_failed` / `not_found` of the
 *   flow that applies the change (then nothing is stored).
 * @example
 * await proposals.confirm(actor, { proposalId, decision: 'accept' });
 * // { status: 'applied', result: { portfolio: { id, name: 'Growth', … } } }
 */
export function createProposalService(deps: ProposalServiceDeps) {
  return {
    async confirm(actor: Actor, request: ConfirmProposalRequest): Promise<ConfirmProposalResult> {
      const now = deps.now();
      if (request.decision === 'reject') {
        const decision = await createRepositories(deps.db).proposals.markRejected(
          actor.id,
          request.proposalId,
          now,
        );
        if (decision.outcome !== 'decided') refused(decision);
        return { status: 'rejected' };
      }
      const found = await createRepositories(deps.db).proposals.findForUser(
        actor.id,
        request.proposalId,
      );
      if (!found) refused({ outcome: 'not_found' });
      if (found.status !== 'pending') {
        refused({ outcome: 'conflict', reason: 'already_decided', proposal: found });
      }
      const mark = async (repos: Repositories) => {
        const decision = await repos.proposals.markApplied(actor.id, request.proposalId, now);
        if (decision.outcome !== 'decided') refused(decision);
      };
      const result = await applyProposal(deps.db, deps, actor.id, found, mark);
      return { status: 'applied' as const, result };
    },
  };
}

/** The proposal decision flow; see {@link createProposalService}. */
export type ProposalService = ReturnType<typeof createProposalService>;
