/**
 * The runs page (`#runs`) in chromium against the real stack: every run of the owner across
 * definitions, each linking to its task; the status, workflow and failed-step filters; "More
 * runs" for the next page, with no run twice; axe finds no serious violation.
 */
import { describe, expect, it } from 'vitest';
import { hasChromium, SKIP_REASON, workspaceSuite } from './harness.js';

const STOP = `title: Stops early
start_when:
  manual: {}
steps:
  - id: halt
    fail: { code: HALTED, message: 'Stopped on purpose.' }
`;
const PAUSE = `title: Pauses
start_when:
  manual: {}
steps:
  - id: nap
    wait: { duration: 1h }
`;

describe.skipIf(!hasChromium)(`the runs page in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite();

  it('lists runs of every workflow, filters them, and loads more with the cursor', async () => {
    const ws = workspace();
    const create = async (yaml: string) =>
      (await ws.engine.request('POST', '/v1/workflows', yaml, 'application/yaml')).json.id as string;
    const stop = await create(STOP);
    const pause = await create(PAUSE);
    const stopped: string[] = [];
    for (let i = 0; i < 12; i++) {
      const run = await ws.engine.request('POST', `/v1/workflows/${stop}/runs`, { inputs: {} });
      stopped.push(run.json.task_id as string);
      await ws.engine.waitForTask(run.json.task_id as string, (t) => t.status === 'failed');
    }
    const napping = (await ws.engine.request('POST', `/v1/workflows/${pause}/runs`, { inputs: {} })).json
      .task_id as string;
    await ws.engine.waitForTask(napping, (t) => t.status === 'running');
    // Visibility trails a run's end: wait until every failed run is listed as failed.
    for (let i = 0; i < 150; i++) {
      const res = await ws.engine.request('GET', `/v1/runs?workflow_id=${stop}&status=failed&limit=100`);
      if (res.json.runs.length === 12) break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const { page, context, problems, offsite } = await ws.open('/#runs');
    await ws.signIn(page);
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    expect(await page.getByRole('link', { name: 'Runs' }).getAttribute('aria-current')).toBe('page');
    // The open run first, linking to its task and its workflow.
    const first = page.locator('table.runs tbody tr').first();
    await first.waitFor();
    expect(await first.getAttribute('data-task')).toBe(napping);
    expect(await first.locator('td').allTextContents()).toEqual([
      'Pauses',
      'running',
      'by hand',
      '—',
      expect.any(String),
      expect.any(String),
    ]);
    expect(await first.getByRole('link', { name: napping }).getAttribute('href')).toBe(`#tasks/${napping}`);
    expect(await page.locator('table.runs tbody tr').count()).toBe(10);
    expect(await ws.axe(page)).toEqual([]);

    // Failed runs of one workflow at one step: 10, then "More runs" adds the other 2.
    await page.getByLabel('Workflow').selectOption(stop);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByLabel('Failed step (step id)').fill('halt');
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.locator(`table.runs tbody tr[data-task="${napping}"]`).waitFor({ state: 'detached' });
    const rows = page.locator('table.runs tbody tr');
    await expect.poll(() => rows.count()).toBe(10);
    expect(new Set(await rows.locator('td:nth-child(5)').allTextContents())).toEqual(new Set(['halt']));
    await page.getByRole('button', { name: 'More runs' }).click();
    await expect.poll(() => rows.count()).toBe(12);
    expect(await page.getByRole('button', { name: 'More runs' }).count()).toBe(0);
    const listed = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-task')));
    expect([...listed].sort()).toEqual([...stopped].sort());
    expect(await ws.axe(page)).toEqual([]);

    // A filter nothing matches.
    await page.getByLabel('Failed step (step id)').fill('nap');
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.getByText('No runs match.').waitFor();
    // A run's link opens its task page.
    await page.getByLabel('Failed step (step id)').fill('');
    await page.getByLabel('Status').selectOption('running');
    await page.getByLabel('Workflow').selectOption('');
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.getByRole('link', { name: napping }).click();
    await page.locator('.task-status[data-status="running"]').waitFor();
    await ws.engine.request('POST', `/v1/tasks/${napping}/cancel`);
    expect(problems).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });
});
