/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Definition and run graphs in chromium against the real stack: the workflow page draws every
 * step (loop, group and handler as boxes around their steps) with no two boxes overlapping; a
 * run started from the page turns its nodes completed as it goes; the task page shows each
 * node's final state and a selected node's output; the runs page filters by status and by how a
 * run started, and keeps its filters in the hash across a reload. axe finds no serious violation.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, SKIP_REASON, workspaceSuite } from './harness.js';

const GRAPH_TOUR = `title: Graph tour
start_when:
  manual:
    inputs:
      idea: { type: string, required: true }
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.idea}}', tlds: [com] }] }
  - id: each_ending
    for_each:
      items: [net, org]
      concurrency: 2
      steps:
        - id: pause
          wait: { duration: 1s }
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{inputs.idea}}{{item}}', tlds: [com] }] }
  - id: side_by_side
    parallel:
      steps:
        - id: short_pause
          wait: { duration: 1s }
        - id: other_pause
          wait: { duration: 1s }
  - id: bad_pause
    wait: { until: 'not a time {{inputs.idea}}' }
    on_error:
      - id: note_it
        wait: { duration: 1s }
  - id: report
    if: inputs.idea != 'no'
    wait: { duration: 1s }
  - id: never
    if: inputs.idea == 'no'
    wait: { duration: 1s }
`;

const NODES = [
  'search',
  'each_ending',
  'pause',
  'check',
  'side_by_side',
  'short_pause',
  'other_pause',
  'bad_pause',
  'bad_pause.on_error',
  'note_it',
  'report',
  'never',
];

