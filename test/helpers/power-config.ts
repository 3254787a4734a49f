/** The configuration of an engine whose electronics app talks to a started power simulator. */
import type { RawConfig } from '../../lib/config.js';

export function powerConfig(simUrl: string): Partial<RawConfig> {
  return {
    POWER_URL: simUrl,
    POWER_PRODUCT_ORIGIN: 'https://products.example',
    // The worker charges the provider limits as in production; a test file sends more power
    // requests a minute than the default power limit (20 a minute) allows.
    PROVIDER_RATE_LIMITS: 'power=1000/60,*=300/60',
  };
}
