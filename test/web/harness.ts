/**
 * The web workspace in a real browser: Debian's chromium driven by playwright-core, against the
 * real API + worker (Temporal test server, PGlite) with the real apps and every upstream a
 * simulator on 127.0.0.1. The bundle is built by test/global-setup.ts (scripts/build-web.mjs).
 *
 * Each page opened through {@link Workspace.open} records console errors, page errors and
 * dialogs (any `alert()` a hostile payload managed to run), so a scenario can assert none
 * happened. {@link Workspace.axe} runs axe-core in the page; {@link Workspace.screenshot} saves a
 * PNG under test-artifacts/screenshots (and, with UPDATE_SCREENSHOTS=1, under docs/screenshots
 * for the README).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { CHROMIUM } from './chromium.js';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { PROJECT_ROOT, type RawConfig } from '../../lib/config.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../simulators/decision/server.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../simulators/encyclopedia/server.js';
import { startIconSimulator, type IconSimulator } from '../../simulators/icons/server.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startShopSimulator, type ShopSimulator } from '../../simulators/shop/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

export { CHROMIUM, hasChromium, SKIP_REASON } from './chromium.js';

const ARTIFACTS = path.join(PROJECT_ROOT, 'test-artifacts/screenshots');
const DOCS_SHOTS = path.join(PROJECT_ROOT, 'docs/screenshots');

/** Phone width for the layout checks (iPhone SE-sized). */
export const PHONE = { width: 375, height: 740 } as const;
export const DESKTOP = { width: 1200, height: 900 } as const;
/** The design checks' laptop and phone viewports. */
export const LAPTOP = { width: 1280, height: 800 } as const;
export const PHONE_TALL = { width: 390, height: 844 } as const;

/** Options of {@link Workspace.open}: the viewport, and the colour scheme the page sees (default light). */
export interface OpenOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
}

export interface Simulators {
  shop: ShopSimulator;
  icons: IconSimulator;
  power: PowerSimulator;
  encyclopedia: EncyclopediaSimulator;
  decision: DecisionSimulator;
}

/** An opened page and what went wrong in it. */
export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors, in order. */
  problems: string[];
  /** Messages of every dialog (alert/confirm/prompt) that opened; each is dismissed. */
  dialogs: string[];
  /**
   * Requests the page tried to send anywhere but the workspace's own origin (blocked: the
   * workspace works offline, no CDN, and tests never leave loopback). `blob:` and `data:` URLs
   * are not network requests and are not listed.
   */
  offsite: string[];
}

export interface Workspace {
  engine: EngineHarness;
  sims: Simulators;
  browser: Browser;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  base: string;
  /** Opens `base + path` in a fresh context (fresh sessionStorage), light unless `colorScheme` says dark. */
  open(pathAndHash: string, opts?: OpenOptions): Promise<OpenedPage>;
  /** Pastes `token` (default: the harness's full-scope key) into the sign-in form. */
  signIn(page: Page, token?: string): Promise<void>;
  /** axe-core on the current document: the serious and critical violations (empty is good). */
  axe(page: Page): Promise<AxeViolation[]>;
  /** Saves a PNG screenshot of the page as test-artifacts/screenshots/<name>.png. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/**
 * Starts simulators, the engine (API + worker) listening on 127.0.0.1 and chromium. `config`
 * overrides the engine's configuration; `powerLatencyMs` slows the power simulator so a
 * long-running search shows its stages (default 1500 ms).
 */
export async function startWorkspace(
  opts: { config?: Partial<RawConfig>; powerLatencyMs?: number } = {},
): Promise<Workspace> {
  if (!existsSync(path.join(PROJECT_ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: test/global-setup.ts should have built it');
  const decisionKey = 'sim-decision-key';
  const sims: Simulators = {
    shop: await startShopSimulator(),
    icons: await startIconSimulator(),
    power: await startPowerSimulator({ latencyMs: opts.powerLatencyMs ?? 1500 }),
    encyclopedia: await startEncyclopediaSimulator(),
    decision: await startDecisionSimulator({ apiKey: decisionKey }),
  };
  const engine = await startEngine({
    apps: APPS,
    config: {
      SHOP_URL: sims.shop.url,
      ICON_URL: sims.icons.url,
      POWER_URL: sims.power.url,
      POWER_PRODUCT_ORIGIN: 'https://products.example',
      ENCYCLOPEDIA_URL: sims.encyclopedia.urlTemplate,
      ENCYCLOPEDIA_IMAGE_HOSTS: [sims.encyclopedia.imageHost],
      DECISION_URL: sims.decision.url,
      DECISION_API_KEY: decisionKey,
      // Browser tests poll quickly; the public per-IP and the tier limits are tested elsewhere.
      PUBLIC_RATE_LIMIT_PER_MINUTE: 0,
      RATE_LIMIT_STANDARD_PER_MINUTE: 100_000,
      ...opts.config,
    },
  });
  const base = (await engine.api.app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });

  const ws: Workspace = {
    engine,
    sims,
    browser,
    base,
    async open(pathAndHash, o = {}) {
      const context = await browser.newContext({
        viewport: o.viewport ?? DESKTOP,
        colorScheme: o.colorScheme ?? 'light',
      });
      const page = await context.newPage();
      const problems: string[] = [];
      const dialogs: string[] = [];
      const offsite: string[] = [];
      await context.route(
        (url) => url.origin !== base,
        (route) => {
          offsite.push(route.request().url());
          return route.abort('blockedbyclient');
        },
      );
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${base}${pathAndHash}`);
      return { page, context, problems, dialogs, offsite };
    },
    async signIn(page, token = engine.token) {
      await page.getByLabel('API key').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    },
    async axe(page) {
      axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
      // evaluate() runs through the DevTools protocol, which the page's CSP does not govern, so
      // the strict CSP stays on while axe runs.
      await page.evaluate(axeSource);
      const result: AxeViolation[] = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as { axe: { run(c: Document, o: RunOptions): Promise<AxeResults> } }
        ).axe;
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact ?? null,
          help: v.help,
          targets: v.nodes.map((n) => String(n.target)),
        }));
      });
      return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    },
    async screenshot(page, name) {
      mkdirSync(ARTIFACTS, { recursive: true });
      // A code editor measures its lines when it comes into view; a full-page capture scrolls
      // nothing, so bring each into view once (as a reader would) and go back where we were.
      await page.evaluate(async () => {
        const { scrollX, scrollY } = window;
        const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        for (const editor of document.querySelectorAll('.cm-editor')) {
          editor.scrollIntoView();
          await frame();
        }
        window.scrollTo(scrollX, scrollY);
        await frame();
      });
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      if (process.env.UPDATE_SCREENSHOTS === '1') {
        mkdirSync(DOCS_SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(DOCS_SHOTS, `${name}.png`), fullPage: true });
      }
      return file;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await engine.close();
      for (const sim of Object.values(sims)) await sim.close();
    },
  };
  return ws;
}

/**
 * One workspace for a test file: started before its tests, closed after them. Returns a getter
 * (the workspace exists only once `beforeAll` ran).
 */
export function workspaceSuite(opts: Parameters<typeof startWorkspace>[0] = {}): () => Workspace {
  let ws: Workspace | undefined;
  beforeAll(async () => {
    ws = await startWorkspace(opts);
  }, 120_000);
  afterAll(async () => {
    await ws?.close();
  });
  return () => {
    if (!ws) throw new Error('the workspace is not started yet');
    return ws;
  };
}
