/**
 * Starts the simulators `npm start` needs: one per upstream whose URL is unset, unless
 * START_SIMULATORS is off. Returns the URLs to merge into the config and a loud banner, since
 * answers from a simulator are not real availability or prices.
 */
import type { Config, RawConfig } from '../lib/config.js';
import { startDecisionSimulator } from './decision/server.js';
import { startEncyclopediaSimulator } from './encyclopedia/server.js';
import { startPowerSimulator } from './power/server.js';
import { startShopSimulator } from './shop/server.js';

/** Config overrides pointing at started simulators. */
export type SimulatorUrls = Partial<
  Pick<
    RawConfig,
    | 'SHOP_URL'
    | 'DECISION_URL'
    | 'DECISION_API_KEY'
    | 'ENCYCLOPEDIA_URL'
    | 'ENCYCLOPEDIA_IMAGE_HOSTS'
    | 'POWER_URL'
  >
>;

export interface DevSimulators {
  urls: SimulatorUrls;
  /** One warning line per started simulator (empty when none started). */
  banner: string[];
  close(): Promise<void>;
}

/** Dev-only key of the decision simulator when DECISION_API_KEY is unset. */
export const DEV_DECISION_KEY = 'sim-decision-key';

export async function startDevSimulators(config: Config): Promise<DevSimulators> {
  const urls: SimulatorUrls = {};
  const banner: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  // Never in production, whatever the config says (lib/config.ts refuses it too).
  if (!config.process.START_SIMULATORS || config.process.NODE_ENV === 'production')
    return { urls, banner, close };
  try {
    if (!config.apps.hosting.SHOP_URL) {
      const shop = await startShopSimulator();
      closers.push(() => shop.close());
      urls.SHOP_URL = shop.url;
      banner.push(
        `SHOP_URL is unset: domain search uses the SHOP SIMULATOR at ${shop.url} (not real availability or prices).`,
      );
    }
    if (!config.decision.DECISION_URL) {
      const key = config.decision.DECISION_API_KEY ?? DEV_DECISION_KEY;
      const decision = await startDecisionSimulator({ apiKey: key });
      closers.push(() => decision.close());
      urls.DECISION_URL = decision.url;
      urls.DECISION_API_KEY = key;
      banner.push(
        `DECISION_URL is unset: relevance decisions use the DECISION SIMULATOR at ${decision.url} (word overlap, not a model).`,
      );
    }
    if (!config.apps.encyclopedia.ENCYCLOPEDIA_URL) {
      const encyclopedia = await startEncyclopediaSimulator();
      closers.push(() => encyclopedia.close());
      urls.ENCYCLOPEDIA_URL = encyclopedia.urlTemplate;
      urls.ENCYCLOPEDIA_IMAGE_HOSTS = [encyclopedia.imageHost];
      banner.push(
        `ENCYCLOPEDIA_URL is unset: the encyclopedia uses the ENCYCLOPEDIA SIMULATOR at ${encyclopedia.url} (a few dozen fixture articles).`,
      );
    }
    if (!config.apps.electronics.POWER_URL) {
      const power = await startPowerSimulator({ latencyMs: config.apps.electronics.POWER_SIM_LATENCY_MS });
      closers.push(() => power.close());
      urls.POWER_URL = power.url;
      banner.push(
        `POWER_URL is unset: power-design search uses the POWER SIMULATOR at ${power.url} (a few fixture devices, not real designs).`,
      );
    }
    if (!config.apps.hosting.PROXY_URL)
      banner.push('PROXY_URL is unset: the one lazy proxy attempt of domain search is disabled.');
  } catch (err) {
    await close();
    throw err;
  }
  return { urls, banner, close };
}
