/**
 * The configuration the encyclopedia app receives: its own variables and the API's public URL
 * (thumbnail links are absolute when it is set).
 */
import type { ApiConfig, Config, EncyclopediaConfig } from '../../../lib/config.js';

export type EncyclopediaAppConfig = EncyclopediaConfig & Pick<ApiConfig, 'PUBLIC_URL'>;

export function encyclopediaConfig(config: Config): EncyclopediaAppConfig {
  return { ...config.apps.encyclopedia, PUBLIC_URL: config.api.PUBLIC_URL };
}
