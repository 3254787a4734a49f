/**
 * Approvals of `wait_for_approval` steps: the caller's pending ones, listed from Temporal
 * visibility (a waiting run's `Waiting` search attribute and its memo, so no worker is asked),
 * and a decision, delivered to the run as the `approval` Update. The Update's validator refuses
 * a decision the run is not waiting for (409) or a payload that does not fit (422, with the
 * paths) before anything is recorded. A decision no worker confirmed within the deadline is 503:
 * it may still take effect; the same decision sent again while the run waits joins it (one
 * Update id per caller and decision) and answers its outcome. Needs the `workflows` scope and
 * the run's owner, or an approval link: a signed token (lib/crypto/approval-link.ts) that names
 * one approval and expires with it; a link decides once (its decisions carry no Update id, so a
 * second one finds the step decided).
 */
import { createHash } from 'node:crypto';
import {
  isGrpcServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type WorkflowExecutionInfo,
} from '@temporalio/client';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { signApprovalLink, verifyApprovalLink } from '../../lib/crypto/approval-link.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { Principal } from '../../lib/keys.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { DefinitionId, DefinitionVersion, TaskKind } from '../../lib/temporal/search-attributes.js';
import { literal } from '../../lib/temporal/visibility.js';
import { APPROVALS_MEMO_KEY, approvalUpdate, WAITING_APPROVAL } from '../../workflows/approvals.js';
import { fromTemporalFailure } from '../errors.js';
import { z } from 'zod';
import {
  PayloadFieldSchema,
  type ApprovalAnswerSchema,
  type ApprovalBody,
  type PendingApprovalSchema,
} from '../schemas.js';
import { requireNamedScope } from '../scopes.js';
import type { TasksService } from './tasks.js';

/** The most approvals one list answers. */
export const MAX_LISTED_APPROVALS = 100;
/** The most waiting runs one list reads from visibility. */
const MAX_SCANNED_RUNS = 500;
/** How long a decision may take to reach the run and be answered. */
const DECIDE_DEADLINE_MS = 10_000;
/** gRPC status codes (the client's transport). */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_NOT_FOUND = 5;
const GRPC_FAILED_PRECONDITION = 9;

type Pending = z.infer<typeof PendingApprovalSchema>;
/** What an approval link shows before its decision. */
export type LinkView = Pick<Pending, 'title' | 'payload' | 'expires_at'>;

