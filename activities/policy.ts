/**
 * The one policy module: each skill's Temporal activity options (timeouts, retry,
 * non-retryable error types, heartbeat) as named profiles, next to the capability metadata in
 * the app definition files (which name a profile). Temporal owns retries across attempts;
 * inside an activity only the spec's one lazy proxy attempt and the deadline signal exist.
 *
 * The result is plain JSON, so it can be snapshotted into a workflow plan or a skill-call
 * workflow's input: a run never sees a policy that changed after it started.
 */
import { ERROR_CATALOGUE } from '../lib/errors/catalogue.js';

export interface PolicyProfile {
  /** Limit of one attempt. */
  startToCloseMs: number;
  /** Limit across all attempts, including backoff. */
  scheduleToCloseMs: number;
  heartbeatMs?: number;
  /** Longest per-step `timeout` a definition may ask for. */
  maxStepTimeoutMs: number;
  retry: {
    initialIntervalMs: number;
    backoffCoefficient: number;
    maximumIntervalMs: number;
    maximumAttempts: number;
  };
}

/** Error codes Temporal must never retry: every catalogue code marked non-retryable. */
export const NON_RETRYABLE_ERROR_TYPES: string[] = Object.entries(ERROR_CATALOGUE)
  .filter(([, spec]) => !spec.retryable)
  .map(([code]) => code);

export const POLICY_PROFILES = {
  /**
   * Domain search and similar multi-operation upstream searches. Groups run concurrently with a
   * 40 s group deadline (fallback included), so one attempt needs 40 s plus mapping slack. The
   * skill's own outcomes are final (activities/skill-activity.ts); the retries here are for a
   * lost worker (heartbeat timeout) and a provider limit that queued the call before it sent.
   */
  'upstream-search': {
    startToCloseMs: 55_000,
    scheduleToCloseMs: 5 * 60_000,
    heartbeatMs: 20_000,
    maxStepTimeoutMs: 5 * 60_000,
    retry: { initialIntervalMs: 2_000, backoffCoefficient: 2, maximumIntervalMs: 30_000, maximumAttempts: 3 },
  },
  /** Single upstream lookups (icons, encyclopedia, power). */
  'upstream-lookup': {
    startToCloseMs: 20_000,
    scheduleToCloseMs: 2 * 60_000,
    maxStepTimeoutMs: 2 * 60_000,
    retry: { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 20_000, maximumAttempts: 4 },
  },
  /** Chat message delivery: the store write plus an optional webhook; retried patiently. */
  'chat-delivery': {
    startToCloseMs: 15_000,
    scheduleToCloseMs: 10 * 60_000,
    maxStepTimeoutMs: 10 * 60_000,
    retry: {
      initialIntervalMs: 1_000,
      backoffCoefficient: 2,
      maximumIntervalMs: 60_000,
      maximumAttempts: 10,
    },
  },
  /** In-process skills with no upstream (tests, pure helpers). */
  local: {
    startToCloseMs: 10_000,
    heartbeatMs: 2_000,
    scheduleToCloseMs: 60_000,
    maxStepTimeoutMs: 60_000,
    retry: { initialIntervalMs: 500, backoffCoefficient: 2, maximumIntervalMs: 5_000, maximumAttempts: 3 },
  },
} as const satisfies Record<string, PolicyProfile>;

export type PolicyName = keyof typeof POLICY_PROFILES;

export function isPolicyName(name: string): name is PolicyName {
  return Object.hasOwn(POLICY_PROFILES, name);
}

/** JSON-serialisable activity options (the subset of Temporal's ActivityOptions we set). */
export interface ActivityPolicy {
  startToCloseTimeout: number;
  scheduleToCloseTimeout: number;
  heartbeatTimeout?: number;
  retry: {
    initialInterval: number;
    backoffCoefficient: number;
    maximumInterval: number;
    maximumAttempts: number;
    nonRetryableErrorTypes: string[];
  };
}

/**
 * Activity options for a profile. A step `timeout` narrows the whole-step limit
 * (schedule-to-close) and never widens it past the profile's maximum.
 */
export function activityPolicy(name: PolicyName, stepTimeoutMs?: number): ActivityPolicy {
  const p: PolicyProfile = POLICY_PROFILES[name];
  const total = Math.min(stepTimeoutMs ?? p.scheduleToCloseMs, p.maxStepTimeoutMs);
  return {
    startToCloseTimeout: Math.min(p.startToCloseMs, total),
    scheduleToCloseTimeout: total,
    ...(p.heartbeatMs ? { heartbeatTimeout: p.heartbeatMs } : {}),
    retry: {
      initialInterval: p.retry.initialIntervalMs,
      backoffCoefficient: p.retry.backoffCoefficient,
      maximumInterval: p.retry.maximumIntervalMs,
      maximumAttempts: p.retry.maximumAttempts,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  };
}
