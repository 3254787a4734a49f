/**
 * The browser's calls to the API under /v1 on the same origin. The response types are the JS
 * SDK's generated ones (sdk/generated.ts), imported as types only: the SDK's transport uses
 * undici and is for Node, so the browser uses `fetch`.
 */
import type { AppView, SkillDetails } from '../../sdk/generated.js';

/** An error envelope `{ error: { code, message, details } }` as the API sends it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function getJson<T>(path: string, apiKey: string | null): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const res = await fetch(path, { headers, credentials: 'omit' });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    throw new ApiError(
      res.status,
      typeof error?.code === 'string' ? error.code : 'http_error',
      typeof error?.message === 'string' ? error.message : `The API answered ${res.status}.`,
    );
  }
  return body as T;
}

const APP_ROUTE = /^\/v1\/apps\/([a-z][a-z0-9_]*)\/skills\/[a-z][a-z0-9_]*$/;

/**
 * The apps and their skills. This branch has no list route, so (like the SDK's `skills.list`)
 * the app ids come from the skill paths of the public OpenAPI document, then each app is read
 * from GET /v1/apps/{app_id}. Switch to GET /v1/apps once that route is on the branch.
 */
export async function listApps(apiKey: string | null): Promise<AppView[]> {
  const doc = await getJson<{ paths?: Record<string, unknown> }>('/v1/openapi.json', null);
  const ids = new Set<string>();
  for (const path of Object.keys(doc.paths ?? {})) {
    const id = APP_ROUTE.exec(path)?.[1];
    if (id) ids.add(id);
  }
  const sorted = [...ids].sort();
  return Promise.all(sorted.map((id) => getJson<AppView>(`/v1/apps/${encodeURIComponent(id)}`, apiKey)));
}

/** GET /v1/apps/{app}/skills/{skill}/details: a skill with its JSON Schemas. */
export function skillDetails(apiKey: string | null, app: string, skill: string): Promise<SkillDetails> {
  return getJson(`/v1/apps/${encodeURIComponent(app)}/skills/${encodeURIComponent(skill)}/details`, apiKey);
}
