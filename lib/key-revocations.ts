/**
 * Makes a revocation effective on every API process at once: each process LISTENs on the
 * revocation channel of `api_keys` (lib/store/owners/api-keys.ts) and forgets the announced key
 * from its {@link PrincipalCache}. Until the LISTEN is in place, and whenever the connection is
 * lost, the cache is suspended (emptied, caching nothing), so a revocation it could not hear is
 * still seen: every request reads the store until it listens again. PGlite belongs to one
 * process, where a revocation already forgets the key itself: nothing to listen to.
 */
import type { PrincipalCache } from './key-cache.js';
import type { Logger } from './logger.js';
import type { Listener, ListenOptions } from './store/listen.js';
import { watchCache } from './store/watch-cache.js';
import type { Store } from './store/db.js';
import { KEY_REVOKED_CHANNEL } from './store/owners/api-keys.js';

/** Shown in pg_stat_activity for the listening connection. */
export const KEY_REVOCATIONS_APPLICATION = 'skillflow-key-revocations';

/** Starts listening (PostgreSQL with a caching cache only; else undefined). Close it with the process. */
export function watchKeyRevocations(
  store: Store,
  cache: PrincipalCache,
  logger: Pick<Logger, 'info' | 'warn'>,
  opts: Omit<ListenOptions, 'applicationName'> = {},
): Listener | undefined {
  if (!cache.caching) return undefined;
  return watchCache(store, KEY_REVOKED_CHANNEL, cache, (keyId) => cache.forgetKey(keyId), logger, {
    ...opts,
    applicationName: KEY_REVOCATIONS_APPLICATION,
    upMessage: 'listening for key revocations; verified keys are cached',
    downMessage: 'key revocation channel lost; every key is read from the store until it is back',
  });
}
