/**
 * The browser's calls to the API under /v1 on the same origin. The response types are the JS
 * SDK's generated ones (sdk/generated.ts), imported as types only: the SDK's transport uses
 * undici and is for Node, so the browser uses `fetch`. Page-specific calls live next to their
 * pages (e.g. `skill/api.ts`, `workflow/api.ts`) and use {@link request}.
 */
import type { AnonymousAppList, AppView, FreeUsageStatus, SkillDetails, Task } from '../../sdk/generated.js';
import type { GuestQuote } from '../../sdk/anonymous.js';
import type { AnonymousSkillCallCompleted, SkillCallResponse, SkillInput } from '../../sdk/types.js';
import { guestId } from './guest.js';

/** An error envelope `{ error: { code, message, details } }` as the API sends it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /**
   * The session's CSRF token (web/src/session.ts): the session cookie authenticates, and the
   * token is sent in `X-CSRF-Token` so the API accepts state changes. Null or absent: a guest.
   */
  auth?: string | null;
  /** A JSON value (sent as application/json) or a string sent with `contentType`. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A same-origin call; resolves to the parsed JSON body (undefined for 204), or throws {@link ApiError}. */
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.auth) headers['x-csrf-token'] = opts.auth;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = opts.contentType ?? 'application/json';
  }
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (res.status === 204) return undefined as T;
  const parsed: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)
      ?.error;
    throw new ApiError(
      res.status,
      typeof error?.code === 'string' ? error.code : 'HTTP_ERROR',
      typeof error?.message === 'string' ? error.message : `The API answered ${res.status}.`,
      error?.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {},
    );
  }
  return parsed as T;
}

/** A message for any thrown value, for `role="alert"` output. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : 'The request failed.';
}

const skillPath = (app: string, skill: string) =>
  `apps/${encodeURIComponent(app)}/skills/${encodeURIComponent(skill)}`;

/**
 * The apps and their skills: the public catalogue (GET /v1/anonymous/apps), one call for guests
 * and signed-in users alike. It equals what GET /v1/apps/{app_id} shows a key, app by app (tested
 * in anonymous-api.test.ts); the OpenAPI document plus one call per app took 208 ms to the app
 * list against 147 ms for this one call (npm run bench:web).
 */
export async function listApps(): Promise<AppView[]> {
  return (await request<AnonymousAppList>('GET', '/v1/anonymous/apps')).apps;
}

/** A skill with its JSON Schemas: GET /v1/apps/{app}/skills/{skill}/details, or its guest twin. */
export function skillDetails(auth: string | null, app: string, skill: string): Promise<SkillDetails> {
  return auth
    ? request('GET', `/v1/${skillPath(app, skill)}/details`, { auth })
    : request('GET', `/v1/anonymous/${skillPath(app, skill)}/details`);
}

/**
 * Runs a skill. With a key: POST /v1/apps/{app}/skills/{skill} (200 output, or 202 task). As a
 * guest: the anonymous route with this browser's guest id (one request item; 200 only).
 */
export function callSkill(
  auth: string | null,
  app: string,
  skill: string,
  body: SkillInput,
): Promise<SkillCallResponse | AnonymousSkillCallCompleted> {
  return auth
    ? request('POST', `/v1/${skillPath(app, skill)}`, { auth, body })
    : request('POST', `/v1/anonymous/${skillPath(app, skill)}`, {
        body,
        headers: { 'x-skillflow-anonymous-id': guestId() },
      });
}

/** A guest call's quote (the JS SDK's type): its price, whether it can run now, the allowance. */
export type { GuestQuote };

/** POST /v1/anonymous/apps/{app}/skills/{skill}/quote: validates and prices a guest call; runs nothing. */
export function quoteGuestCall(app: string, skill: string, body: SkillInput): Promise<GuestQuote> {
  return request('POST', `/v1/anonymous/${skillPath(app, skill)}/quote`, {
    body,
    headers: { 'x-skillflow-anonymous-id': guestId() },
  });
}

/** This guest's free allowance: GET /v1/anonymous/free-usage/status. */
export function freeUsageStatus(): Promise<FreeUsageStatus> {
  return request('GET', `/v1/anonymous/free-usage/status?anonymous_id=${encodeURIComponent(guestId())}`);
}

/** GET /v1/tasks/{id}: a workflow run or a queued / long-running skill call. */
export function getTask(auth: string, taskId: string, signal?: AbortSignal): Promise<Task> {
  return request('GET', `/v1/tasks/${encodeURIComponent(taskId)}`, { auth, ...(signal ? { signal } : {}) });
}

/** POST /v1/tasks/{id}/cancel. */
export function cancelTask(auth: string, taskId: string): Promise<unknown> {
  return request('POST', `/v1/tasks/${encodeURIComponent(taskId)}/cancel`, { auth });
}
