/**
 * `wait_for_approval` steps: the run waits on a durable timer until a person decides through the
 * `approval` Update, or the timeout passes. The Update's validator refuses a decision for a step
 * that is not waiting (`APPROVAL_NOT_WAITING`) and a payload that does not fit the declared
 * fields (`INVALID_APPROVAL_PAYLOAD`, with the failing paths), so a refused decision leaves no
 * trace in the history. While approvals wait, the run's memo lists them (title, payload fields,
 * expiry: encrypted like every payload) and its `Waiting` search attribute holds `approval`, so
 * the API lists an owner's pending approvals from visibility, without a worker. Deterministic
 * workflow code.
 */
import {
  ApplicationFailure,
  condition,
  defineUpdate,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  applyRunInputs,
  cutText,
  MAX_RUN_INPUT_CHARS,
  oversizedRunInput,
  renderTemplate,
  UNDECLARED_INPUT,
  type ApprovalPlanStep,
  type RunInputSpec,
  type RunScope,
} from '../definitions/runtime/index.js';
import type { StepProgress } from './progress.js';

/** What an approver sends (the API adds `decided_by`: the deciding key's id). */
export interface ApprovalDecision {
  step: string;
  decision: 'approved' | 'rejected';
  payload?: Record<string, unknown>;
  decided_by: string;
}

export const approvalUpdate = defineUpdate<{ decided_at: string }, [ApprovalDecision]>('approval');

/** A waiting approval as the approvals list shows it. */
export interface PendingApproval {
  step_id: string;
  title: string;
  payload: Record<string, RunInputSpec>;
  expires_at: string;
}

export const APPROVALS_MEMO_KEY = 'approvals';
/** The `Waiting` search attribute's value while an approval waits. */
export const WAITING_APPROVAL = 'approval';

/** The longest rendered title, in characters (code points); a longer one is cut and marked. */
const MAX_TITLE_CHARS = 1_000;

export interface ApprovalOutput {
  decision: 'approved' | 'rejected' | 'timed_out';
  payload: Record<string, unknown>;
  decided_by: string | null;
  decided_at: string | null;
}

type Decided = Omit<ApprovalOutput, 'decision'> & { decision: 'approved' | 'rejected' };

/** A run's approvals: the waiting ones and the decisions that arrived for them. */
export class Approvals {
  private readonly waiting = new Map<string, PendingApproval>();
  private readonly decided = new Map<string, Decided>();

  /** Installs the Update handler; `now` is workflow time. */
  constructor(private readonly now: () => string) {
    setHandler(approvalUpdate, (d) => this.accept(d), {
      validator: (d: ApprovalDecision) => this.validate(d),
    });
  }

  private validate(d: ApprovalDecision): void {
    const pending = typeof d?.step === 'string' ? this.waiting.get(d.step) : undefined;
    if (!pending || this.decided.has(d.step))
      // The catalogue's message: the API answers it as it is.
      throw ApplicationFailure.nonRetryable(
        'The run is not waiting for this approval (decided, timed out, ended, or no such step).',
        'APPROVAL_NOT_WAITING',
      );
    const issues = payloadIssues(pending.payload, d.decision, d.payload);
    if (issues)
      throw ApplicationFailure.create({
        type: 'INVALID_APPROVAL_PAYLOAD',
        message: "The payload does not fit the approval's declared fields; see details.issues.",
        nonRetryable: true,
        details: [{ issues }],
      });
  }

  private accept(d: ApprovalDecision): { decided_at: string } {
    const pending = this.waiting.get(d.step)!;
    const checked = applyRunInputs(specsFor(pending.payload, d.decision), d.payload ?? {}, 'payload');
    const decided_at = this.now();
    this.decided.set(d.step, {
      decision: d.decision,
      payload: checked.ok ? checked.inputs : {},
      decided_by: d.decided_by,
      decided_at,
    });
    return { decided_at };
  }

  /** Waits for the step's decision until its timeout; answers the step's output. */
  async wait(step: ApprovalPlanStep, scope: RunScope, state: StepProgress): Promise<ApprovalOutput> {
    const title = cutText(renderTemplate(step.title, scope), MAX_TITLE_CHARS);
    const expires_at = new Date(Date.parse(this.now()) + step.timeoutMs).toISOString();
    state.approval = { expires_at };
    this.waiting.set(step.id, { step_id: step.id, title, payload: step.payload, expires_at });
    this.publish();
    try {
      await condition(() => this.decided.has(step.id), step.timeoutMs);
    } finally {
      this.waiting.delete(step.id);
      this.publish();
    }
    // A decision accepted in the same workflow task as the timer firing still counts: its
    // approver was answered 200.
    const decided = this.decided.get(step.id);
    if (decided) return decided;
    if (step.onTimeout === 'continue')
      return { decision: 'timed_out', payload: {}, decided_by: null, decided_at: null };
    throw ApplicationFailure.nonRetryable(
      'No decision arrived before the approval timed out.',
      'APPROVAL_TIMED_OUT',
    );
  }

  private publish(): void {
    upsertMemo({ [APPROVALS_MEMO_KEY]: [...this.waiting.values()] });
    upsertSearchAttributes({ Waiting: this.waiting.size > 0 ? [WAITING_APPROVAL] : [] });
  }
}

/** An approval asks for its required fields; a rejection may leave any of them out. */
function specsFor(specs: Record<string, RunInputSpec>, decision: string): Record<string, RunInputSpec> {
  if (decision === 'approved') return specs;
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, { ...spec, required: false }]),
  );
}

function payloadIssues(
  specs: Record<string, RunInputSpec>,
  decision: unknown,
  payload: unknown,
): Array<{ path: string; message: string }> | undefined {
  if (decision !== 'approved' && decision !== 'rejected')
    return [{ path: 'decision', message: 'must be approved or rejected' }];
  if (payload === undefined) payload = {};
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return [{ path: 'payload', message: 'must be an object' }];
  const record = payload as Record<string, unknown>;
  const oversized = oversizedRunInput(record, MAX_RUN_INPUT_CHARS);
  if (oversized)
    return [{ path: 'payload', message: `must take at most ${MAX_RUN_INPUT_CHARS} characters of JSON` }];
  const checked = applyRunInputs(specsFor(specs, decision), record, 'payload');
  if (checked.ok) return undefined;
  return checked.issues.map(({ path, message }) => ({
    path,
    message: message === UNDECLARED_INPUT ? 'holds a field the approval does not declare' : message,
  }));
}
