/**
 * The workspace's look in chromium, in the light and the dark colour scheme, at laptop
 * (1280×800) and phone (390×844) size: every main page passes axe-core (colour contrast
 * included), the page never scrolls sideways, the navigation marks the current page, the dark
 * theme really applies, and after Run on a skill page its results are in view.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { hasChromium, LAPTOP, PHONE_TALL, SKIP_REASON, workspaceSuite, type Workspace } from './harness.js';

const EXAMPLE = readFileSync(path.join(PROJECT_ROOT, 'definitions/examples/domain-ideas.yaml'), 'utf8');

/** The body's background in each theme: the `--sf-bg` token of web/src/styles.css. */
const BODY_BG = { light: 'rgb(245, 246, 248)', dark: 'rgb(15, 18, 22)' } as const;

/** The pages every theme and size is checked on: hash, level-1 heading, navigation entry. */
const PAGES = [
  { hash: '#apps', heading: 'Apps', nav: 'Apps' },
  { hash: '#apps/hosting/search_domains', heading: 'Search domains', nav: 'Apps' },
  { hash: '#workflows', heading: 'Workflows', nav: 'Workflows' },
  { hash: '#runs', heading: 'Runs', nav: 'Runs' },
  { hash: '#approvals', heading: 'Approvals', nav: 'Approvals' },
  { hash: '#messages', heading: 'Messages', nav: 'Messages' },
] as const;

const NAV = ['Apps', 'Workflows', 'Runs', 'Approvals', 'Messages'];

/** Whether the document is wider than the viewport (the page would scroll sideways). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** The navigation entries marked as the current page. */
const currentNav = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).locator('a[aria-current="page"]').allTextContents();

describe.skipIf(!hasChromium)(`workspace design in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite();
  let ws: Workspace;
  beforeEach(() => {
    ws = workspace();
  });

  for (const scheme of ['light', 'dark'] as const)
    for (const [size, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE_TALL],
    ] as const)
      it(`${scheme} theme at ${size} size: every page passes axe, fits the width and marks its navigation entry`, async () => {
        const { page, context, problems } = await ws.open('/#apps', { viewport, colorScheme: scheme });
        // The session lives in the top bar: the sign-in form, then Sign out.
        const banner = page.getByRole('banner');
        await banner.getByLabel('API key').waitFor();
        expect(await overflows(page)).toBe(false);
        expect(await ws.axe(page)).toEqual([]);
        await ws.signIn(page);
        expect(await banner.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
        expect(await banner.getByLabel('API key').count()).toBe(0);
        expect(await page.locator('.wordmark').textContent()).toBe('skillflow');
        expect(
          await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents(),
        ).toEqual(NAV);
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
          BODY_BG[scheme],
        );
        expect(
          await page.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--sf-bg').trim(),
          ),
        ).toBe(scheme === 'dark' ? '#0f1216' : '#f5f6f8');
        for (const p of PAGES) {
          await page.evaluate((hash) => {
            location.hash = hash;
          }, p.hash);
          await page.getByRole('heading', { level: 1, name: p.heading, exact: true }).waitFor();
          // Wait for the page's data: its loading line goes away.
          await page.waitForFunction(
            () => ![...document.querySelectorAll('main p')].some((e) => e.textContent?.startsWith('Loading')),
          );
          expect(await currentNav(page), p.hash).toEqual([p.nav]);
          expect(await overflows(page), p.hash).toBe(false);
          expect(await ws.axe(page), `${p.hash} ${scheme} ${size}`).toEqual([]);
        }
        // The navigation sits beside the content on a laptop and above it on a phone.
        const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
        const main = (await page.locator('main').boundingBox())!;
        if (size === 'laptop') {
          expect(nav.x + nav.width).toBeLessThanOrEqual(main.x);
        } else {
          expect(nav.y + nav.height).toBeLessThanOrEqual(main.y);
          expect(nav.width).toBe(viewport.width);
        }
        await ws.screenshot(page, `approvals-${scheme}-${size}`);
        expect(problems).toEqual([]);
        await context.close();
      });

  it('the empty approvals inbox says so and offers the next step', async () => {
    const { page, context } = await ws.open('/#approvals');
    await ws.signIn(page);
    const empty = page.locator('.empty');
    await empty.waitFor();
    expect(await empty.locator('strong').textContent()).toBe('No run is waiting for your decision.');
    expect(await empty.locator('p').textContent()).toBe(
      'When a run reaches an approval step, it appears here.',
    );
    await context.close();
  });

  for (const [size, viewport] of [
    ['laptop', LAPTOP],
    ['phone', PHONE_TALL],
  ] as const)
    it(`after Run on a skill page the results are in view (${size})`, async () => {
      const { page, context, problems } = await ws.open('/#apps/hosting/search_domains', {
        viewport,
        colorScheme: size === 'laptop' ? 'dark' : 'light',
      });
      await ws.signIn(page);
      await page.getByRole('heading', { level: 1, name: 'Search domains' }).waitFor();
      await page.getByLabel('Query').fill('cedar');
      await page.getByLabel('TLDs').fill('com, app');
      await page.getByLabel('Availability').selectOption('all');
      // The enum's options read as words.
      expect(await page.getByLabel('Availability').locator('option:checked').textContent()).toBe('All');
      // Run from the top of the page (Enter in the first field), so only the page can bring the
      // results into view: a click would scroll to the Run button first.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByLabel('Query').press('Enter');
      const heading = page.getByRole('heading', { level: 2, name: 'Results' });
      await heading.waitFor();
      await page.locator('table.domains').waitFor();
      const box = (await heading.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      expect(await overflows(page)).toBe(false);
      if (size === 'laptop') {
        expect(await ws.axe(page)).toEqual([]);
        await ws.screenshot(page, 'skill-domains-dark');
      }
      expect(problems).toEqual([]);
      await context.close();
    });

  it('dark screenshots: the apps, a completed workflow run and its task page', async () => {
    const apps = await ws.open('/#apps', { viewport: LAPTOP, colorScheme: 'dark' });
    await ws.signIn(apps.page);
    await apps.page.locator('li.app').first().waitFor();
    await ws.screenshot(apps.page, 'apps-dark');
    await apps.context.close();

    const created = await ws.engine.request('POST', '/v1/workflows', EXAMPLE, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const { page, context, problems } = await ws.open(`/#workflows/${id}`, {
      viewport: LAPTOP,
      colorScheme: 'dark',
    });
    await ws.signIn(page);
    await page.getByRole('button', { name: 'Run workflow' }).click();
    const progress = page.locator('.run-progress');
    await progress.locator('.task-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    const status = page.locator('.runs .run-status').first();
    await status.waitFor();
    expect(await status.textContent()).toBe('completed');
    expect(await status.getAttribute('data-status')).toBe('completed');
    expect(await overflows(page)).toBe(false);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-run-dark');
    // The run's own page, in the dark theme too: its graph, steps and result.
    await page.locator('.run-progress a[href^="#tasks/"]').first().click();
    await page.locator('.task-status[data-status="completed"]').first().waitFor();
    await page.locator('g.graph-node').first().waitFor();
    expect(await overflows(page)).toBe(false);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'task-dark');
    expect(problems).toEqual([]);
    await context.close();
  });
});
