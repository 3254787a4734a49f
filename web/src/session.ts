/**
 * The workspace's first-party session. Signing in sends the pasted API key once, to
 * POST /v1/sessions (or spends a one-time sign-in link's code); from then on the browser holds
 * only the session cookie (HttpOnly: no script reads it) and this tab holds the session's CSRF
 * token in memory, which every state-changing request sends. Nothing is kept in sessionStorage
 * or localStorage; a reload asks GET /v1/sessions/current for the CSRF token again.
 */
import { request } from './api.js';

/** What a signed-in page needs: the CSRF token (null: a guest). */
export type Auth = string | null;

interface SignedIn {
  csrf_token: string;
}

/** Does the browser hold a session? The API sets a readable marker cookie beside the HttpOnly one. */
function hasSessionMarker(): boolean {
  return document.cookie.split(';').some((c) => /^\s*(?:__Host-)?skillflow_signed_in=1\s*$/.test(c));
}

/**
 * The current session's CSRF token, or null when the browser has no live session. A guest's
 * browser has no marker cookie and sends nothing.
 */
export async function restoreSession(): Promise<Auth> {
  if (!hasSessionMarker()) return null;
  try {
    return (await request<SignedIn>('GET', '/v1/sessions/current')).csrf_token;
  } catch {
    return null;
  }
}

/** Signs in with an API key; the key is sent once and not kept. Throws ApiError (401 for a bad key). */
export async function signInWithKey(key: string): Promise<Auth> {
  return (await request<SignedIn>('POST', '/v1/sessions', { headers: { authorization: `Bearer ${key}` } }))
    .csrf_token;
}

/** Spends a one-time sign-in link's code. Throws ApiError (401 for a used or expired link). */
export async function signInWithCode(code: string): Promise<Auth> {
  return (await request<SignedIn>('POST', '/v1/sessions/exchange', { body: { code } })).csrf_token;
}

/** Signs out: ends the session and clears its cookie (already ended: nothing to do). */
export async function signOut(auth: Auth): Promise<void> {
  if (!auth) return;
  await request('DELETE', '/v1/sessions/current', { auth }).catch(() => undefined);
}
