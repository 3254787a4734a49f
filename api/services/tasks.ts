/**
 * GET /v1/tasks/{task_id}: one shape for workflow runs and long-running skill calls. Status
 * and timing come from Temporal's describe; per-step progress from the run's live query, its
 * result or its (encrypted) memo, as `run-progress.ts` explains; result or error from the
 * workflow's outcome.
 * Someone else's task is indistinguishable from a missing one (404). Reading or cancelling an
 * own task needs the scope of what it is: `workflows` for a workflow run, the skill's scope
 * (`app:<app>` or `skill:<app>.<skill>`) for a skill call; otherwise 403.
 */
import {
  isGrpcServiceError,
  WorkflowNotFoundError,
  type WorkflowExecutionDescription,
} from '@temporalio/client';
import { ERROR_CATALOGUE } from '../../lib/errors/catalogue.js';
import { errors } from '../../lib/errors/errors.js';
import type { Principal } from '../../lib/keys.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import {
  DefinitionId,
  DefinitionVersion,
  OwnerId,
  RerunOf,
  SkillRef,
  TaskKind,
  TriggerType,
} from '../../lib/temporal/search-attributes.js';
import type { StepProgress } from '../../workflows/progress.js';
import type { UsageRecords } from '../../lib/store/owners/usage-records.js';
import { fromFailStep, fromTemporalFailure } from '../errors.js';
import { PROGRESS_QUERY_DEADLINE_MS, RunProgressReader } from './run-progress.js';
import { gateIdOf, slotPlaceQuery } from '../../workflows/flow-gate.js';
import type { TaskStatus, TaskView } from '../schemas.js';
import { requireNamedScope, requireSkill } from '../scopes.js';
import { literal } from '../../lib/temporal/visibility.js';

/** gRPC's INVALID_ARGUMENT: a visibility query naming a search attribute the cluster lacks. */
const GRPC_INVALID_ARGUMENT = 3;

/** A closed run's view lists at most this many of its re-runs (newest first). */
export const MAX_LISTED_RERUNS = 20;
import { traceIdOfMemo } from '../../lib/tracing/temporal.js';

/**
 * Maps a Temporal execution status to the task vocabulary. An open execution is `queued` until
 * one of its steps has started (a delayed start, or a worker not yet picked it up); `started`
 * says so when the steps at hand are the ones recorded at start (run-progress.ts).
 */
export function taskStatus(
  temporalStatus: string,
  steps: readonly StepProgress[],
  started = steps.some((s) => s.status !== 'pending'),
): TaskStatus {
  switch (temporalStatus) {
    case 'COMPLETED':
      return 'completed';
    case 'CANCELLED':
      return 'cancelled';
    case 'FAILED':
    case 'TIMED_OUT':
    case 'TERMINATED':
      return 'failed';
    default:
      return started ? 'running' : 'queued';
  }
}

export class TasksService {
  private readonly progress: RunProgressReader;

  constructor(
    private readonly temporal: TemporalClient,
    private readonly uiUrl: string | undefined,
    private readonly usage: UsageRecords,
  ) {
    this.progress = new RunProgressReader(temporal);
  }

  /** The caller's own task, after the scope check of its kind. */
  async describeOwned(principal: Principal, taskId: string): Promise<WorkflowExecutionDescription> {
    if (!/^task_[A-Za-z0-9_:.-]{1,200}$/.test(taskId)) throw errors.notFound('No task with this id.');
    let desc: WorkflowExecutionDescription;
    try {
      desc = await this.temporal.client.workflow.getHandle(taskId).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw errors.notFound('No task with this id.');
      throw err;
    }
    if (desc.typedSearchAttributes.get(OwnerId) !== principal.ownerId)
      throw errors.notFound('No task with this id.');
    if (desc.typedSearchAttributes.get(TaskKind) === 'skill_call') {
      const [appId = '', skillId = ''] = (desc.typedSearchAttributes.get(SkillRef) ?? '').split('.');
      requireSkill(principal, appId, skillId);
    } else {
      requireNamedScope(principal, 'workflows');
    }
    return desc;
  }

