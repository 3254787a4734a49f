/**
 * The pasted API key. It lives in `sessionStorage` only: never in a URL, a cookie or
 * `localStorage`, so it is gone when the tab closes.
 */
const KEY = 'skillflow.api_key';

/** The key of this tab's session, or null when signed out. */
export function readApiKey(): string | null {
  const value = sessionStorage.getItem(KEY);
  return value && value.length > 0 ? value : null;
}

/** Keeps a pasted key for this tab. Surrounding whitespace from the paste is dropped. */
export function saveApiKey(key: string): void {
  sessionStorage.setItem(KEY, key.trim());
}

/** Signs out: forgets the key. */
export function clearApiKey(): void {
  sessionStorage.removeItem(KEY);
}
