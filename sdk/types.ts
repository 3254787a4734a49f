/**
 * Hand-written SDK types: the skill-call answers (the three shapes of
 * POST /v1/apps/{app}/skills/{skill}), API keys, and the typed `client.apps` surface built
 * over the generated {@link SkillTypes}. Every other body, API keys included, is generated
 * (sdk/generated.ts).
 */
import type { ApiKeyList, SkillTypes, Task } from './generated.js';

/** The envelope every skill takes: 1 to 5 independent request items. */
export interface SkillInput {
  requests: Record<string, unknown>[];
}

/**
 * 200: a quick skill ran in the API process and answered inline: the skill output plus
 * previews, and `call_id`, the id its usage record is filed under. There is no task to poll.
 */
export type SkillCallCompleted<O = Record<string, unknown>> = O & {
  previews: unknown[];
  call_id: string;
};

/** 202: a tier or provider limit queued the call to its reset; poll `task_id`. */
export interface SkillCallQueued {
  task_id: string;
  status: 'queued';
}

/** 202: a long-running skill started; poll `task_id`, its file is `embed_id`. */
export interface SkillCallStarted {
  task_id: string;
  embed_id: string;
}

/**
 * 200 of the guest route POST /v1/anonymous/apps/{app}/skills/{skill}: the output plus
 * previews (no usage record, so no `call_id`).
 */
export type AnonymousSkillCallCompleted<O = Record<string, unknown>> = O & { previews: unknown[] };

/** Any answer of a skill call: exactly the REST route's JSON body. */
export type SkillCallResponse<O = Record<string, unknown>> =
  SkillCallCompleted<O> | SkillCallQueued | SkillCallStarted;

/** True for a 200 answer (the output is in the body). */
export function isCompleted<O>(res: SkillCallResponse<O>): res is SkillCallCompleted<O> {
  return Array.isArray((res as { previews?: unknown }).previews);
}

/** What a typed skill method resolves to, by the skill's mode. */
export type SkillResult<S extends { output: unknown; mode: 'sync' | 'async' }> = S['mode'] extends 'async'
  ? SkillCallStarted
  : SkillCallCompleted<S['output']> | SkillCallQueued;

/** Options of one skill call. */
export interface SkillCallOptions {
  /** First-party team execution (`?team_id=`); the server checks membership and spending role. */
  teamId?: string;
  /**
   * Sent as `Idempotency-Key` (1-255 printable ASCII characters): repeating the call with the
   * same key and input within 24 hours returns the first answer (same `call_id` or `task_id`)
   * and does not call the skill again.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** An app's skills as methods, camelCase over the snake_case skill ids. */
export type TypedApp<A extends keyof SkillTypes> = {
  readonly [S in keyof SkillTypes[A]]: SkillTypes[A][S] extends {
    input: infer I;
    output: unknown;
    mode: 'sync' | 'async';
  }
    ? (input: I, options?: SkillCallOptions) => Promise<SkillResult<SkillTypes[A][S]>>
    : never;
};

/** `client.apps`: every app known when sdk/generated.ts was generated, fully typed. */
export type TypedApps = { readonly [A in keyof SkillTypes]: TypedApp<A> };

/** Any app's skills, untyped (`client.app('<app>')`): method names are camelCase or snake_case. */
export type UntypedApp = {
  readonly [skill: string]: (input: SkillInput, options?: SkillCallOptions) => Promise<SkillCallResponse>;
};

/** One step of a task. */
export type TaskStep = Task['steps'][number];

/** Terminal task states. */
export const TERMINAL_STATUSES: readonly Task['status'][] = ['completed', 'failed', 'cancelled'];

/** An API key as listed (never with its token). */
export type ApiKey = ApiKeyList['keys'][number];

/** Access tiers of an API key. */
export type KeyTier = ApiKey['tier'];

export type { CreatedApiKey, CreateKeyInput } from './generated.js';

/** A definition's source: YAML or JSON text, or an object (sent as JSON). */
export type DefinitionSource = string | Record<string, unknown>;

/** How a text source is sent. Default: JSON when it starts with `{`, else YAML. */
export type DefinitionFormat = 'yaml' | 'json';
