/**
 * The configuration the encyclopedia app receives: its own variables and the API's public URL
 * (thumbnail links are absolute when it is set). One configuration always gives the same slice
 * object, so the process's one encyclopedia service (upstream/service.ts) is found by it.
 */
import type { ApiConfig, Config, EncyclopediaConfig } from '../../../lib/config.js';

export type EncyclopediaAppConfig = EncyclopediaConfig & Pick<ApiConfig, 'PUBLIC_URL'>;

const slices = new WeakMap<Config, EncyclopediaAppConfig>();

export function encyclopediaConfig(config: Config): EncyclopediaAppConfig {
  let slice = slices.get(config);
  if (!slice) {
    slice = { ...config.apps.encyclopedia, PUBLIC_URL: config.api.PUBLIC_URL };
    slices.set(config, slice);
  }
  return slice;
}
