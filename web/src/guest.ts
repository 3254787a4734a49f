/**
 * The guest id of this browser for the anonymous skill route (`X-Skillflow-Anonymous-ID`). It is
 * stable across reloads (localStorage) so the free allowance follows the guest, as anonymous
 * identities must; it is not a secret and grants nothing beyond the free allowance. The
 * API key is never stored here (see session.ts).
 */
const KEY = 'skillflow.guest_id';
const VALID = /^[A-Za-z0-9_-]{16,128}$/;

function fresh(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return `guest_${btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/** This browser's guest id, created on first use. */
export function guestId(): string {
  const stored = localStorage.getItem(KEY);
  if (stored && VALID.test(stored)) return stored;
  const id = fresh();
  localStorage.setItem(KEY, id);
  return id;
}
