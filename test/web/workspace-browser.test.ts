/**
 * The workspace shell in chromium: sign-in turns the key into a first-party session (the tab
 * keeps no key), a one-time sign-in link signs in once, `#apps` lists
 * the registry's apps, and the page passes axe-core at desktop and phone width.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { hasChromium, PHONE, SKIP_REASON, workspaceSuite, type Workspace } from './harness.js';

describe.skipIf(!hasChromium)(`web workspace shell in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite();
  let ws: Workspace;
  beforeEach(() => {
    ws = workspace();
  });

  it('signs in with a pasted key and lists the apps and skills at /#apps', async () => {
    const { page, context, problems, dialogs, offsite } = await ws.open('/#apps');
    await ws.signIn(page);
    await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
    await page.locator('li.app').first().waitFor();
    const appIds = await page
      .locator('li.app')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-app')));
    const ids = [...new Set(ws.engine.api.deps.registry.all().map((s) => s.manifest.appId))].sort();
    expect(ids).toEqual(['design', 'electronics', 'encyclopedia', 'hosting']);
    expect(appIds).toEqual(ids);
    // The key went to POST /v1/sessions once: the tab keeps no key, the browser an HttpOnly,
    // SameSite=Strict session cookie (and a readable marker that grants nothing).
    const stored = await page.evaluate(() => ({
      storage: JSON.stringify({ ...sessionStorage, ...localStorage }),
      cookie: document.cookie,
      url: location.href,
    }));
    expect(stored.storage).not.toContain(ws.engine.token);
    expect(stored.storage).not.toContain('ses_');
    expect(stored.cookie).toBe('skillflow_signed_in=1');
    expect(stored.url).toBe(`${ws.base}/#apps`);
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite]).sort()).toEqual([
      ['skillflow_session', true, 'Strict'],
      ['skillflow_signed_in', false, 'Strict'],
    ]);
    // A reload stays signed in, from the cookie alone.
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'apps');
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it("refuses an unknown key at sign-in with the API's message, and keeps nothing", async () => {
    const { page, context, problems } = await ws.open('/#workflows');
    await page.getByText('Sign in to see this page.').waitFor();
    await page.getByLabel('API key').fill('sk_not_a_real_key_0000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The API token is unknown or revoked.');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'sign-in-refused');
    // The one 401 the check received, as the browser logs it.
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
    await context.close();
  });

  it('a one-time sign-in link signs in, leaves no code in the address bar, and signing out ends the session', async () => {
    const link = await ws.engine.request('POST', '/v1/sessions/sign-in-links');
    expect(link.status).toBe(201);
    const hash = new URL(link.json.url).hash;
    const { page, context, problems } = await ws.open(`/${hash}`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#apps');
    expect(page.url()).not.toContain('sic_');
    const listed = await ws.engine.request('GET', '/v1/sessions');
    const sessionIds = listed.json.sessions.map((s: { session_id: string }) => s.session_id);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await context.cookies()).toEqual([]);
    const after = await ws.engine.request('GET', '/v1/sessions');
    expect(after.json.sessions.length).toBe(sessionIds.length - 1);
    // The link was spent: opening it again signs nobody in.
    const again = await ws.open(`/${hash}`);
    await again.page.getByRole('alert').filter({ hasText: 'sign-in link' }).waitFor();
    await expect(again.page.getByRole('alert').first().textContent()).resolves.toBe(
      'This sign-in link is unknown, used or expired; ask for a new one.',
    );
    expect(await again.page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await again.context.close();
    await context.close();
  });

  it('shows guests the catalogue without a key, marking the skills they may try', async () => {
    const { page, context, problems } = await ws.open('/#apps');
    await page.locator('li.app').first().waitFor();
    const free = await page
      .locator('li.app li:has(.badge) a')
      .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    const inline = ws.engine.api.deps.registry
      .all()
      .filter((s) => s.manifest.anonymousAccess === 'inline' && s.impl)
      .map((s) => `#apps/${s.manifest.appId}/${s.manifest.id}`)
      .sort();
    expect(inline.length).toBeGreaterThan(0);
    expect(free.sort()).toEqual(inline);
    await expect(page.getByTestId('guest-note').textContent()).resolves.toContain('browsing as a guest');
    expect(await ws.axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is usable by keyboard: skip link, focus moves to the content on navigation, current page marked', async () => {
    const { page, context, problems } = await ws.open('/#apps');
    await page.locator('li.app').first().waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(page.url()).toBe(`${ws.base}/#apps`);
    expect(await page.getByRole('link', { name: 'Apps', exact: true }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByText('Sign in to see this page.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.title()).toBe('Workflows · skillflow workspace');
    expect(
      await page.getByRole('link', { name: 'Workflows', exact: true }).getAttribute('aria-current'),
    ).toBe('page');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works at phone width: no horizontal scrolling, and axe finds nothing serious', async () => {
    const { page, context, problems } = await ws.open('/#apps', { viewport: PHONE });
    await ws.signIn(page);
    await page.locator('li.app').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'apps-phone');
    expect(problems).toEqual([]);
    await context.close();
  });
});
