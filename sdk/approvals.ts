/**
 * Approvals of `wait_for_approval` steps (needs the `workflows` scope): the pending ones
 * (GET /v1/approvals) and a decision (POST /v1/runs/{run_id}/approvals/{step_id}). A payload
 * that does not fit the declared fields throws a 422 `INVALID_APPROVAL_PAYLOAD`
 * {@link SkillflowApiError} naming the paths; a run that is not waiting, a 409
 * `APPROVAL_NOT_WAITING`.
 *
 * An approval link (the `link` of a listed approval) needs no key: `viewLink` shows what it asks,
 * `approveLink` and `rejectLink` decide once. An altered or expired link throws a 403
 * `APPROVAL_LINK_INVALID`; a link used before, a 409 `APPROVAL_NOT_WAITING`.
 */
import type { ApprovalDecided, ApprovalLinkView, ApprovalList } from './generated.js';
import { seg, type Transport } from './http.js';

/** One approval a run waits for. */
export type PendingApproval = ApprovalList['approvals'][number];

/** `client.approvals`. */
export interface ApprovalsClient {
  /** The approvals the caller's runs wait for, soonest expiry first. */
  list(): Promise<PendingApproval[]>;
  /** Approves the run's waiting step, with the payload its declared fields ask for. */
  approve(runId: string, stepId: string, payload?: Record<string, unknown>): Promise<ApprovalDecided>;
  /** Rejects it (the step completes with `decision: rejected`; the run goes on). */
  reject(runId: string, stepId: string, payload?: Record<string, unknown>): Promise<ApprovalDecided>;
  /** What an approval link (the whole link or its token) asks: title, payload fields, expiry. */
  viewLink(link: string): Promise<ApprovalLinkView>;
  /** Approves through a link, once (`decided_by: link`). */
  approveLink(link: string, payload?: Record<string, unknown>): Promise<ApprovalDecided>;
  /** Rejects through a link, once. */
  rejectLink(link: string, payload?: Record<string, unknown>): Promise<ApprovalDecided>;
}

/** The token of an approval link: what follows `#approve/`, or the whole string if it has none. */
export function linkToken(link: string): string {
  const at = link.indexOf('#approve/');
  return at < 0 ? link : link.slice(at + '#approve/'.length);
}

/** Creates `client.approvals`. */
export function createApprovalsClient(http: Transport): ApprovalsClient {
  const decide = async (
    runId: string,
    stepId: string,
    decision: 'approved' | 'rejected',
    payload?: Record<string, unknown>,
  ): Promise<ApprovalDecided> =>
    (
      await http.send<ApprovalDecided>({
        method: 'POST',
        path: `/v1/runs/${seg(runId)}/approvals/${seg(stepId)}`,
        json: { decision, ...(payload && { payload }) },
      })
    ).body;
  const decideLink = async (
    link: string,
    decision: 'approved' | 'rejected',
    payload?: Record<string, unknown>,
  ): Promise<ApprovalDecided> =>
    (
      await http.send<ApprovalDecided>({
        method: 'POST',
        path: '/v1/approval-links/decide',
        json: { token: linkToken(link), decision, ...(payload && { payload }) },
      })
    ).body;
  return {
    list: async () =>
      (await http.send<ApprovalList>({ method: 'GET', path: '/v1/approvals' })).body.approvals,
    approve: (runId, stepId, payload) => decide(runId, stepId, 'approved', payload),
    reject: (runId, stepId, payload) => decide(runId, stepId, 'rejected', payload),
    viewLink: async (link) =>
      (
        await http.send<ApprovalLinkView>({
          method: 'POST',
          path: '/v1/approval-links/view',
          json: { token: linkToken(link) },
        })
      ).body,
    approveLink: (link, payload) => decideLink(link, 'approved', payload),
    rejectLink: (link, payload) => decideLink(link, 'rejected', payload),
  };
}
