/**
 * POST /v1/runs/{run_id}/rerun: a new run of a closed run's plan snapshot that takes over the
 * outputs of the steps before `from_step` (rerun-plan.ts says which). The earlier run is read,
 * never changed: its start input from the first event of its history, its outputs from its
 * result (completed) or from the memo it wrote as it ended (failed or cancelled), all decoded
 * with the payload codec. The two runs are linked by the re-run's `RerunOf` search attribute.
 */
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow/index.js';
import type { Principal } from '../../lib/keys.js';
import { errors } from '../../lib/errors/errors.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { TaskKind } from '../../lib/temporal/search-attributes.js';
import type { Registry } from '../../activities/registry/registry.js';
import { planSkills, type Plan } from '../../definitions/runtime/index.js';
import type {
  RunDefinitionInput,
  RunDefinitionResult,
  ChildRunSnapshot,
} from '../../workflows/run-definition.js';
import { RECORDED_MEMO_KEY, type RecordedOutputs } from '../../workflows/rerun.js';
import { memoSteps } from './run-progress.js';
import { planRerun, type EarlierRun, type RerunDecision, type RerunRequest } from './rerun-plan.js';
import type { RunsService } from './runs.js';
import type { TasksService } from './tasks.js';

/** A started re-run: its task id and what it takes over. */
export interface RerunStarted extends Omit<RerunDecision, 'input'> {
  taskId: string;
}

export class RerunsService {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly tasks: TasksService,
    private readonly runs: RunsService,
    private readonly registry: Registry,
  ) {}

  /**
   * Decides the re-run of the caller's closed run `taskId` (404 for another owner's or a skill
   * call, 409 while open, 422 for a request that does not fit), then lets `admit` check scopes
   * and quotas before it starts.
   */
  async rerun(
    principal: Principal,
    taskId: string,
    request: RerunRequest,
    admit: (decided: {
      ownerId: string;
      plan: Plan;
      children: { skills: string[]; children?: Record<string, ChildRunSnapshot> };
    }) => Promise<void>,
  ): Promise<RerunStarted> {
    const desc = await this.tasks.describeOwned(principal, taskId);
    if (desc.typedSearchAttributes.get(TaskKind) === 'skill_call')
      throw errors.notFound('No task with this id.');
    if (desc.status.name === 'RUNNING')
      throw errors.conflict('The run is still open: wait for it to end, or cancel it, before re-running it.');
    const earlier = await this.read(taskId, desc.runId, desc.status.name, desc.memo);
    const decision = planRerun(earlier, request, (ref) => {
      const [app = '', skill = ''] = ref.split('.');
      return this.registry.get(app, skill)?.impl?.input;
    });
    const children = decision.input.children;
    await admit({
      ownerId: decision.input.ownerId,
      plan: decision.input.plan,
      children: { skills: skillsOf(children), ...(children && { children }) },
    });
    const started = await this.runs.startRerun(decision.input, taskId, principal);
    const { input: _input, ...rest } = decision;
    return { ...rest, taskId: started };
  }

  private async read(
    taskId: string,
    runId: string,
    status: string,
    memo: Record<string, unknown> | undefined,
  ): Promise<EarlierRun> {
    const converter = this.temporal.client.options.loadedDataConverter;
    const history = await this.temporal.client.workflowService.getWorkflowExecutionHistory({
      namespace: this.temporal.namespace,
      execution: { workflowId: taskId, runId },
      maximumPageSize: 1,
    });
    const payloads = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
    const input = payloads
      ? await decodeFromPayloadsAtIndex<RunDefinitionInput>(converter, 0, payloads)
      : undefined;
    if (!input?.plan) throw errors.notFound('No task with this id.');
    if (status === 'COMPLETED') {
      const result = (await this.temporal.client.workflow
        .getHandle(taskId, runId)
        .result()) as RunDefinitionResult;
      return { taskId, input, steps: result.steps, outputs: result.outputs, elements: {} };
    }
    // A failed or cancelled run wrote its steps and outputs as it ended; a terminated one did not
    // (nothing is reused then).
    const recorded = memo?.[RECORDED_MEMO_KEY] as RecordedOutputs | undefined;
    return {
      taskId,
      input,
      steps: memoSteps(memo),
      outputs: recorded?.steps ?? {},
      elements: recorded?.elements ?? {},
    };
  }
}

/** Every skill the children of a snapshot call, at any depth. */
function skillsOf(children: Record<string, ChildRunSnapshot> | undefined): string[] {
  const skills = new Set<string>();
  const walk = (level: Record<string, ChildRunSnapshot> | undefined) => {
    for (const child of Object.values(level ?? {})) {
      for (const skill of planSkills(child.plan)) skills.add(skill);
      walk(child.children);
    }
  };
  walk(children);
  return [...skills];
}