interface Box {
  id: string;
  parent: string | null;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Every node's box on the screen, with the node it sits in. */
async function boxes(page: Page, scope: string): Promise<Box[]> {
  return page.locator(`${scope} g.graph-node`).evaluateAll((gs) =>
    gs.map((g) => {
      const r = g.querySelector('rect')!.getBoundingClientRect();
      return {
        id: g.getAttribute('data-node')!,
        parent: null,
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
      };
    }),
  );
}

describe.skipIf(!hasChromium)(`definition and run graphs in chromium (${SKIP_REASON})`, () => {
  const workspace = workspaceSuite();

  it('draws the workflow, follows a run on it, and shows a step output on the task page', async () => {
    const ws = workspace();
    const created = await ws.engine.request('POST', '/v1/workflows', GRAPH_TOUR, 'application/yaml');
    expect(created.status, created.body).toBe(201);
    const id = created.json.id as string;
    const graph = created.json.graph;
    expect(graph.nodes.map((n: any) => n.id)).toEqual(NODES);

    const { page, context, problems, offsite } = await ws.open(`/#workflows/${id}`);
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await ws.signIn(page);
    await page.getByRole('heading', { name: 'Graph tour', level: 1 }).waitFor();
    const figure = page.locator('.workflow-graph');
    await figure.locator('g.graph-node').first().waitFor();
    expect(await figure.locator('g.graph-node').count()).toBe(12);
    expect(
      await figure.locator('g.graph-node').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-node'))),
    ).toEqual([
      // Boxes first, then the steps drawn over them, each outer to inner.
      'each_ending',
      'side_by_side',
      'bad_pause.on_error',
      'search',
      'bad_pause',
      'report',
      'never',
      'pause',
      'check',
      'short_pause',
      'other_pause',
      'note_it',
    ]);
    const texts = async (node: string) =>
      figure.locator(`g.graph-node[data-node="${node}"] > text`).allTextContents();
    expect(await texts('search')).toEqual(['search', 'hosting.search_domains']);
    expect(await texts('each_ending')).toEqual(['each_ending', 'for each item, 2 at a time']);
    expect(await texts('bad_pause.on_error')).toEqual(['bad_pause.on_error', 'when bad_pause fails']);
    expect(await texts('report')).toEqual(['report', 'wait 1s', "if inputs.idea != 'no'"]);
    expect(await figure.locator('.graph-edge-label').allTextContents()).toEqual([
      'on error',
      "if inputs.idea != 'no'",
      'else',
      "if inputs.idea == 'no'",
    ]);
    // No two boxes side by side overlap; a step sits inside its loop, group or handler.
    const placed = await boxes(page, '.workflow-graph');
    const parentOf = new Map<string, string | undefined>(graph.nodes.map((n: any) => [n.id, n.parent]));
    const byId = new Map(placed.map((b) => [b.id, b]));
    for (const a of placed) {
      const parent = parentOf.get(a.id);
      if (parent) {
        const p = byId.get(parent)!;
        expect([
          a.id,
          a.x >= p.x && a.y >= p.y && a.x + a.width <= p.x + p.width && a.y + a.height <= p.y + p.height,
        ]).toEqual([a.id, true]);
      }
      for (const b of placed) {
        if (a === b || parentOf.get(b.id) !== parent) continue;
        const apart =
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect([a.id, b.id, apart]).toEqual([a.id, b.id, true]);
      }
    }
    // The text alternative: the steps as nested ordered lists.
    expect(await figure.getByRole('region', { name: 'Steps of this workflow (scrolls)' }).count()).toBe(1);
    expect(await figure.locator('.visually-hidden > ol > li').count()).toBe(7);
    expect(await figure.locator('.visually-hidden li').first().textContent()).toBe(
      'search: hosting.search_domains',
    );
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'workflow-graph');

    // A run from the page: its nodes turn from pending to their final states as it goes.
    await page.getByLabel(/^idea/).fill('cedar');
    await page.getByRole('button', { name: 'Run workflow' }).click();
    const progress = page.locator('.run-progress');
    await progress.locator('g.graph-node[data-node="search"]').waitFor();
    await progress
      .locator('g.graph-node[data-node="report"][data-status="completed"]')
      .waitFor({ timeout: 30_000 });
    const taskId = (await progress.locator('a').first().textContent())!.replace('Task ', '');
    const states = async (scope: string) =>
      Object.fromEntries(
        await page
          .locator(`${scope} g.graph-node`)
          .evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-node'), g.getAttribute('data-status')])),
      );
    const FINAL = {
      search: 'completed',
      each_ending: 'completed',
      pause: null, // a loop's inner steps run once per element: the loop holds their counts
      check: null,
      side_by_side: 'completed',
      short_pause: 'completed',
      other_pause: 'completed',
      bad_pause: 'failed',
      'bad_pause.on_error': null,
      note_it: 'completed',
      report: 'completed',
      never: 'skipped',
    };
    await progress.locator('.task-status[data-status="completed"]').waitFor({ timeout: 30_000 });
    expect(await states('.run-progress')).toEqual(FINAL);
    // The only request that may fail: the messages of a workflow that has sent none (the page
    // then shows none), which the browser logs.
    const NOT_FOUND = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
    expect(problems.filter((p) => p !== NOT_FOUND)).toEqual([]);
    expect(missing.filter((m) => m !== 'POST /v1/chats/messages')).toEqual([]);

    // The task page: the same states, each with its words and glyph; selecting shows the output.
    await page.goto(`${ws.base}/#tasks/${taskId}`);
    await page.locator('.task-status[data-status="completed"]').waitFor();
    const run = page.locator('.run-graph');
    await run.locator('g.graph-node[data-node="search"][data-status="completed"]').waitFor();
    expect(await states('.run-graph')).toEqual(FINAL);
    const stateText = (node: string) =>
      run.locator(`g.graph-node[data-node="${node}"] .graph-state`).textContent();
    expect(await stateText('bad_pause')).toMatch(/^✕ failed · \d+ ms$/);
    expect(await stateText('never')).toBe('↷ skipped');
    expect(await stateText('short_pause')).toMatch(/^✓ completed · 1\.\d s$/);
    const task = (await ws.engine.request('GET', `/v1/tasks/${taskId}`)).json;
    await run
      .getByRole('button', { name: /^search hosting\.search_domains ✓ completed · [\d.]+ m?s$/ })
      .click();
    const detail = page.locator('.graph-detail');
    await detail.locator('.detail-output').waitFor();
    expect(await detail.locator('h4').textContent()).toBe('Step search');
    // The whole output as JSON, cut after 20,000 characters.
    const whole = JSON.stringify(task.result.outputs.search, null, 2);
    expect(whole.length).toBeGreaterThan(20_000);
    expect(await detail.locator('.detail-output').textContent()).toBe(`${whole.slice(0, 20_000)}\n…`);
    expect(task.result.outputs.search.result_count).toBeGreaterThan(0);
    // The call's input, with the run input it read resolved.
    expect(await detail.locator('.detail-input').textContent()).toBe(
      JSON.stringify({ requests: [{ query: 'cedar', tlds: ['com'] }] }, null, 2),
    );
    // A loop: one element's call, picked by its number and inner step.
    // (Its box's head: its inner steps cover the middle.)
    await run.locator('g.graph-node[data-node="each_ending"]').click({ position: { x: 24, y: 12 } });
    const elements = detail.locator('.loop-elements');
    await elements.getByLabel('Element (0 to 1)').fill('1');
    expect(await elements.getByLabel('Step').locator('option').allTextContents()).toEqual([
      'check (hosting.search_domains)',
    ]);
    await elements.getByRole('button', { name: 'Show' }).click();
    await elements.locator('.detail-output').waitFor();
    expect(await elements.locator('.detail-input').textContent()).toBe(
      JSON.stringify({ requests: [{ query: 'cedarorg', tlds: ['com'] }] }, null, 2),
    );
    const element = (await ws.engine.request('GET', `/v1/runs/${taskId}/steps/each_ending%5B1%5D.check`))
      .json;
    expect(await elements.locator('.detail-output').textContent()).toBe(
      JSON.stringify(element.call.output, null, 2).slice(0, 20_000) +
        (JSON.stringify(element.call.output, null, 2).length > 20_000 ? '\n…' : ''),
    );
    expect(element.call.input).toEqual({ requests: [{ query: 'cedarorg', tlds: ['com'] }] });
    // Enter on a focused node selects it too; the failed step shows its error.
    await run.locator('g.graph-node[data-node="bad_pause"]').focus();
    await page.keyboard.press('Enter');
    await detail.locator('h4', { hasText: 'Step bad_pause' }).waitFor();
    expect(await run.locator('g.graph-node[data-node="bad_pause"]').getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await detail.locator('.detail-error').textContent()).toMatch(
      /^INVALID_WAIT_UNTIL: .* \(handled by on_error\)$/,
    );
    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'run-graph');
    expect(problems.filter((p) => p !== NOT_FOUND)).toEqual([]);
    expect(missing.filter((m) => m !== 'POST /v1/chats/messages')).toEqual([]);
    expect(offsite).toEqual([]);
    await context.close();
  });

