/**
 * Records when each API key was last used (`last_used_at`, shown by `GET /v1/keys` and
 * `skillflow keys list`) to a minute: a process writes a key's time at most once per
 * {@link KEY_USE_PRECISION_MS}, in the background, and the store skips a write within that
 * window of the stored time, so N processes cost at most N writes per key per minute. A failed
 * write is dropped (the next use a minute later writes again); it never fails a request.
 */
import type { Store } from './store/db.js';
import { markApiKeyUsed } from './store/owners/api-keys.js';

export const KEY_USE_PRECISION_MS = 60_000;
/** Keys remembered per process (the oldest forgotten first; forgetting costs one extra write). */
const MAX_REMEMBERED = 10_000;

export class KeyUseRecorder {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes one use of the key; writes its time when this process has not within the window. */
  touch(keyId: string): void {
    const now = this.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < KEY_USE_PRECISION_MS) return;
    this.written.delete(keyId);
    this.written.set(keyId, now);
    if (this.written.size > MAX_REMEMBERED) {
      const oldest = this.written.keys().next();
      if (!oldest.done) this.written.delete(oldest.value);
    }
    void markApiKeyUsed(this.store, keyId, new Date(now), KEY_USE_PRECISION_MS).catch(() => undefined);
  }
}
