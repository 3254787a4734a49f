/**
 * Authenticated skill calls. Each call runs as a `runSkillCall` workflow (uniform policies,
 * visibility, scale): a quick skill is awaited and answered inline; if it does not finish in
 * time (e.g. an upstream asked us to wait and Temporal retries at the reset time), the caller
 * gets 202 with the task id instead of an error. A long-running skill answers at once with its
 * task id and embed id.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { TypedSearchAttributes } from '@temporalio/common';
import { activityPolicy, isPolicyName } from '../../activities/policy.js';
import type { LoadedSkill, SkillImplementation } from '../../activities/registry/types.js';
import type { FullSkillResult } from '../../activities/skill-activity.js';
import type { Config } from '../../lib/config.js';
import type { Principal } from '../../lib/keys.js';
import type { Store } from '../../lib/store/db.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { OwnerId, SkillRef, TaskKind } from '../../lib/temporal/search-attributes.js';
import { PROGRESS_MEMO_KEY, pendingStep } from '../../workflows/progress.js';
import type { SkillCallInput } from '../../workflows/skill-call.js';
import { toSkillflowError } from '../errors.js';

export type CallOutcome =
  | { kind: 'completed'; taskId: string; result: FullSkillResult }
  | { kind: 'queued'; taskId: string }
  | { kind: 'started'; taskId: string; embedId: string };

/** How long a quick call is awaited before the caller gets its task id instead. */
export const SYNC_WAIT_MS = 60_000;

export class SkillCallsService {
  constructor(
    private readonly temporal: TemporalClient,
    private readonly config: Config,
    private readonly store: Store,
    private readonly syncWaitMs = SYNC_WAIT_MS,
  ) {}

  async call(
    principal: Principal,
    skill: LoadedSkill & { impl: SkillImplementation },
    input: unknown,
  ): Promise<CallOutcome> {
    const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
    const policyName = skill.manifest.policy;
    const taskId = `task_${randomUUID()}`;
    const async = skill.manifest.capabilities.mode === 'async';
    const embedId = async ? `emb_${randomBytes(12).toString('hex')}` : undefined;
    if (embedId) {
      await this.store.db
        .insertInto('embeds')
        .values({
          id: embedId,
          owner_id: principal.ownerId,
          task_id: taskId,
          skill: ref,
          status: 'pending',
          content_sealed: null,
        })
        .execute();
    }
    const args: SkillCallInput = {
      skill: ref,
      input,
      policy: activityPolicy(isPolicyName(policyName) ? policyName : 'upstream-lookup'),
      ...(embedId ? { embedId } : {}),
      ownerId: principal.ownerId,
    };
    const handle = await this.temporal.client.workflow.start('runSkillCall', {
      taskQueue: this.config.TEMPORAL_TASK_QUEUE,
      workflowId: taskId,
      args: [args],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: TaskKind, value: 'skill_call' },
        { key: SkillRef, value: ref },
        { key: OwnerId, value: principal.ownerId },
      ]),
      memo: {
        [PROGRESS_MEMO_KEY]: {
          steps: [pendingStep(ref)],
        },
      },
    });
    if (embedId) return { kind: 'started', taskId, embedId };

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.syncWaitMs);
    });
    try {
      const result = handle.result() as Promise<FullSkillResult>;
      // After a timeout nobody awaits it: its later failure (e.g. on shutdown) must not go unhandled.
      result.catch(() => undefined);
      const res = await Promise.race([result, timeout]);
      if (res === 'timeout') return { kind: 'queued', taskId };
      return { kind: 'completed', taskId, result: res };
    } catch (err) {
      throw toSkillflowError(err);
    } finally {
      clearTimeout(timer);
    }
  }
}
