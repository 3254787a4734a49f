import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config.js';
import { DEV_DECISION_KEY, startDevSimulators } from './dev.js';

describe('startDevSimulators', () => {
  it('starts the shop, decision, encyclopedia and power simulators for unset URLs and says so loudly', async () => {
    const sims = await startDevSimulators(loadConfig({}));
    try {
      expect(sims.urls.SHOP_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sims.urls.DECISION_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/decide$/);
      expect(sims.urls.DECISION_API_KEY).toBe(DEV_DECISION_KEY);
      expect(sims.banner.map((l) => l.split(':')[0])).toEqual([
        'SHOP_URL is unset',
        'DECISION_URL is unset',
        'ENCYCLOPEDIA_URL is unset',
        'POWER_URL is unset',
        'PROXY_URL is unset',
      ]);
      expect(sims.urls.POWER_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sims.urls.ENCYCLOPEDIA_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\{language\}$/);
      expect(sims.urls.ENCYCLOPEDIA_IMAGE_HOSTS).toEqual([
        new URL(sims.urls.ENCYCLOPEDIA_URL!.replace('{language}', 'en')).host,
      ]);
      const res = await request(`${sims.urls.SHOP_URL}/__sim/requests`);
      expect(await res.body.json()).toEqual([]);
    } finally {
      await sims.close();
    }
  });

  it('starts nothing for configured URLs or with START_SIMULATORS off', async () => {
    const configured = await startDevSimulators(
      loadConfig({
        SHOP_URL: 'https://shop.example',
        DECISION_URL: 'https://decide.example',
        PROXY_URL: 'http://proxy.example:8080',
        ENCYCLOPEDIA_URL: 'https://{language}.encyclopedia.example',
        POWER_URL: 'https://power.example',
      }),
    );
    expect([configured.urls, configured.banner]).toEqual([{}, []]);
    const off = await startDevSimulators(loadConfig({ START_SIMULATORS: 'false' }));
    expect([off.urls, off.banner]).toEqual([{}, []]);
  });
});