export class ApprovalsService {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly tasks: TasksService,
    private readonly keyring: Keyring,
    /** Prefix of approval links (`PUBLIC_URL`); empty gives a path on the API's own origin. */
    private readonly publicUrl = '',
  ) {}

  /**
   * The approvals the caller's owner has waiting: from the newest waiting runs (at most
   * `MAX_SCANNED_RUNS` read), the first `MAX_LISTED_APPROVALS` not yet expired, soonest expiry
   * first.
   */
  async list(principal: Principal, now = new Date()): Promise<Pending[]> {
    requireNamedScope(principal, 'workflows');
    const query = `OwnerId = ${literal(principal.ownerId)} AND Waiting = ${literal(WAITING_APPROVAL)} AND ExecutionStatus = "Running"`;
    const out: Pending[] = [];
    let scanned = 0;
    for await (const wf of this.temporal.client.workflow.list({ query, pageSize: MAX_LISTED_APPROVALS })) {
      for (const approval of memoApprovals(wf))
        if (Date.parse(approval.expires_at) > now.getTime()) out.push(this.view(wf, approval));
      if (out.length >= MAX_LISTED_APPROVALS || (scanned += 1) >= MAX_SCANNED_RUNS) break;
    }
    return out.slice(0, MAX_LISTED_APPROVALS).sort((a, b) => a.expires_at.localeCompare(b.expires_at));
  }

  private view(wf: WorkflowExecutionInfo, approval: z.infer<typeof MemoApproval>): Pending {
    const token = signApprovalLink(this.keyring, {
      run: wf.workflowId,
      step: approval.step_id,
      exp: Date.parse(approval.expires_at),
    });
    return {
      run_id: wf.workflowId,
      step_id: approval.step_id,
      title: approval.title,
      payload: approval.payload,
      expires_at: approval.expires_at,
      definition: {
        id: wf.typedSearchAttributes.get(DefinitionId) ?? '',
        version: wf.typedSearchAttributes.get(DefinitionVersion) ?? 0,
      },
      link: `${this.publicUrl}/#approve/${token}`,
    };
  }

  /** What a link's approval asks: its title, fields and expiry (no key: the link is the right). */
  async viewLink(token: unknown, now = Date.now()): Promise<LinkView> {
    const claims = verifyApprovalLink(this.keyring, token, now);
    if (!claims) throw new SkillflowError('APPROVAL_LINK_INVALID');
    const pending = await this.pendingOf(claims.run, claims.step);
    return { title: pending.title, payload: pending.payload, expires_at: pending.expires_at };
  }

  /** Decides a link's approval: `decided_by` is `link`. */
  async decideLink(
    token: unknown,
    body: z.infer<typeof ApprovalBody>,
    now = Date.now(),
  ): Promise<z.infer<typeof ApprovalAnswerSchema>> {
    const claims = verifyApprovalLink(this.keyring, token, now);
    if (!claims) throw new SkillflowError('APPROVAL_LINK_INVALID');
    // No Update id of its own: a second use, even with the same decision, is refused (409).
    return this.deliver(claims.run, claims.step, body, { decidedBy: 'link' });
  }

  /** The run's waiting approval of `step`, read from its memo; APPROVAL_NOT_WAITING otherwise. */
  private async pendingOf(runId: string, stepId: string): Promise<z.infer<typeof MemoApproval>> {
    let desc;
    try {
      desc = await this.temporal.client.workflow.getHandle(runId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new SkillflowError('APPROVAL_NOT_WAITING');
      throw err;
    }
    const found =
      desc.status.name === 'RUNNING'
        ? memoApprovals(desc as unknown as WorkflowExecutionInfo).find((a) => a.step_id === stepId)
        : undefined;
    if (!found) throw new SkillflowError('APPROVAL_NOT_WAITING');
    return found;
  }

  /** Delivers a decision to the run's waiting step. */
  async decide(
    principal: Principal,
    runId: string,
    stepId: string,
    body: z.infer<typeof ApprovalBody>,
  ): Promise<z.infer<typeof ApprovalAnswerSchema>> {
    requireNamedScope(principal, 'workflows');
    const desc = await this.tasks.describeOwned(principal, runId);
    if (desc.typedSearchAttributes.get(TaskKind) !== 'workflow_run' || desc.status.name !== 'RUNNING')
      throw new SkillflowError('APPROVAL_NOT_WAITING');
    return this.deliver(runId, stepId, body, {
      decidedBy: principal.keyId,
      temporalRunId: desc.runId,
      updateId: updateIdOf(principal.keyId, stepId, body),
    });
  }

  /**
   * Sends the decision as the run's `approval` Update, answered within the deadline: to the
   * described execution when `temporalRunId` is given, joining an earlier Update of `updateId`.
   */
  private async deliver(
    runId: string,
    stepId: string,
    body: z.infer<typeof ApprovalBody>,
    how: { decidedBy: string; temporalRunId?: string; updateId?: string },
  ): Promise<z.infer<typeof ApprovalAnswerSchema>> {
    const { decidedBy, temporalRunId, updateId } = how;
    const handle = this.temporal.client.workflow.getHandle(runId, temporalRunId);
    try {
      const { decided_at } = await this.temporal.client.withDeadline(Date.now() + DECIDE_DEADLINE_MS, () =>
        handle.executeUpdate(approvalUpdate, {
          ...(updateId && { updateId }),
          args: [
            {
              step: stepId,
              decision: body.decision,
              ...(body.payload && { payload: body.payload }),
              decided_by: decidedBy,
            },
          ],
        }),
      );
      return { run_id: runId, step_id: stepId, decision: body.decision, decided_at };
    } catch (err) {
      throw decideError(err);
    }
  }
}

/**
 * The Update's id: the same caller sending the same decision again (say, after a 503) joins the
 * first one and gets its answer, whether the first was applied meanwhile or not; any other
 * decision is a new Update, refused once one was taken.
 */
function updateIdOf(keyId: string, stepId: string, body: z.infer<typeof ApprovalBody>): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([keyId, stepId, body.decision, body.payload ?? null]))
    .digest('hex');
  return `approval-${digest.slice(0, 40)}`;
}

/** What a waiting run's memo lists, as the workflow writes it (an entry of another shape is skipped). */
const MemoApproval = z.object({
  step_id: z.string(),
  title: z.string(),
  payload: z.record(z.string(), PayloadFieldSchema),
  expires_at: z.string(),
});

function memoApprovals(wf: WorkflowExecutionInfo): Array<z.infer<typeof MemoApproval>> {
  const listed = wf.memo?.[APPROVALS_MEMO_KEY];
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry) => {
    const parsed = MemoApproval.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A refused or undeliverable decision, as the API answers it. */
function decideError(err: unknown): unknown {
  if (err instanceof WorkflowUpdateFailedError) return fromTemporalFailure(err.cause) ?? err;
  // No worker confirmed it within the deadline; it may still be applied (see updateIdOf).
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return new SkillflowError('DEADLINE_EXCEEDED');
  // The run ended between the describe and the Update.
  if (err instanceof WorkflowNotFoundError) return new SkillflowError('APPROVAL_NOT_WAITING');
  if (!isGrpcServiceError(err)) return err;
  const code = Number(err.code);
  if (code === GRPC_NOT_FOUND || code === GRPC_FAILED_PRECONDITION)
    return new SkillflowError('APPROVAL_NOT_WAITING');
  if (code === GRPC_DEADLINE_EXCEEDED) return new SkillflowError('DEADLINE_EXCEEDED');
  return err;
}
