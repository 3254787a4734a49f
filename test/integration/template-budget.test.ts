import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { shoutWordDefinition } from '../helpers/definitions.js';

/** A render-budget probe: `#each` three deep over a 400-item run input (64 million iterations). */
const PROBE = `title: Template probe
start_when:
  manual:
    inputs:
      items: { type: array, required: true }
steps:
  - id: notify
    send_chat_message:
      title: Probe
      message: "{{#each inputs.items}}{{#each inputs.items}}{{#each inputs.items}}x{{/each}}{{/each}}{{/each}}"
`;

const ORDINARY = shoutWordDefinition('Ordinary');

describe('template budget on a real Temporal server', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    // The test polls two tasks for a while: keep the per-key request limit out of the way.
    h = await startEngine({ config: { RATE_LIMIT_STANDARD_PER_MINUTE: 10_000 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Waits for the run to fail with TEMPLATE_TOO_LARGE at its `notify` step, in one workflow task. */
  async function expectFailedAtOnce(taskId: string): Promise<void> {
    const failed = await h.waitForTask(taskId, (t) => t.status === 'failed', 15_000);
    expect(failed.error).toEqual({
      code: 'TEMPLATE_TOO_LARGE',
      message: 'A step failed: The template renders more than the budget allows.',
      details: { step: 'notify' },
    });
    expect(failed.steps).toEqual([
      expect.objectContaining({
        id: 'notify',
        status: 'failed',
        error: { code: 'TEMPLATE_TOO_LARGE', message: 'The template renders more than the budget allows.' },
      }),
    ]);
    // Failed at once: one workflow task, no retry loop.
    const raw = await h.env.client.workflow.getHandle(taskId).fetchHistory();
    expect(raw.events!.filter((e) => e.workflowTaskFailedEventAttributes)).toHaveLength(0);
  }

  it('fails the nested-loop probe fast with TEMPLATE_TOO_LARGE while an ordinary run completes', async () => {
    const probe = await h.request('POST', '/v1/workflows', PROBE, 'application/yaml');
    expect(probe.status).toBe(201);
    const ordinary = await h.request('POST', '/v1/workflows', ORDINARY, 'application/yaml');
    expect(ordinary.status).toBe(201);

    const items = Array.from({ length: 400 }, (_, i) => i);
    const rssBefore = process.memoryUsage().rss;
    const t0 = Date.now();
    const run = await h.request('POST', `/v1/workflows/${probe.json.id}/runs`, { inputs: { items } });
    expect(run.status).toBe(202);
    const other = await h.request('POST', `/v1/workflows/${ordinary.json.id}/runs`, {
      inputs: { word: 'calm' },
    });
    expect(other.status).toBe(202);

    const done = await h.waitForTask(other.json.task_id, (t) => t.status === 'completed', 15_000);
    const ordinaryMs = Date.now() - t0;
    expect(done.result.outputs.shout).toEqual({ results: ['CALM'], result_count: 1 });

    await expectFailedAtOnce(run.json.task_id);
    const probeMs = Date.now() - t0;
    const rssGrowthMb = Math.round((process.memoryUsage().rss - rssBefore) / 1e6);
    console.log(
      `template probe: failed after ${probeMs} ms; ordinary run ${ordinaryMs} ms; rss +${rssGrowthMb} MB`,
    );
    expect(probeMs).toBeLessThan(10_000);
  });

  it.each([
    [
      '#if (json blob) inside 9,261 iterations',
      '{{#each inputs.items}}{{#each inputs.items}}{{#each inputs.items}}{{#if (json inputs.blob)}}y{{/if}}{{/each}}{{/each}}{{/each}}',
    ],
    ['len of json nested 17 deep', `{{len ${'(json '.repeat(17)}inputs.blob${')'.repeat(17)}}}`],
  ])('fails %s with TEMPLATE_TOO_LARGE, not INTERNAL', async (_name, message) => {
    const source = JSON.stringify({
      title: 'Json probe',
      start_when: { manual: { inputs: { blob: { type: 'object' }, items: { type: 'array' } } } },
      steps: [{ id: 'notify', send_chat_message: { title: 'Probe', message } }],
    });
    const created = await h.request('POST', '/v1/workflows', source, 'application/json');
    expect(created.status).toBe(201);
    const inputs = {
      blob: { text: 'a"b\\c/'.repeat(5_000) },
      items: Array.from({ length: 21 }, (_, i) => i),
    };
    const t0 = Date.now();
    const run = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs });
    expect(run.status).toBe(202);
    await expectFailedAtOnce(run.json.task_id);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('refuses run inputs past the total size limit with RUN_INPUTS_TOO_LARGE and the input path', async () => {
    const probe = await h.request('POST', '/v1/workflows', PROBE, 'application/yaml');
    const items = Array.from({ length: 7_000 }, (_, i) => `item-${i}`);
    const res = await h.request('POST', `/v1/workflows/${probe.json.id}/runs`, { inputs: { items } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({
      error: {
        code: 'RUN_INPUTS_TOO_LARGE',
        message: "The run's inputs are larger than the limit; see details.issues for the input.",
        details: {
          issues: [
            { path: 'inputs.items', message: 'takes the run inputs past 65536 characters of JSON in total' },
          ],
          max_chars: 65536,
        },
      },
    });
  });
});
