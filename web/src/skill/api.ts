/** The skill page's calls: run a skill, and fetch an embed file (over the session) as a blob. */
import { ApiError, callSkill } from '../api.js';

/** What POST /v1/apps/{app}/skills/{skill} answered: the output inline, or a task to follow. */
export type RunAnswer =
  | { kind: 'inline'; body: Record<string, unknown> }
  | { kind: 'task'; taskId: string; embedId: string | null; queued: boolean; body: Record<string, unknown> };

/** Reads a 200 (output + previews + call_id) or 202 (`task_id`, `embed_id` or `status: queued`). */
export function runAnswer(body: Record<string, unknown>): RunAnswer {
  if (typeof body.task_id === 'string')
    return {
      kind: 'task',
      taskId: body.task_id,
      embedId: typeof body.embed_id === 'string' ? body.embed_id : null,
      queued: body.status === 'queued',
      body,
    };
  return { kind: 'inline', body };
}

/** Runs the skill with `{ requests }`: the keyed route, or the guest route without a key. */
export async function runSkill(
  auth: string | null,
  app: string,
  skill: string,
  requests: Record<string, unknown>[],
): Promise<RunAnswer> {
  const body = (await callSkill(auth, app, skill, { requests })) as Record<string, unknown>;
  return runAnswer(body);
}

/** An embed file fetched with the key: its blob and the file name the API suggests. */
export interface EmbedFile {
  blob: Blob;
  filename: string;
}

/** GET /v1/embeds/{id}/file?format=…, over the session; fetched (not `<img src>`) to name the file and show errors. */
export async function fetchEmbedFile(
  auth: string,
  embedId: string,
  format: string,
  signal?: AbortSignal,
): Promise<EmbedFile> {
  const res = await fetch(
    `/v1/embeds/${encodeURIComponent(embedId)}/file?format=${encodeURIComponent(format)}`,
    {
      headers: { 'x-csrf-token': auth },
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    },
  );
  if (!res.ok) {
    const parsed = (await res.json().catch(() => null)) as {
      error?: { code?: string; message?: string };
    } | null;
    throw new ApiError(
      res.status,
      parsed?.error?.code ?? 'HTTP_ERROR',
      parsed?.error?.message ?? `The API answered ${res.status}.`,
    );
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const named = /filename="([^"]+)"/.exec(disposition)?.[1];
  const type = res.headers.get('content-type') ?? '';
  const ext = type.includes('svg') ? 'svg' : 'json';
  return { blob: await res.blob(), filename: named ?? `${embedId}.${format}.${ext}` };
}
