/**
 * The workflow and task pages in chromium against the real stack (API + worker, shop simulator):
 * scenario 2 (a broken definition typed into the editor shows its diagnostic at the right line),
 * scenario 3 (the spec's example definition created, run from the page, both steps complete, the
 * delivered message read on the page), the task page and a cancel. Chat content is sealed to the
 * owner's chat keys (CHAT_SERVER_SEALED off): the page registers this browser's key and opens the
 * message with it, while the server holds only ciphertext.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { signatureHeader } from '../../lib/webhooks/hook-signature.js';
import { setEditorText } from './editor-text.js';
import { hasChromium, PHONE, SKIP_REASON, workspaceSuite, type Workspace } from './harness.js';

/** The spec's example: a domain search, then a chat message with its count. */
const EXAMPLE = readFileSync(path.join(PROJECT_ROOT, 'definitions/examples/domain-ideas.yaml'), 'utf8');

describe.skipIf(!hasChromium)(`workflow and task pages in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite({ config: { CHAT_SERVER_SEALED: false } });
  let ws: Workspace;
  beforeEach(() => {
    ws = workspace();
  });

  it('scenario 2: a broken definition typed into the editor shows its diagnostic at its line and column', async () => {
    const { page, context, problems, dialogs, offsite } = await ws.open('/#workflows');
    await ws.signIn(page);
    const editor = page.getByLabel('Definition (YAML)');
    const broken = [
      'title: Broken',
      'start_when:',
      '  manual: {}',
      'steps:',
      '  - id: search',
      '    use_app_skill: hosting.search_domain',
      '    input:',
      '      requests:',
      '        - query: cedar',
      '',
    ].join('\n');
    // The skill name typed key by key, as a user would: validation runs while typing.
    const [head, tail] = broken.split('hosting.search_domain');
    await setEditorText(editor, head!);
    await editor.pressSequentially('hosting.search_domain', { delay: 2 });
    await page.keyboard.press('Escape'); // closes the completion list
    await page.keyboard.insertText(tail!);
    const item = page.locator('.diagnostics li').first();
    await item.waitFor();
    const api = await ws.engine.request('POST', '/v1/workflows/validate', broken, 'application/yaml');
    expect(api.json.valid).toBe(false);
    const first = api.json.diagnostics[0];
    expect({ code: first.code, line: first.line, column: first.column }).toEqual({
      code: 'UNKNOWN_SKILL',
      line: 6,
      column: 20,
    });
    expect(await item.getAttribute('data-line')).toBe('6');
    expect(await item.getAttribute('data-column')).toBe('20');
    expect(await item.locator('button').textContent()).toBe(`Line 6, column 20: ${first.message}`);
    // A typo gets the closest catalogue skill.
    expect(first.message).toMatch(/^Unknown skill\. Did you mean hosting\.search_domains\? Known skills: /);
    expect(first.suggestions).toEqual(['hosting.search_domains']);
    // The skill name is underlined at line 6, column 20, and the gutter marks line 6 and no other.
    const underlined = await page.evaluate(() => {
      const lines = [...document.querySelectorAll('.cm-content .cm-line')];
      return [...document.querySelectorAll('.cm-lintRange-error')].map((range) => {
        const line = range.closest('.cm-line')!;
        const before = document.createRange();
        before.setStart(line, 0);
        before.setEndBefore(range);
        return {
          line: lines.indexOf(line) + 1,
          column: before.toString().length + 1,
          text: range.textContent,
        };
      });
    });
    expect(underlined).toEqual([{ line: 6, column: 20, text: 'hosting.search_domain' }]);
    const marked = await page.evaluate(() => {
      const numbers = [...document.querySelectorAll('.cm-lineNumbers .cm-gutterElement')];
      return [...document.querySelectorAll('.cm-lint-marker-error')].map((marker) => {
        const top = marker.closest('.cm-gutterElement')!.getBoundingClientRect().top;
        return numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 1)?.textContent;
      });
    });
    expect(marked).toEqual(['6']);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    // The diagnostic moves the cursor to its place.
    await item.locator('button').click();
    const caret = await page.evaluate(() => {
      const range = getSelection()!.getRangeAt(0);
      const line = (
        range.startContainer.nodeType === Node.ELEMENT_NODE
          ? (range.startContainer as Element)
          : range.startContainer.parentElement
      )!.closest('.cm-line')!;
      const before = document.createRange();
      before.setStart(line, 0);
      before.setEnd(range.startContainer, range.startOffset);
      const lines = [...document.querySelectorAll('.cm-content .cm-line')];
      return { line: lines.indexOf(line) + 1, column: before.toString().length + 1 };
    });
    expect(caret).toEqual({ line: 6, column: 20 });
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-diagnostics');
    // Fixing the line clears the diagnostics.
    await setEditorText(editor, broken.replace('hosting.search_domain', 'hosting.search_domains'));
    await page.getByText('Valid: 1 step.').waitFor();
    expect(await page.locator('.diagnostics li').count()).toBe(0);
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it("scenario 3: runs the spec's example definition, both steps complete, and the delivered message is on the page", async () => {
    const { page, context, problems, dialogs, offsite } = await ws.open('/#workflows');
    await ws.signIn(page);
    const editor = page.getByLabel('Definition (YAML)');
    await setEditorText(editor, EXAMPLE);
    await page.getByText('Valid: 2 steps.').waitFor();
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'Domain ideas', level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#workflows/', ''));
    expect(id).toMatch(/^wf_[0-9a-f]{20}$/);
    await page.getByText('This workflow declares no inputs.').waitFor();
    await page.getByText('No messages yet.').waitFor();
    await page.getByText('No runs yet.').waitFor();

    await page.getByRole('button', { name: 'Run workflow' }).click();
    const progress = page.locator('.run-progress');
    await progress.locator('.task-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    const taskId = (await progress.locator('a').first().textContent())!.replace('Task ', '');
    expect(taskId).toMatch(/^task_[0-9a-f-]{36}$/);
    expect(await progress.locator('tr[data-step] .step-status').allTextContents()).toEqual([
      'completed',
      'completed',
    ]);
    expect(
      await progress.locator('tr[data-step]').evaluateAll((r) => r.map((e) => e.getAttribute('data-step'))),
    ).toEqual(['search', 'notify']);

    // The message the run delivered is stored only sealed to the owner's chat key, the one this
    // browser registered when the page opened (its private key never left the page).
    const keys = await ws.engine.request('GET', '/v1/chats/keys');
    expect(keys.json.keys.map((k: { label: string }) => k.label)).toEqual(['workspace (browser)']);
    const stored = await ws.engine.api.deps.store.db
      .selectFrom('chat_messages')
      .selectAll()
      .where('task_id', '=', taskId)
      .executeTakeFirstOrThrow();
    expect(stored.content_sealed).toBeNull();
    expect(JSON.stringify(stored)).not.toContain('domains found');
    const rest = await ws.engine.request('POST', '/v1/chats/messages', { chat_id: `workflow:${id}` });
    expect(rest.body).not.toContain('domains found');
    const task = await ws.engine.waitForTask(taskId, (t) => t.status === 'completed');
    const count = task.steps.find((s: { id: string }) => s.id === 'search').output_summary.result_count;
    const message = page.locator('.messages .message').first();
    await message.waitFor();
    expect(await message.locator('h3').textContent()).toBe('Domains');
    expect(await message.locator('.message-text').textContent()).toBe(`${count} domains found`);

    // The run history lists the run as completed.
    const row = page.locator(`.runs tr[data-task="${taskId}"]`);
    await row.waitFor();
    expect(await row.locator('.run-status').textContent()).toBe('completed');
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-run');

    // The task page: status, both steps with timing, the Temporal UI link.
    await page.goto(`${ws.base}/#tasks/${taskId}`);
    await page.locator('.task-status[data-status="completed"]').waitFor();
    expect(await page.locator('tr[data-step] .step-status').allTextContents()).toEqual([
      'completed',
      'completed',
    ]);
    expect(await page.getByRole('link', { name: 'Open in the Temporal UI' }).getAttribute('href')).toBe(
      task.links.temporal_ui,
    );
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'task');

    // Messages: every chat the runs delivered to, a workflow's own chat and a named one.
    const named = await ws.engine.request(
      'POST',
      '/v1/workflows',
      `title: Named chat
start_when:
  manual: {}
steps:
  - id: tell
    send_chat_message: { chat_id: news, title: News, message: Hello from a named chat }
`,
      'application/yaml',
    );
    const told = await ws.engine.request('POST', `/v1/workflows/${named.json.id}/runs`, {});
    await ws.engine.waitForTask(told.json.task_id, (t) => t.status === 'completed');
    await page.goto(`${ws.base}/#messages`);
    await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
    const chats = page.locator('table.chats tbody tr');
    await chats.first().waitFor();
    expect(
      await chats.evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent)),
      ),
    ).toEqual([
      ['news', '1', expect.any(String)],
      [`Workflow ${id}`, '1', expect.any(String)],
    ]);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'messages');
    await page.getByRole('link', { name: 'news' }).click();
    await page.getByRole('heading', { name: 'news', level: 1 }).waitFor();
    const news = page.locator('.messages .message').first();
    await news.waitFor();
    expect(await news.locator('h3').textContent()).toBe('News');
    expect(await news.locator('.message-text').textContent()).toBe('Hello from a named chat');
    expect(await ws.axe(page)).toEqual([]);
    // Another browser has a key of its own: the message was sealed before it existed.
    const other = await ws.open('/#messages/news');
    await ws.signIn(other.page);
    const sealed = other.page.locator('.messages .message').first();
    await sealed.waitFor();
    expect(await sealed.locator('.message-text').textContent()).toBe(
      "Sealed to another device's chat key (or delivered before this browser's key was registered): read it there, for example with skillflow chats read.",
    );
    expect(other.problems).toEqual([]);
    await other.context.close();

    // The list shows the definition.
    await page.goto(`${ws.base}/#workflows`);
    const listed = page.locator(`.workflows tr[data-workflow="${id}"]`);
    await listed.waitFor();
    expect(await listed.locator('th a').textContent()).toBe('Domain ideas');
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflows-list');
    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it('saves an edit as a new version, and shows the diagnostics of a refused save', async () => {
    const created = await ws.engine.request('POST', '/v1/workflows', EXAMPLE, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const { page, context, problems } = await ws.open(`/#workflows/${id}`);
    await ws.signIn(page);
    const editor = page.getByLabel('Definition (YAML)');
    await editor.waitFor();
    expect(await page.getByTestId('version').textContent()).toBe('1');
    const save = page.getByRole('button', { name: 'Save as a new version' });
    expect(await save.isDisabled()).toBe(true); // nothing changed yet
    await setEditorText(editor, EXAMPLE.replace('title: Domain ideas', 'title: Domain ideas, renamed'));
    await save.click();
    await page.getByText('Saved as version 2.').waitFor();
    expect(await page.getByTestId('version').textContent()).toBe('2');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Domain ideas, renamed');
    const stored = await ws.engine.request('GET', `/v1/workflows/${id}`);
    expect({ version: stored.json.version, title: stored.json.title }).toEqual({
      version: 2,
      title: 'Domain ideas, renamed',
    });

    // Saved anyway while broken: the API refuses (422) and its diagnostics show in the editor.
    await setEditorText(editor, EXAMPLE.replace('hosting.search_domains', 'hosting.no_such_skill'));
    await save.click();
    const refused = page.locator('.diagnostics li').first();
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('UNKNOWN_SKILL');
    expect(await refused.getAttribute('data-line')).toBe('6');
    expect((await ws.engine.request('GET', `/v1/workflows/${id}`)).json.version).toBe(2);
    expect(await ws.axe(page)).toEqual([]);
    // The refused save's 422, as the browser logs it.
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
    await ws.engine.request('DELETE', `/v1/workflows/${id}`);
    await context.close();
  });

  it('pauses, resumes and triggers a scheduled workflow, and the triggered run joins the history', async () => {
    const scheduled = EXAMPLE.replace(
      'manual: {}',
      'schedule:\n    every: 1h\n    timezone: Europe/Berlin',
    ).replace('Domain ideas', 'Hourly domains');
    const created = await ws.engine.request('POST', '/v1/workflows', scheduled, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const { page, context, problems } = await ws.open(`/#workflows/${id}`);
    await ws.signIn(page);
    await page.getByRole('heading', { name: 'Schedule' }).waitFor();
    expect(await page.locator('.schedule-state').textContent()).toMatch(
      /^Active · Europe\/Berlin · next run /,
    );
    expect(await page.getByRole('button', { name: 'Run workflow' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('Paused.').waitFor();
    expect(await page.locator('.schedule-state').textContent()).toBe('Paused · Europe/Berlin');
    expect((await ws.engine.request('GET', `/v1/workflows/${id}`)).json.schedule.paused).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Resumed.').waitFor();
    expect((await ws.engine.request('GET', `/v1/workflows/${id}`)).json.schedule.paused).toBe(false);
    await page.getByRole('button', { name: 'Trigger now' }).click();
    await page.getByText('Triggered: a run started.').waitFor();
    await page.locator('.runs tr[data-task]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.runs tr[data-task]').count()).toBe(1);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-schedule');
    expect(problems).toEqual([]);
    await ws.engine.request('DELETE', `/v1/workflows/${id}`);
    await context.close();
  });

  it("shows a webhook's URL and its secret only right after the save that made it; rotation shows a new one", async () => {
    const source = EXAMPLE.replace('manual: {}', 'webhook: {}').replace('Domain ideas', 'Hooked domains');
    const { page, context, problems } = await ws.open('/#workflows');
    await ws.signIn(page);
    await setEditorText(page.getByLabel('Definition (YAML)'), source);
    await page.getByText('Valid: 2 steps.').waitFor();
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: 'Hooked domains', level: 1 }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.replace('#workflows/', ''));
    await page.getByRole('heading', { name: 'Webhook' }).waitFor();
    const stored = (await ws.engine.request('GET', `/v1/workflows/${id}`)).json;
    expect(await page.getByTestId('hook-url').textContent()).toBe(stored.hook.url);
    const secret = (await page.getByTestId('hook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    // The secret the page shows is the hook's: a request signed with it starts a run.
    const body = '{}';
    const started = await ws.engine.api.app.inject({
      method: 'POST',
      url: new URL(stored.hook.url).pathname,
      headers: { 'content-type': 'application/json', 'x-skillflow-signature': signatureHeader(secret, body) },
      payload: body,
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(
      secret,
    );
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-webhook');
    // Never shown again: not after a reload.
    await page.reload();
    await page.getByRole('heading', { name: 'Webhook' }).waitFor();
    expect(await page.getByTestId('hook-secret').count()).toBe(0);
    // Rotation keeping the old secret an hour: a new secret, and until when the old one works.
    await page.getByLabel('Old secret').selectOption('3600');
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click();
    await page.getByTestId('hook-secret').waitFor();
    const rotated = (await page.getByTestId('hook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByText(/The previous secret is accepted until /).waitFor();
    await page.setViewportSize(PHONE);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await ws.engine.request('DELETE', `/v1/workflows/${id}`);
    await context.close();
  });

  it('cancels a running task from its page', async () => {
    ws.sims.shop.setFaults([{ type: 'latency', ms: 60_000, match: 'slowpoke' }]);
    const yaml = EXAMPLE.replace('query: cedar', 'query: slowpoke').replace('Domain ideas', 'Slow search');
    const created = await ws.engine.request('POST', '/v1/workflows', yaml, 'application/yaml');
    expect(created.status).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    await ws.engine.waitForTask(taskId, (t) => t.status === 'running');
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`, { viewport: PHONE });
    await ws.signIn(page);
    await page.locator('.task-status[data-status="running"]').waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Cancel requested.').waitFor();
    await page.locator('.task-status[data-status="cancelled"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await ws.axe(page)).toEqual([]);
    ws.sims.shop.setFaults([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a run queued under flow control with its place in line, on a phone too', async () => {
    ws.sims.shop.setFaults([{ type: 'latency', ms: 60_000, match: 'oneatatime' }]);
    const yaml = EXAMPLE.replace('query: cedar', 'query: oneatatime').replace(
      'title: Domain ideas',
      'title: One at a time\nconcurrency: { limit: 1 }',
    );
    const created = await ws.engine.request('POST', '/v1/workflows', yaml, 'application/yaml');
    expect(created.status, created.body).toBe(201);
    const start = async () =>
      (await ws.engine.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} })).json
        .task_id as string;
    const first = await start();
    await ws.engine.waitForTask(first, (t) => t.steps[0].status === 'running');
    const second = await start();
    await ws.engine.waitForTask(second, (t) => t.queue?.position === 1);
    for (const viewport of [undefined, PHONE]) {
      const { page, context, problems } = await ws.open(`/#tasks/${second}`, viewport ? { viewport } : {});
      await ws.signIn(page);
      const status = page.locator('.task-status[data-status="queued"]');
      await status.waitFor();
      expect(await status.textContent()).toBe(
        "queued — waiting for its turn, 1st in line (this workflow's concurrency limit)",
      );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await ws.axe(page)).toEqual([]);
      if (!viewport) await ws.screenshot(page, 'task-queued');
      expect(problems).toEqual([]);
      await context.close();
    }
    for (const task of [second, first]) await ws.engine.request('POST', `/v1/tasks/${task}/cancel`);
    await ws.engine.waitForTask(first, (t) => t.status === 'cancelled');
    ws.sims.shop.setFaults([]);
  });

  it("shows a sleeping wait step with its wake-up time, and a fail step's own error", async () => {
    const pause = `title: Pause
start_when:
  manual: {}
steps:
  - id: cool_down
    wait: { duration: 10m }
`;
    const created = await ws.engine.request('POST', '/v1/workflows', pause, 'application/yaml');
    expect(created.status).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    const waiting = await ws.engine.waitForTask(taskId, (t) => t.steps[0]?.wake_at !== undefined);
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`);
    await ws.signIn(page);
    const status = page.locator('tr[data-step="cool_down"] .step-status');
    await status.filter({ hasText: 'waiting until' }).waitFor();
    // The wake-up time in the browser's locale: date and time, for a wait may last days.
    const expected = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { hour12: false }),
      waiting.steps[0].wake_at as string,
    );
    expect(await status.textContent()).toBe(`running (waiting until ${expected})`);
    expect(await ws.axe(page)).toEqual([]);
    await ws.engine.request('POST', `/v1/tasks/${taskId}/cancel`);

    const stop = `title: Stop
start_when:
  manual: {}
steps:
  - id: stop
    fail: { code: NO_NAMES_FREE, message: 'Nothing is free today.' }
`;
    const stopDef = await ws.engine.request('POST', '/v1/workflows', stop, 'application/yaml');
    const stopRun = await ws.engine.request('POST', `/v1/workflows/${stopDef.json.id}/runs`, { inputs: {} });
    const stopId = stopRun.json.task_id as string;
    await ws.engine.waitForTask(stopId, (t) => t.status === 'failed');
    await page.goto(`${ws.base}/#tasks/${stopId}`);
    await page.locator('.task-status[data-status="failed"]').waitFor();
    expect(await page.locator('.task-error').textContent()).toContain(
      'NO_NAMES_FREE: Nothing is free today.',
    );
    expect(await page.locator('tr[data-step="stop"] td').last().textContent()).toBe(
      'NO_NAMES_FREE: Nothing is free today.',
    );
    expect(problems).toEqual([]);
    await ws.engine.request('DELETE', `/v1/workflows/${created.json.id}`);
    await ws.engine.request('DELETE', `/v1/workflows/${stopDef.json.id}`);
    await context.close();
  });

  it("shows a loop's element counts and failures, its handler, and a parallel group's steps", async () => {
    const source = `title: Loop and group
start_when:
  manual: {}
steps:
  - id: each_number
    for_each:
      items: [1, 9, 2]
      steps:
        - id: too_big
          if: $item > 5
          wait: { until: 'not a time {{item}}' }
    on_error:
      - id: note_it
        wait: { duration: 1s }
  - id: both
    parallel:
      steps:
        - id: short_pause
          wait: { duration: 1s }
        - id: other_pause
          wait: { duration: 1s }
`;
    const created = await ws.engine.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, created.body).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    await ws.engine.waitForTask(taskId, (t) => t.status === 'completed');
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`);
    await ws.signIn(page);
    await page.locator('.task-status[data-status="completed"]').waitFor();
    const loop = page.locator('tr[data-step="each_number"] td').last();
    expect(await loop.locator('.elements').textContent()).toBe('1 of 3 done, 1 failed');
    expect(await loop.locator('div').textContent()).toBe(
      'INVALID_WAIT_UNTIL: An element failed: The wait step needs an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z. (handled by on_error)',
    );
    expect(await loop.locator('.element-failures li').allTextContents()).toEqual([
      'Element 1, step too_big: INVALID_WAIT_UNTIL: The wait step needs an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z.',
    ]);
    expect(await page.locator('tr.step-inner th').allTextContents()).toEqual([
      '↳ note_it (handles the failure of each_number)',
      'short_pause (in group both)',
      'other_pause (in group both)',
    ]);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'task-loop');
    // On a phone the step table scrolls inside its own box; the page itself never does.
    await page.setViewportSize(PHONE);
    await page.locator('tr.step-inner').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'task-loop-phone');
    expect(problems).toEqual([]);
    await ws.engine.request('DELETE', `/v1/workflows/${created.json.id}`);
    await context.close();
  });

  it('re-runs a failed run from its failed step with a changed input, and links the two runs', async () => {
    const source = `title: Re-run me
start_when:
  manual:
    inputs:
      stop: { type: boolean, default: true }
steps:
  - id: pause
    wait: { duration: 1s }
  - id: gate
    if: inputs.stop == true
    fail: { code: STOPPED, message: Stopped on purpose. }
`;
    const created = await ws.engine.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, created.body).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    await ws.engine.waitForTask(taskId, (t) => t.status === 'failed');
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`);
    await ws.signIn(page);
    await page.locator('.task-status[data-status="failed"]').waitFor();
    expect(await page.locator('#rerun-from option').allTextContents()).toEqual([
      'The first step that failed',
      'pause (completed)',
      'gate (failed)',
    ]);
    expect(await ws.axe(page)).toEqual([]);
    // Not JSON: a clear message, nothing started.
    await page.fill('#rerun-inputs', '{stop');
    await page.click('form.rerun button');
    expect(await page.locator('form.rerun [role="alert"]').textContent()).toBe(
      'Changed inputs must be a JSON object, such as {"name": "value"}.',
    );
    await page.fill('#rerun-inputs', '{"stop": false}');
    await page.click('form.rerun button');
    await page.waitForFunction((old) => !location.hash.endsWith(old), taskId);
    await page.locator('.task-status[data-status="completed"]').waitFor();
    expect(await page.locator('.rerun-links').textContent()).toBe(`Re-run of ${taskId}. `);
    expect(await page.locator('tr[data-step="pause"] .step-status').textContent()).toBe('reused');
    expect(await page.locator('tr[data-step="gate"] .step-status').textContent()).toBe('skipped');
    // The reused step took no time in this run: no bar, named under the timeline.
    expect(await page.locator('.timeline-bar').count()).toBe(0);
    expect(await page.locator('.timeline-reused').textContent()).toBe(
      'Reused from the earlier run (no time here): pause',
    );
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'task-rerun');
    await page.setViewportSize(PHONE);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await ws.engine.request('DELETE', `/v1/workflows/${created.json.id}`);
    await context.close();
  });

  it('links a use_workflow step to its child run', async () => {
    const child = await ws.engine.request(
      'POST',
      '/v1/workflows',
      `title: Pause child\nstart_when: { manual: {} }\nsteps:\n  - id: pause\n    wait: { duration: 1s }\noutputs:\n  slept: $nodes.pause.output.waited_ms\n`,
      'application/yaml',
    );
    expect(child.status, child.body).toBe(201);
    const parent = await ws.engine.request(
      'POST',
      '/v1/workflows',
      `title: Parent\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id}, version: 1 }\n`,
      'application/yaml',
    );
    expect(parent.status, parent.body).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${parent.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    await ws.engine.waitForTask(taskId, (t) => t.status === 'completed');
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`);
    await ws.signIn(page);
    await page.locator('.task-status[data-status="completed"]').waitFor();
    const link = page.locator('tr[data-step="sub"] a', { hasText: 'Child run' });
    expect(await link.getAttribute('href')).toBe(`#tasks/${taskId}.1`);
    await link.click();
    await page.locator('tr[data-step="pause"]').waitFor();
    expect(await ws.axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('decides approvals from the inbox: a rejection without its fields, an approval with them', async () => {
    const def = await ws.engine.request(
      'POST',
      '/v1/workflows',
      `title: Register
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: ok
          wait_for_approval:
            title: Register cedar.com?
            payload: { budget: { type: number, required: true, description: Most you would pay }, note: { type: string } }
            timeout: 2h
        - id: also
          wait_for_approval: { title: Also register cedar.net?, timeout: 2h }
`,
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    await ws.engine.waitForTask(
      taskId,
      (t) => t.steps?.filter((s: { approval?: unknown }) => s.approval).length === 2,
    );
    for (let i = 0; i < 50; i++) {
      const listed = await ws.engine.request('GET', '/v1/approvals');
      if (listed.json.approvals.filter((a: { run_id: string }) => a.run_id === taskId).length === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The task page says what the steps wait for and links the inbox.
    const { page, context, problems } = await ws.open(`/#tasks/${taskId}`);
    await ws.signIn(page);
    const waiting = page.locator('tr[data-step="ok"] a', { hasText: 'waiting for approval' });
    await waiting.waitFor();
    await waiting.click();
    const card = (step: string) => page.locator(`li[data-approval="${taskId}-${step}"]`);
    await card('ok').getByRole('heading', { name: 'Register cedar.com?' }).waitFor();
    await card('also').getByRole('heading', { name: 'Also register cedar.net?' }).waitFor();
    expect(await page.getByRole('link', { name: 'Approvals' }).getAttribute('aria-current')).toBe('page');
    expect(await card('ok').getByText('Most you would pay').count()).toBe(1);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'approvals');
    // On a phone the cards (long run ids included) fit the width.
    await page.setViewportSize(PHONE);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'approvals-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await card('also').getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('status').getByText('Rejected: Also register cedar.net?').waitFor();
    await card('also').waitFor({ state: 'detached' });
    await card('ok')
      .getByLabel(/budget/)
      .fill('12');
    await card('ok').getByLabel(/note/).fill('go');
    await card('ok').getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('status').getByText('Approved: Register cedar.com?').waitFor();
    const done = await ws.engine.waitForTask(taskId, (t) => t.status === 'completed');
    expect(done.result.outputs.ok).toMatchObject({
      decision: 'approved',
      payload: { budget: 12, note: 'go' },
    });
    expect(done.result.outputs.also).toMatchObject({ decision: 'rejected', payload: {} });
    await page.getByText('No run is waiting for your decision.').waitFor();
    await page.setViewportSize(PHONE);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await ws.axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an approval link decides once without a key; a used link says so', async () => {
    const def = await ws.engine.request(
      'POST',
      '/v1/workflows',
      `title: Renew
start_when: { manual: {} }
steps:
  - id: renew
    wait_for_approval:
      title: Renew cedar.org for two years?
      payload: { years: { type: integer, required: true, description: How many years }, note: { type: string } }
      timeout: 2h
`,
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const run = await ws.engine.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} });
    const taskId = run.json.task_id as string;
    let link = '';
    for (let i = 0; i < 50 && !link; i++) {
      const listed = await ws.engine.request('GET', '/v1/approvals');
      expect(listed.status, listed.body).toBe(200);
      link = listed.json.approvals.find((a: { run_id: string }) => a.run_id === taskId)?.link ?? '';
      if (!link) await new Promise((r) => setTimeout(r, 100));
    }
    expect(link).toMatch(/^\/#approve\/v1\./);
    const { page, context, problems } = await ws.open(link);
    const authorised: string[] = [];
    page.on('request', (r) => {
      if (r.headers().authorization) authorised.push(r.url());
    });
    await page.getByRole('heading', { name: 'Renew cedar.org for two years?' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(await page.getByText('How many years').count()).toBe(1);
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'approval-link');
    await page.setViewportSize(PHONE);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    // A required field left empty stops the approval in the browser.
    await page.getByRole('button', { name: 'Approve' }).click();
    expect(
      await page.locator('#link-years').evaluate((e) => (e as HTMLInputElement).validity.valueMissing),
    ).toBe(true);
    await page.locator('#link-years').fill('2');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('status')
      .getByText('Approved. The run goes on; this link is now used up.')
      .waitFor();
    const done = await ws.engine.waitForTask(taskId, (t) => t.status === 'completed');
    expect(done.result.outputs.renew).toMatchObject({
      decision: 'approved',
      payload: { years: 2 },
      decided_by: 'link',
    });
    await page.reload();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/not waiting/i);
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(authorised).toEqual([]);
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
    await context.close();
  });
});