  async get(principal: Principal, taskId: string): Promise<TaskView> {
    const desc = await this.describeOwned(principal, taskId);
    const kind = desc.typedSearchAttributes.get(TaskKind) === 'skill_call' ? 'skill_call' : 'workflow_run';
    let result: unknown = null;
    let error: TaskView['error'] = null;
    const handle = this.temporal.client.workflow.getHandle(taskId, desc.runId);
    if (desc.status.name === 'COMPLETED') result = await handle.result();
    const progress = await this.progress.forTask(desc, kind === 'skill_call', result);
    const status = progress.queued
      ? 'queued'
      : taskStatus(desc.status.name, progress.steps, progress.started);
    if (status === 'failed' || status === 'cancelled') {
      try {
        await handle.result();
      } catch (err) {
        const mapped = fromTemporalFailure(err);
        // A fail step's own code and message, as the author wrote them for the run's owner.
        const authored = fromFailStep(err);
        error = authored
          ? authored
          : mapped
            ? { code: mapped.code, message: mapped.message, details: mapped.details }
            : status === 'cancelled'
              ? { code: 'CANCELLED', message: ERROR_CATALOGUE.CANCELLED.message, details: {} }
              : {
                  code: 'INTERNAL',
                  message: 'The task failed.',
                  details: { temporal_status: desc.status.name },
                };
      }
    }
    const usage = kind === 'skill_call' ? await this.usage.forTask(taskId, principal.ownerId) : undefined;
    const defId = desc.typedSearchAttributes.get(DefinitionId);
    // Only a closed run has re-runs (an open one is refused 409).
    const reruns =
      kind === 'workflow_run' && desc.closeTime ? await this.rerunsOf(principal.ownerId, taskId) : [];
    const traceId = traceIdOfMemo(desc.memo);
    return {
      task_id: taskId,
      kind,
      status,
      definition: defId
        ? { id: defId, version: desc.typedSearchAttributes.get(DefinitionVersion) ?? null }
        : null,
      skill: desc.typedSearchAttributes.get(SkillRef) ?? null,
      trigger: desc.typedSearchAttributes.get(TriggerType) ?? null,
      started_at: desc.startTime.toISOString(),
      finished_at: desc.closeTime?.toISOString() ?? null,
      steps: progress.steps,
      result,
      error,
      billing: usage
        ? { billed_to: usage.billed_to, request_items: usage.request_items, credits: usage.credits }
        : null,
      rerun_of: desc.typedSearchAttributes.get(RerunOf) ?? null,
      reruns,
      ...(traceId ? { trace_id: traceId } : {}),
      ...(progress.queued && { queue: await this.placeOf(principal.ownerId, taskId) }),
      links: {
        self: `/v1/tasks/${taskId}`,
        temporal_ui: `${this.uiUrl ?? 'http://127.0.0.1:8233'}/namespaces/${encodeURIComponent(this.temporal.namespace)}/workflows/${encodeURIComponent(taskId)}`,
      },
    };
  }

  /** The newest re-runs of a run (ids only), from visibility (which trails a start by a moment). */
  private async rerunsOf(ownerId: string, taskId: string): Promise<string[]> {
    const ids: string[] = [];
    const query = `${RerunOf.name} = ${literal(taskId)} AND ${OwnerId.name} = ${literal(ownerId)}`;
    try {
      for await (const wf of this.temporal.client.workflow.list({ query, pageSize: MAX_LISTED_RERUNS })) {
        ids.push(wf.workflowId);
        if (ids.length >= MAX_LISTED_RERUNS) break;
      }
    } catch (err) {
      // A cluster without the RerunOf search attribute (docs/api.md says how to add it) has no
      // re-runs to list; the rest of the view stands.
      if (isGrpcServiceError(err) && Number(err.code) === GRPC_INVALID_ARGUMENT) return [];
      throw err;
    }
    return ids;
  }

  /**
   * A queued run's place, from its owner's gate (workflows/flow-gate.ts); unknown while the gate
   * does not answer in time (or has not seen the request yet).
   */
  private async placeOf(ownerId: string, taskId: string): Promise<NonNullable<TaskView['queue']>> {
    const gate = this.temporal.client.workflow.getHandle(gateIdOf(ownerId));
    try {
      const place = await this.temporal.client.withDeadline(Date.now() + PROGRESS_QUERY_DEADLINE_MS, () =>
        gate.query(slotPlaceQuery, taskId),
      );
      if (place) return place;
    } catch {
      // No gate answer: the place is unknown, the run still waits.
    }
    return { position: null, reason: null };
  }

  /** Requests cancellation; the run stops cleanly at its current step. */
  async cancel(principal: Principal, taskId: string): Promise<TaskView> {
    const desc = await this.describeOwned(principal, taskId);
    if (desc.status.name === 'RUNNING')
      await this.temporal.client.workflow.getHandle(taskId, desc.runId).cancel();
    return this.get(principal, taskId);
  }
}
