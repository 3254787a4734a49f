/**
 * Decision usage of a skill call that ran as a task (queued or long-running): its usage record is
 * written when the call is accepted, before the worker runs it, so the worker adds the decision
 * tokens and cost of the call (its relevance decisions) once the skill activity has finished.
 *
 * Only for the `runSkillCall` workflow, whose workflow id is the task id of the record; skills
 * run as workflow steps have no record of their own. The figure is the usage of one activity
 * attempt (the meter is made per attempt) and is set, not added: a retried attempt replaces the
 * earlier one instead of counting it twice (an attempt lost after spending is not billed). The
 * acceptance record is written right after the workflow starts, so a missing record is retried
 * briefly; a store failure is logged and never fails the call.
 */
import type { UsageRecords } from '../lib/store/owners/usage-records.js';

/** The workflow whose id is a task's id (workflows/skill-call.ts). */
export const SKILL_CALL_WORKFLOW = 'runSkillCall';
/** Tries to find the acceptance record, {@link RECORD_RETRY_MS} apart. */
export const RECORD_TRIES = 10;
export const RECORD_RETRY_MS = 100;

export interface TaskUsageTarget {
  usage: UsageRecords;
  /** Told when the usage could not be written (no query or result in it). */
  warn: (message: string, fields: Record<string, unknown>) => void;
}

/** Writes `spent` on the record of task `taskId` when the activity ran in a skill-call task. */
export async function recordTaskDecisionUsage(
  target: TaskUsageTarget | undefined,
  run: { workflowType: string; taskId: string },
  spent: { input_tokens: number; cost_usd: number },
): Promise<void> {
  if (!target || run.workflowType !== SKILL_CALL_WORKFLOW || spent.input_tokens === 0) return;
  try {
    for (let i = 0; i < RECORD_TRIES; i += 1) {
      if (await target.usage.setDecisionUsage(run.taskId, spent)) return;
      await new Promise((r) => setTimeout(r, RECORD_RETRY_MS));
    }
    target.warn('usage record of the task not found; its decision usage is not recorded', {
      task_id: run.taskId,
    });
  } catch (err) {
    target.warn('decision usage of the task could not be recorded', {
      task_id: run.taskId,
      err: err instanceof Error ? err.name : 'error',
    });
  }
}
