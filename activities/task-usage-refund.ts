/**
 * A skill-call task that our own provider limit refused is not billed: the worker removes the
 * usage record written when the call was accepted, once the refusal is final (the meter refused
 * a request and the wait for the limit's reset would have passed the attempt's deadline, or
 * the limit was still used up before the last attempt sent anything). An upstream's own 429 is
 * a failure of the call like any other, and stays billed.
 *
 * Only for the `runSkillCall` workflow, whose workflow id is the task id of the record. The
 * acceptance record is written right after the workflow starts, so a missing record is looked
 * for again briefly; a store failure is logged and never changes the call's outcome.
 */
import {
  RECORD_RETRY_MS,
  RECORD_TRIES,
  SKILL_CALL_WORKFLOW,
  type TaskUsageTarget,
} from './task-decision-usage.js';

/** Removes the usage record of task `taskId` when the activity ran in a skill-call task. */
export async function refundRefusedTask(
  target: TaskUsageTarget | undefined,
  run: { workflowType: string; taskId: string },
): Promise<void> {
  if (!target || run.workflowType !== SKILL_CALL_WORKFLOW) return;
  try {
    for (let i = 0; i < RECORD_TRIES; i += 1) {
      if (await target.usage.dropTaskRecord(run.taskId)) return;
      await new Promise((r) => setTimeout(r, RECORD_RETRY_MS));
    }
    target.warn('usage record of the refused task not found; nothing to refund', { task_id: run.taskId });
  } catch (err) {
    target.warn('usage record of the refused task could not be removed', {
      task_id: run.taskId,
      err: err instanceof Error ? err.name : 'error',
    });
  }
}
