/**
 * The configuration the design app receives: its own variables, the decision helper's, and the
 * API's public URL (icon SVG links are absolute when it is set).
 */
import type { ApiConfig, Config, DecisionConfig, DesignConfig } from '../../../lib/config.js';

export type DesignAppConfig = DesignConfig & DecisionConfig & Pick<ApiConfig, 'PUBLIC_URL'>;

export const designConfig = (config: Config): DesignAppConfig => ({
  ...config.apps.design,
  ...config.decision,
  PUBLIC_URL: config.api.PUBLIC_URL,
});
