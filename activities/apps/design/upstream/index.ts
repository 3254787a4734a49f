/**
 * The icon provider for a configuration: the Iconify-compatible upstream when ICON_URL is set,
 * else the offline sets. One instance per base URL and store per process, so the skill and the
 * SVG route share one Retry-After gate (with the store, with every process) and one offline index.
 */
import type { DesignConfig } from '../../../../lib/config.js';
import type { Store } from '../../../../lib/store/db.js';
import { createIconClient } from './client.js';
import { createOfflineProvider } from './offline.js';
import type { IconProvider } from './provider.js';

const providers = new Map<string, IconProvider>();
const storeProviders = new WeakMap<Store, Map<string, IconProvider>>();

/**
 * The icon provider for `config`: the Iconify-compatible client when ICON_URL is set (each
 * request bounded by `timeoutMs`, the idle timeout of the caller's policy profile; its 429 gate
 * shared through `store` when given), else the offline sets. One instance per origin, timeout
 * and store.
 */
export function iconProviderFor(
  config: Pick<DesignConfig, 'ICON_URL'>,
  timeoutMs: number,
  store?: Store,
): IconProvider {
  const key = config.ICON_URL ? `${config.ICON_URL} ${timeoutMs}` : 'offline';
  let cache = providers;
  if (store && config.ICON_URL) {
    cache = storeProviders.get(store) ?? new Map<string, IconProvider>();
    storeProviders.set(store, cache);
  }
  let provider = cache.get(key);
  if (!provider) {
    provider = config.ICON_URL
      ? createIconClient({ baseUrl: config.ICON_URL, timeoutMs, store })
      : createOfflineProvider();
    cache.set(key, provider);
  }
  return provider;
}

export { offlineIndex, OFFLINE_SETS } from './offline.js';
export type { IconProvider, IconCallContext, SvgOptions } from './provider.js';
export { ICON_PART } from './provider.js';