  it('lists runs with how they started, filters them, and keeps the filters across a reload', async () => {
    const ws = workspace();
    const source = GRAPH_TOUR.replace('title: Graph tour', 'title: Quick stop').replace(
      /steps:\n[\s\S]*$/,
      "steps:\n  - id: gate\n    if: inputs.idea == 'stop'\n    fail: { code: STOPPED, message: Stopped on purpose. }\n",
    );
    const created = await ws.engine.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, created.body).toBe(201);
    const id = created.json.id as string;
    const start = async (idea: string) =>
      (await ws.engine.request('POST', `/v1/workflows/${id}/runs`, { inputs: { idea } })).json
        .task_id as string;
    const stopped = await start('stop');
    const done = await start('go');
    await ws.engine.waitForTask(stopped, (t) => t.status === 'failed');
    await ws.engine.waitForTask(done, (t) => t.status === 'completed');
    const rerun = await ws.engine.request('POST', `/v1/runs/${stopped}/rerun`, { inputs: { idea: 'go' } });
    expect(rerun.status, rerun.body).toBe(202);
    const again = rerun.json.task_id as string;
    await ws.engine.waitForTask(again, (t) => t.status === 'completed');
    // Visibility trails a run's end: wait until the three runs are listed in their final states.
    for (let i = 0; i < 150; i++) {
      const res = await ws.engine.request('GET', `/v1/runs?workflow_id=${id}&limit=100`);
      if (res.json.runs.filter((r: any) => r.finished_at).length === 3) break;
      await new Promise((r) => setTimeout(r, 200));
    }

    const { page, context, problems } = await ws.open(`/#runs`);
    await ws.signIn(page);
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    const rows = page.locator('table.runs tbody tr');
    const listed = async () =>
      rows.evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-task'),
          ...[...tr.querySelectorAll('td')].slice(1, 4).map((td) => td.textContent),
        ]),
      );
    await page.getByLabel('Workflow').selectOption(id);
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.waitForURL(`**/#runs?workflow_id=${id}`);
    await expect.poll(() => rows.count()).toBe(3);
    expect(new Set(await listed())).toEqual(
      new Set([
        [again, 'completed', 'as a re-run', '—'],
        [done, 'completed', 'by hand', '—'],
        [stopped, 'failed', 'by hand', 'gate'],
      ]),
    );

    expect(await ws.axe(page)).toEqual([]);
    await ws.screenshot(page, 'runs-list');

    // Completed runs started by hand: exactly one.
    await page.getByLabel('Status').selectOption('completed');
    await page.getByLabel('How it started').selectOption('manual');
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.waitForURL(`**/#runs?workflow_id=${id}&status=completed&trigger=manual`);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await listed()).toEqual([[done, 'completed', 'by hand', '—']]);

    // The filters survive a reload: the form and the rows are the same.
    await page.reload();
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    await page.locator(`table.runs tbody tr[data-task="${done}"]`).waitFor();
    expect(await listed()).toEqual([[done, 'completed', 'by hand', '—']]);
    expect(await page.getByLabel('Status').inputValue()).toBe('completed');
    expect(await page.getByLabel('How it started').inputValue()).toBe('manual');
    await expect.poll(() => page.getByLabel('Workflow').inputValue()).toBe(id);

    // Re-runs only.
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('How it started').selectOption('rerun');
    await page.getByRole('button', { name: 'Search runs' }).click();
    await page.waitForURL(`**/#runs?workflow_id=${id}&trigger=rerun`);
    await expect.poll(async () => (await listed()).map((r) => r[0])).toEqual([again]);
    expect(await ws.axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
