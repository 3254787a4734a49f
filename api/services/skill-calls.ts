/**
 * Authenticated skill calls. Each call runs as a `runSkillCall` workflow (uniform policies,
 * visibility, scale). Before it starts, the limits decide when it may run:
 * - within the caller's tier limit and with room at every provider the call will use, a quick
 *   skill is started and awaited and answered inline (or 202 with its task id if it outlasts
 *   SKILL_CALL_WAIT_MS);
 * - over the tier limit, a provider limit or the caller's share of one, it is queued (spec 8: queued and retried on reset
 *   instead of rejected): the workflow starts with a delay to the reset time and the caller gets
 *   `202 { task_id, status: "queued" }` at once. The queue is bounded per API key
 *   (QUEUE_MAX_PER_KEY); past it the answer is 429 with Retry-After.
 * A long-running skill answers at once with its task id and embed id. Every accepted call gets
 * a usage record, billed to the caller or to the team named by `team_id`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { TypedSearchAttributes } from '@temporalio/common';
import { createOwnerProviderShare, type OwnerProviderShare } from '../../activities/owner-provider-share.js';
import { createProviderLimits, type ProviderLimits } from '../../activities/provider-limits.js';
import { requestItems } from '../../activities/registry/request-items.js';
import type { LoadedSkill, SkillImplementation } from '../../activities/registry/types.js';
import { providerWait, type FullSkillResult } from '../../activities/skill-activity.js';
import type { Config } from '../../lib/config.js';
import type { Principal } from '../../lib/keys.js';
import { CallQueue } from '../../lib/limits/call-queue.js';
import type { Store } from '../../lib/store/db.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import { OwnerId, SkillRef, TaskKind } from '../../lib/temporal/search-attributes.js';
import type { Payer, UsageRecords } from '../../lib/usage/usage-records.js';
import { PROGRESS_MEMO_KEY, pendingStep } from '../../workflows/progress.js';
import type { SkillCallInput } from '../../workflows/skill-call.js';
import { toSkillflowError } from '../errors.js';

export type CallOutcome =
  | { kind: 'completed'; taskId: string; result: FullSkillResult }
  | { kind: 'queued'; taskId: string; retryAfterMs: number }
  | { kind: 'started'; taskId: string; embedId: string };

/** How long a quick call is awaited before the caller gets its task id instead. */
export const SYNC_WAIT_MS = 60_000;

export interface CallOptions {
  /** Who pays: the caller, or a team (membership and spending right already checked). */
  payer: Payer;
  /** Milliseconds until the caller's tier window resets, when the tier limit is used up. */
  tierWaitMs?: number | undefined;
}

type Skill = LoadedSkill & { impl: SkillImplementation };

export class SkillCallsService {
  private readonly providers: ProviderLimits;
  private readonly queue: CallQueue;
  private readonly share: OwnerProviderShare;

  constructor(
    private readonly temporal: TemporalClient,
    private readonly config: Config,
    private readonly store: Store,
    private readonly usage: UsageRecords,
    private readonly syncWaitMs = SYNC_WAIT_MS,
  ) {
    this.providers = createProviderLimits(config, store);
    this.share = createOwnerProviderShare(config, store);
    this.queue = new CallQueue(store, config.QUEUE_MAX_PER_KEY);
  }

  /** Runs (or queues) one validated call. */
  async call(principal: Principal, skill: Skill, input: unknown, opts: CallOptions): Promise<CallOutcome> {
    const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
    const taskId = `task_${randomUUID()}`;
    const providerBusy = await providerWait(skill, input, this.providers, {
      share: this.share,
      ownerId: principal.ownerId,
    });
    const delayMs = Math.max(opts.tierWaitMs ?? 0, providerBusy?.retryAfterMs ?? 0);
    if (delayMs > 0) {
      await this.queue.enqueue({
        taskId,
        keyId: principal.keyId,
        ownerId: principal.ownerId,
        runAt: new Date(Date.now() + delayMs),
      });
    }
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
      policy: skill.policy.activity,
      ...(embedId ? { embedId } : {}),
      ownerId: principal.ownerId,
    };
    const handle = await this.temporal.client.workflow.start('runSkillCall', {
      taskQueue: this.config.TEMPORAL_TASK_QUEUE,
      workflowId: taskId,
      args: [args],
      ...(delayMs > 0 ? { startDelay: delayMs } : {}),
      typedSearchAttributes: new TypedSearchAttributes([
        { key: TaskKind, value: 'skill_call' },
        { key: SkillRef, value: ref },
        { key: OwnerId, value: principal.ownerId },
      ]),
      memo: { [PROGRESS_MEMO_KEY]: { steps: [pendingStep(ref)] } },
    });
    const items = requestItems(input);
    await this.usage.record({
      taskId,
      ownerId: principal.ownerId,
      keyId: principal.keyId,
      payer: opts.payer,
      skill: ref,
      requestItems: items,
      credits: items * skill.manifest.pricing.creditsPerRequest,
      queued: delayMs > 0,
    });
    if (embedId) return { kind: 'started', taskId, embedId };
    if (delayMs > 0) return { kind: 'queued', taskId, retryAfterMs: delayMs };

    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.syncWaitMs);
    });
    try {
      const result = handle.result() as Promise<FullSkillResult>;
      // After a timeout nobody awaits it: its later failure (e.g. on shutdown) must not go unhandled.
      result.catch(() => undefined);
      const res = await Promise.race([result, timeout]);
      if (res === 'timeout') return { kind: 'queued', taskId, retryAfterMs: 0 };
      return { kind: 'completed', taskId, result: res };
    } catch (err) {
      throw toSkillflowError(err);
    } finally {
      clearTimeout(timer);
    }
  }
}
