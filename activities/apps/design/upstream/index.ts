/**
 * The icon provider for a configuration: the Iconify-compatible upstream when ICON_URL is set,
 * else the offline sets. One instance per base URL per process, so the skill and the SVG route
 * share one Retry-After gate and one offline index.
 */
import type { DesignConfig } from '../../../../lib/config.js';
import { createIconClient } from './client.js';
import { createOfflineProvider } from './offline.js';
import type { IconProvider } from './provider.js';

const providers = new Map<string, IconProvider>();

/**
 * The icon provider for `config`: the Iconify-compatible client when ICON_URL is set (each
 * request bounded by `timeoutMs`, the idle timeout of the caller's policy profile), else the
 * offline sets. One instance per origin and timeout, so the 429 gate is shared.
 */
export function iconProviderFor(config: Pick<DesignConfig, 'ICON_URL'>, timeoutMs: number): IconProvider {
  const key = config.ICON_URL ? `${config.ICON_URL} ${timeoutMs}` : 'offline';
  let provider = providers.get(key);
  if (!provider) {
    provider = config.ICON_URL
      ? createIconClient({ baseUrl: config.ICON_URL, timeoutMs })
      : createOfflineProvider();
    providers.set(key, provider);
  }
  return provider;
}

export { offlineIndex, OFFLINE_SETS } from './offline.js';
export type { IconProvider, IconCallContext, SvgOptions } from './provider.js';
export { ICON_PART } from './provider.js';
