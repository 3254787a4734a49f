/** The configuration the hosting app receives: its own variables and the decision helper's. */
import type { Config, DecisionConfig, HostingConfig } from '../../../lib/config.js';

export type HostingAppConfig = HostingConfig & DecisionConfig;

export const hostingConfig = (config: Config): HostingAppConfig => ({
  ...config.apps.hosting,
  ...config.decision,
});
