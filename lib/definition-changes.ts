/**
 * Makes a definition's save or delete seen by every API process's {@link DefinitionCache}: each
 * process LISTENs on the definitions' change channel (lib/store/owners/definitions.ts announces
 * the definition id, nothing else, when a save or delete commits) and forgets the announced
 * definition (lib/store/watch-cache.ts suspends the cache while it cannot hear).
 */
import type { DefinitionCache } from './definition-cache.js';
import type { Logger } from './logger.js';
import type { Listener, ListenOptions } from './store/listen.js';
import type { Store } from './store/db.js';
import { DEFINITION_CHANGED_CHANNEL } from './store/owners/definitions.js';
import { watchCache } from './store/watch-cache.js';

/** Shown in pg_stat_activity for the listening connection. */
export const DEFINITION_CHANGES_APPLICATION = 'skillflow-definition-changes';

/** Starts listening (PostgreSQL only; else undefined). Close it with the process. */
export function watchDefinitionChanges(
  store: Store,
  cache: DefinitionCache,
  logger: Pick<Logger, 'info' | 'warn'>,
  opts: Omit<ListenOptions, 'applicationName'> = {},
): Listener | undefined {
  return watchCache(store, DEFINITION_CHANGED_CHANNEL, cache, (id) => cache.forget(id), logger, {
    ...opts,
    applicationName: DEFINITION_CHANGES_APPLICATION,
    upMessage: 'listening for definition changes; opened definitions are cached',
    downMessage: 'definition change channel lost; every definition is read from the store until it is back',
  });
}
