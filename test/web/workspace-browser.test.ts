/**
 * The workspace in a real browser: Debian's chromium driven by playwright-core. Builds web/dist,
 * starts the real API on 127.0.0.1, signs in with a key and sees the app list at `/#apps`.
 * Skipped only when /usr/bin/chromium is absent (install: apt-get install -y chromium).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);

describe.skipIf(!hasChromium)(
  'web workspace in chromium (needs Debian chromium at /usr/bin/chromium)',
  () => {
    let engine: EngineHarness;
    let browser: Browser;
    let base: string;

    beforeAll(async () => {
      await build({
        configFile: new URL('../../web/vite.config.ts', import.meta.url).pathname,
        logLevel: 'silent',
      });
      engine = await startEngine({ worker: false });
      base = await engine.api.app.listen({ host: '127.0.0.1', port: 0 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await engine?.close();
    });

    it('signs in with a pasted key and lists the apps and skills at /#apps', async () => {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${base}/#apps`);
      await page.getByLabel('API key').fill(engine.token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
      const appIds = await page
        .locator('li.app')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-app')));
      const ids = [...new Set(engine.api.deps.registry.all().map((s) => s.manifest.appId))].sort();
      expect(ids.length).toBeGreaterThan(0);
      expect(appIds).toEqual(ids);
      const stored = await page.evaluate(() => ({
        session: sessionStorage.getItem('skillflow.api_key'),
        local: localStorage.length,
        url: location.href,
      }));
      expect(stored).toEqual({ session: engine.token, local: 0, url: `${base}/#apps` });
      expect(problems).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
