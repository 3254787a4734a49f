/**
 * The YAML editor in chromium against the real API: completion of the catalogue's skill names,
 * of earlier step ids after `{{steps.` and of a step's output fields after `{{steps.<id>.` (from
 * the outline the validate route returns), hover help on a skill name, leaving the editor with
 * Escape then Tab, and no CSP violation from CodeMirror's styles.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { setEditorText } from './editor-text.js';
import { hasChromium, SKIP_REASON, workspaceSuite, type Workspace } from './harness.js';

const VALID = [
  'title: Editor help',
  'start_when:',
  '  manual: {}',
  'steps:',
  '  - id: search',
  '    use_app_skill: hosting.search_domains',
  '    input:',
  '      requests:',
  '        - query: cedar',
  '          tlds: [com]',
  '  - id: pause',
  '    wait:',
  '      duration: 1s',
  '  - id: notify',
  '    send_chat_message:',
  '      title: Domains',
  "      message: 'found'",
].join('\n');

/** The labels of the open completion list, in the order shown. */
async function options(page: Page): Promise<string[]> {
  const list = page.locator('.cm-tooltip-autocomplete');
  await list.waitFor();
  return list.locator('.cm-completionLabel').allTextContents();
}

describe.skipIf(!hasChromium)(`the YAML editor in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite();
  let ws: Workspace;
  beforeEach(() => {
    ws = workspace();
  });

  it('completes skill names, earlier step ids and their output fields, and shows help on a skill', async () => {
    const { page, context, problems, dialogs, offsite } = await ws.open('/#workflows');
    await ws.signIn(page);
    const editor = page.getByLabel('Definition (YAML)');
    await setEditorText(editor, VALID);
    await page.getByText('Valid: 3 steps.').waitFor();

    // The compiler's outline, as the validate route answers it.
    const validated = await ws.engine.request('POST', '/v1/workflows/validate', VALID, 'application/yaml');
    const searchFields = validated.json.outline.steps[0].fields.map((f: { name: string }) => f.name);
    expect(validated.json.outline.steps.map((s: { id: string; line: number }) => [s.id, s.line])).toEqual([
      ['search', 5],
      ['pause', 11],
      ['notify', 14],
    ]);
    expect(searchFields).toContain('result_count');

    // Skill names: the whole catalogue, then narrowed by what is typed.
    const apps = (await ws.engine.request('GET', '/v1/anonymous/apps')).json.apps as Array<{
      id: string;
      skills: Array<{ id: string }>;
    }>;
    const catalogue = apps.flatMap((a) => a.skills.map((s) => `${a.id}.${s.id}`)).sort();
    expect(catalogue).toContain('hosting.search_domains');
    await setEditorText(editor, `${VALID}\n  - id: more\n    use_app_skill: `);
    await page.keyboard.press('Control+Space');
    expect([...(await options(page))].sort()).toEqual(catalogue);
    await page.keyboard.type('hosting.sea');
    await expect.poll(() => options(page)).toEqual(['hosting.search_domains']);
    await page.keyboard.press('Enter');
    expect(await page.locator('.cm-line').nth(18).textContent()).toBe(
      '    use_app_skill: hosting.search_domains',
    );

    // `{{steps.` offers the steps before this one; `{{steps.search.` that step's output fields.
    await setEditorText(editor, VALID.replace("message: 'found'", "message: '{{steps."));
    await page.keyboard.press('Control+Space');
    expect(await options(page)).toEqual(['pause', 'search']);
    await page.keyboard.type('search.');
    const fieldLabels = ['error', 'raw', 'result_count', 'results'];
    await expect.poll(() => options(page)).toEqual(fieldLabels);
    expect([...searchFields].sort()).toEqual(fieldLabels);
    // Each with its type, as the compiler knows it.
    const types = new Map(
      validated.json.outline.steps[0].fields.map((f: { name: string; type: string }) => [f.name, f.type]),
    );
    const details = await page.locator('.cm-tooltip-autocomplete .cm-completionDetail').allTextContents();
    expect(details).toEqual(fieldLabels.map((l) => types.get(l)));
    expect(types.get('result_count')).toBe('number');
    expect(types.get('results')).toBe('array');
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-editor-completion');
    await page.keyboard.press('Escape');

    // Hovering a skill name shows its title, description and request fields.
    const skill = (await ws.engine.request('GET', '/v1/anonymous/apps/hosting/skills/search_domains/details'))
      .json;
    const at = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.querySelector('.cm-content')!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const index = node.textContent!.indexOf('search_domains');
        if (index < 0) continue;
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 'search_domains'.length);
        const box = range.getBoundingClientRect();
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
      }
      throw new Error('no skill name on screen');
    });
    await page.mouse.move(at.x, at.y);
    const help = page.locator('.sf-skill-help');
    await help.waitFor();
    expect(await help.locator('.sf-skill-title').textContent()).toBe(skill.title);
    expect(await help.locator('.sf-skill-description').textContent()).toBe(skill.description);
    expect(await help.locator('.sf-skill-fields code').allTextContents()).toEqual(
      Object.keys(skill.request_item_schema.properties),
    );
    expect(await ws.axe(page)).toEqual([]);

    // No CSP violation (CodeMirror's styles are constructed stylesheets), no error at all.
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it('Tab indents inside the editor; Escape then Tab leaves it', async () => {
    const { page, context, problems } = await ws.open('/#workflows');
    await ws.signIn(page);
    const editor = page.getByLabel('Definition (YAML)');
    await setEditorText(editor, 'title: x\nsteps:');
    await page.keyboard.press('Tab');
    const focusedIn = () =>
      page.evaluate(() => document.activeElement?.classList.contains('cm-content') ?? false);
    expect(await focusedIn()).toBe(true);
    expect(await page.locator('.cm-line').nth(1).textContent()).toBe('  steps:');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    expect(await focusedIn()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
