/**
 * One authenticated skill call as a workflow: uniform policies, visibility and scale. The
 * activity options are snapshotted by the caller from the policy module. For a long-running
 * (async) skill the result is also stored as the call's embed. Progress is kept in the memo,
 * in the same shape as a workflow run's, so GET /v1/tasks serves both.
 */
import { isCancellation, proxyActivities, upsertMemo } from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';
import type { FullSkillResult, SkillActivityInput } from '../activities/index.js';
import type { EmbedStore } from '../activities/platform/embeds.js';
import { activityOptions } from './activity-options.js';
import { stepError } from './step-error.js';
import { PROGRESS_MEMO_KEY, summarise, type StepProgress } from './progress.js';

export interface SkillCallInput {
  /** `<app>.<skill>`: the activity name. */
  skill: string;
  input: unknown;
  policy: ActivityPolicy;
  /** Set for async skills: where the result is stored. */
  embedId?: string;
  /** The calling owner, for its share of provider budgets (lib/limits/owner-provider-share.ts). */
  ownerId?: string;
  /** The restricted scopes of the calling key (activities/registry/restricted-options.ts). */
  grants?: string[];
}

export async function runSkillCall(args: SkillCallInput): Promise<FullSkillResult> {
  const step: StepProgress = {
    id: args.skill,
    status: 'running',
    started_at: new Date().toISOString(),
    finished_at: null,
    output_summary: null,
    error: null,
  };
  const publish = () => upsertMemo({ [PROGRESS_MEMO_KEY]: { steps: [step] } });
  publish();
  const acts = proxyActivities<Record<string, (req: SkillActivityInput) => Promise<FullSkillResult>>>(
    activityOptions(args.policy),
  );
  try {
    const result = await acts[args.skill]!({
      input: args.input,
      view: 'full',
      ...(args.ownerId ? { ownerId: args.ownerId } : {}),
      ...(args.grants ? { grants: args.grants } : {}),
    });
    if (args.embedId) {
      const { saveEmbed } = proxyActivities<EmbedStore>(activityOptions(args.policy));
      await saveEmbed({ embedId: args.embedId, result });
    }
    step.status = 'completed';
    step.output_summary = summarise(result.output);
    return result;
  } catch (err) {
    if (args.embedId && !isCancellation(err)) {
      const { markEmbedFailed } = proxyActivities<EmbedStore>(activityOptions(args.policy));
      await markEmbedFailed({ embedId: args.embedId });
    }
    if (isCancellation(err)) {
      step.status = 'cancelled';
    } else {
      step.status = 'failed';
      step.error = stepError(err);
    }
    throw err;
  } finally {
    step.finished_at = new Date().toISOString();
    publish();
  }
}
