/**
 * Approvals of `wait_for_approval` steps (needs the `workflows` scope): the pending ones
 * (GET /v1/approvals) and a decision (POST /v1/runs/{run_id}/approvals/{step_id}). A payload
 * that does not fit the declared fields throws a 422 `INVALID_APPROVAL_PAYLOAD`
 * {@link SkillflowApiError} naming the paths; a run that is not waiting, a 409
 * `APPROVAL_NOT_WAITING`.
 */
import type { ApprovalDecided, ApprovalList } from './generated.js';
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
  return {
    list: async () =>
      (await http.send<ApprovalList>({ method: 'GET', path: '/v1/approvals' })).body.approvals,
    approve: (runId, stepId, payload) => decide(runId, stepId, 'approved', payload),
    reject: (runId, stepId, payload) => decide(runId, stepId, 'rejected', payload),
  };
}
