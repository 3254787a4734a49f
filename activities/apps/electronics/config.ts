/** The configuration the electronics app receives: its own variables and the decision helper's. */
import type { Config, DecisionConfig, ElectronicsConfig } from '../../../lib/config.js';

export type ElectronicsAppConfig = ElectronicsConfig & DecisionConfig;

export const electronicsConfig = (config: Config): ElectronicsAppConfig => ({
  ...config.apps.electronics,
  ...config.decision,
});
