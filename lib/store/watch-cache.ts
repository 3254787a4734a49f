/**
 * Keeps a process-local cache true across processes: LISTENs on the channel its table's owner
 * announces changes on and hands each payload (an id, never content) to `forget`. Until the
 * LISTEN is in place, and whenever the connection is lost, the cache is suspended (emptied,
 * caching nothing), so a change it could not hear is still seen: every read goes to the store
 * until it listens again. PGlite belongs to one process, whose own writes already forget what
 * they change: nothing to listen to.
 */
import type { Logger } from '../logger.js';
import { listen, type Listener, type ListenOptions } from './listen.js';
import type { Store } from './db.js';

/** What a watched cache offers. */
export interface WatchedCache {
  suspend(): void;
  resume(): void;
}

export interface WatchCacheOptions extends ListenOptions {
  /** Logged once listening: what is now cached. */
  upMessage: string;
  /** Logged when the connection is lost: what is read from the store until it is back. */
  downMessage: string;
}

/** Starts listening (PostgreSQL only; else undefined). Close it with the process. */
export function watchCache(
  store: Store,
  channel: string,
  cache: WatchedCache,
  forget: (payload: string) => void,
  logger: Pick<Logger, 'info' | 'warn'>,
  opts: WatchCacheOptions,
): Listener | undefined {
  if (!store.dedicatedClient) return undefined;
  const { upMessage, downMessage, ...listenOpts } = opts;
  cache.suspend();
  return listen(
    store,
    channel,
    {
      onMessage: forget,
      onUp: () => {
        cache.resume();
        logger.info(upMessage);
      },
      onDown: (code) => {
        cache.suspend();
        logger.warn({ errCode: code }, downMessage);
      },
    },
    listenOpts,
  );
}
