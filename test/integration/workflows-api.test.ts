import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJson } from '../../lib/crypto/sealed-value.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { TEST_KEYRING } from '../helpers/temporal.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { shoutWordDefinition } from '../helpers/definitions.js';

const SHOUT = `${shoutWordDefinition('Shout test')}  - id: notify
    send_chat_message:
      title: Shouted
      message: "{{steps.shout.result_count}} shouted:{{#each steps.shout.results}} {{this}}{{/each}}"
`;

describe('workflow definitions and runs through the API', () => {
  let h: EngineHarness;
  let id: string;

  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('creates a definition from YAML and reads it back', async () => {
    const created = await h.request('POST', '/v1/workflows', SHOUT, 'application/yaml');
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      title: 'Shout test',
      version: 1,
      trigger_type: 'manual',
      source: SHOUT,
      inputs: {},
      schedule: null,
    });
    id = created.json.id;
    expect(id).toMatch(/^wf_[0-9a-f]{20}$/);
    const list = await h.request('GET', '/v1/workflows');
    expect(list.json.workflows).toEqual([expect.objectContaining({ id, title: 'Shout test', version: 1 })]);
    const read = await h.request('GET', `/v1/workflows/${id}`);
    expect(read.json.source).toBe(SHOUT);
  });

  it('lists the run inputs a manual trigger declares, with their types, defaults and descriptions', async () => {
    const yaml = [
      'title: With inputs',
      'start_when:',
      '  manual:',
      '    inputs:',
      '      word: { type: string, required: true, description: The word to shout }',
      '      times: { type: integer, default: 2 }',
      'steps:',
      '  - id: a',
      '    use_app_skill: echo.shout',
      '    input:',
      '      requests:',
      '        - text: "{{inputs.word}}"',
      '',
    ].join('\n');
    const created = await h.request('POST', '/v1/workflows', yaml, 'application/yaml');
    expect(created.status).toBe(201);
    const read = await h.request('GET', `/v1/workflows/${created.json.id}`);
    expect(read.json.inputs).toEqual({
      word: { type: 'string', required: true, description: 'The word to shout' },
      times: { type: 'integer', required: false, default: 2 },
    });
    const list = await h.request('GET', '/v1/workflows');
    expect(list.json.workflows.find((w: { id: string }) => w.id === created.json.id)).not.toHaveProperty(
      'inputs',
    );
    await h.request('DELETE', `/v1/workflows/${created.json.id}`);
  });

  it('keeps definitions sealed in the store', async () => {
    const row = await h.api.deps.store.db
      .selectFrom('definition_versions')
      .selectAll()
      .where('definition_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.source_sealed).not.toContain('Shout');
    expect(
      openJson<string>(TEST_KEYRING, row.source_sealed, sealedCell.definitionSource(id, 1, 'owner_a')),
    ).toBe(SHOUT);
  });

  it('hides one owner’s definitions from another (404)', async () => {
    const res = await h.request('GET', `/v1/workflows/${id}`, undefined, undefined, h.otherToken);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });

  it('rejects an invalid definition with 422 and every diagnostic with its position', async () => {
    const bad = SHOUT.replace('use_app_skill: echo.shout', 'use_app_skill: echo.nope').replace(
      '{{steps.shout.result_count}}',
      '{{steps.later.x}}',
    );
    const res = await h.request('POST', '/v1/workflows', bad, 'application/yaml');
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('INVALID_DEFINITION');
    const diags = res.json.error.details.diagnostics as {
      code: string;
      line: number;
      column: number;
      path: string;
    }[];
    expect(diags).toEqual([
      {
        code: 'UNKNOWN_SKILL',
        message: expect.stringMatching(
          /^Unknown skill\. Known skills: (.+, )?echo\.shout, echo\.slow_echo(, .+)?\.$/,
        ),
        path: 'steps[0].use_app_skill',
        line: 8,
        column: 20,
      },
      {
        code: 'UNKNOWN_STEP',
        message: 'The reference names a step that does not exist.',
        path: 'steps[1].send_chat_message.message',
        line: 15,
        column: 19,
      },
    ]);
    const validated = await h.request('POST', '/v1/workflows/validate', bad, 'application/yaml');
    expect(validated.status).toBe(200);
    expect(validated.json.valid).toBe(false);
    expect(validated.json.diagnostics).toEqual(diags);
    // The outline of the steps comes with it: an unknown skill's output has no known fields.
    expect(validated.json.outline.steps.map((s: { id: string; line: number }) => [s.id, s.line])).toEqual([
      ['shout', 7],
      ['notify', 12],
    ]);
    expect(validated.json.outline.steps[0].fields).toEqual([]);
    const good = await h.request('POST', '/v1/workflows/validate', SHOUT, 'application/yaml');
    expect(good.json).toMatchObject({ valid: true, steps: 2 });
    expect(good.json.outline.steps[0].fields).toContainEqual({ name: 'result_count', type: 'number' });
  });

  it('runs end to end: the skill, the templated chat message, task polling', async () => {
    const started = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: { word: 'zebra' } });
    expect(started.status).toBe(202);
    const taskId = started.json.task_id as string;
    expect(started.json.links.task).toBe(`/v1/tasks/${taskId}`);
    const task = await h.waitForTask(taskId, (t) => t.status === 'completed');
    expect(task).toMatchObject({
      task_id: taskId,
      kind: 'workflow_run',
      status: 'completed',
      definition: { id, version: 1 },
      trigger: 'manual',
      error: null,
    });
    expect(task.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['shout', 'completed'],
      ['notify', 'completed'],
    ]);
    expect(task.steps[0].output_summary).toEqual({ result_count: 1 });
    expect(task.result.outputs.shout).toEqual({ results: ['ZEBRA'], result_count: 1 });
    expect(task.links.temporal_ui).toContain(`/namespaces/default/workflows/${taskId}`);
    expect(Date.parse(task.finished_at)).toBeGreaterThanOrEqual(Date.parse(task.started_at));

    const msg = (await h.chatMessage(taskId))!;
    expect(msg.row.chat_id).toBe(`workflow:${id}`);
    expect(msg.row.content_sealed).not.toContain('ZEBRA');
    expect(msg.content).toEqual({
      title: 'Shouted',
      message: '1 shouted: ZEBRA',
    });
    const other = await h.request('GET', `/v1/tasks/${taskId}`, undefined, undefined, h.otherToken);
    expect(other.status).toBe(404);

    // Inputs, plan, progress memo, step outputs and the chat text are all encrypted in Temporal.
    const raw = await h.env.connection.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId: taskId },
    });
    const bytes = Buffer.from(JSON.stringify(raw.history));
    for (const needle of ['zebra', 'ZEBRA', 'shouted', 'Shout test', 'result_count', 'output_summary']) {
      expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
    }
  });

  it('rejects missing run inputs with their path, with a body and without one', async () => {
    for (const body of [{ inputs: {} }, undefined]) {
      const res = await h.request('POST', `/v1/workflows/${id}/runs`, body);
      expect(res.status).toBe(400);
      expect(res.json.error).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'Invalid value at inputs.word: is required',
        details: { issues: [{ path: 'inputs.word', message: 'is required' }] },
      });
    }
  });

  it('names an undeclared run input by location, never quoting a key of another form', async () => {
    const res = await h.request('POST', `/v1/workflows/${id}/runs`, {
      inputs: { word: 'cedar', '°À?E': 1, colour: 'red' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: 'INVALID_PARAMETER',
      message: 'Invalid value at inputs: holds an input the definition does not declare',
      details: {
        issues: [
          { path: 'inputs', message: 'holds an input the definition does not declare', input: 'colour' },
          { path: 'inputs', message: 'holds an input the definition does not declare' },
        ],
      },
    });
  });

  it('refuses a definition body that is not a mapping, or JSON that is not JSON, with 400', async () => {
    const notMapping = {
      code: 'INVALID_PARAMETER',
      message: 'Invalid body at (root): must be a definition (a JSON object or YAML mapping)',
      details: {
        issues: [
          { path: '', message: 'must be a definition (a JSON object or YAML mapping)', location: 'body' },
        ],
      },
    };
    for (const [body, type] of [
      ['[1, 2]', 'application/json'],
      ['"text"', 'application/json'],
      ['- a list', 'application/yaml'],
    ] as const) {
      for (const path of ['/v1/workflows/validate', '/v1/workflows', `/v1/workflows/${id}`]) {
        const res = await h.request(path.endsWith(id) ? 'PUT' : 'POST', path, body, type);
        expect({ path, status: res.status, body: res.json }).toEqual({
          path,
          status: 400,
          body: { error: notMapping },
        });
      }
    }
    const malformed = await h.request('POST', '/v1/workflows/validate', '{"title": ', 'application/json');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toEqual({
      code: 'INVALID_BODY',
      message: 'The request body is not valid JSON or YAML.',
      details: {
        diagnostics: [
          {
            code: 'JSON_SYNTAX',
            message: 'Unexpected end of input; expected a value.',
            path: '',
            line: 1,
            column: 11,
          },
        ],
      },
    });
  });

  it('fails the run with the step’s error code, or continues when continue_on_error is set', async () => {
    const failing = SHOUT.replace(
      '- text: "{{inputs.word}}"',
      '- text: "{{inputs.word}}"\n          fail: FORBIDDEN',
    );
    const def = await h.request('POST', '/v1/workflows', failing, 'application/yaml');
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { word: 'x' } });
    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'failed');
    expect(task.error).toEqual({
      code: 'FORBIDDEN',
      message: 'A step failed: The API key is not allowed to do this.',
      details: { step: 'shout' },
    });
    expect(task.steps.map((s: { status: string }) => s.status)).toEqual(['failed', 'pending']);
    expect(task.steps[0].error).toEqual({
      code: 'FORBIDDEN',
      message: 'The API key is not allowed to do this.',
    });

    const tolerant = failing.replace('  - id: shout\n', '  - id: shout\n    continue_on_error: true\n');
    const def2 = await h.request('POST', '/v1/workflows', tolerant, 'application/yaml');
    expect(def2.status).toBe(201);
    const run2 = await h.request('POST', `/v1/workflows/${def2.json.id}/runs`, { inputs: { word: 'x' } });
    const task2 = await h.waitForTask(run2.json.task_id, (t) => t.status === 'completed');
    expect(task2.steps.map((s: { status: string }) => s.status)).toEqual(['failed', 'completed']);
    // A failed skill step still exposes the uniform output: no results, a count of 0, the error.
    expect(task2.result.outputs.shout).toEqual({
      results: [],
      result_count: 0,
      raw: null,
      error: { code: 'FORBIDDEN', message: 'The API key is not allowed to do this.' },
    });
    const msg = (await h.chatMessage(run2.json.task_id))!;
    expect(msg.content).toEqual({ title: 'Shouted', message: '0 shouted:' });
  });

  it('cancels cleanly at the current step', async () => {
    const slow = SHOUT.replace(
      '- text: "{{inputs.word}}"',
      '- text: "{{inputs.word}}"\n          wait_ms: 20000',
    );
    const def = await h.request('POST', '/v1/workflows', slow, 'application/yaml');
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { word: 'x' } });
    await h.waitForTask(
      run.json.task_id,
      (t) => t.status === 'running' && t.steps?.[0]?.status === 'running',
    );
    // The same progress is readable by Temporal query from the running workflow.
    const queried = await h.env.client.workflow
      .getHandle(run.json.task_id)
      .query<{ steps: { id: string; status: string }[] }>('progress');
    expect(queried.steps.map((s) => `${s.id}:${s.status}`)).toEqual(['shout:running', 'notify:pending']);
    const cancel = await h.request('POST', `/v1/tasks/${run.json.task_id}/cancel`);
    expect(cancel.status).toBe(202);
    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'cancelled', 15_000);
    expect(task.steps.map((s: { status: string }) => s.status)).toEqual(['cancelled', 'cancelled']);
    expect(task.error.code).toBe('CANCELLED');
    expect(await h.chatMessage(run.json.task_id)).toBeUndefined();
  });

  it('saves a new version with PUT; a running task keeps its snapshot', async () => {
    // Version 2 waits in its first step, so version 3 can be saved while that run is open.
    const slow = SHOUT.replace(
      '- text: "{{inputs.word}}"',
      '- text: "{{inputs.word}}"\n          wait_ms: 1500',
    );
    const v2 = await h.request('PUT', `/v1/workflows/${id}`, slow, 'application/yaml');
    expect(v2.status).toBe(200);
    expect(v2.json).toMatchObject({ id, version: 2, title: 'Shout test' });
    const run = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: { word: 'old' } });
    await h.waitForTask(run.json.task_id, (t) => t.steps?.[0]?.status === 'running');

    const v3 = await h.request(
      'PUT',
      `/v1/workflows/${id}`,
      SHOUT.replace('shouted:', 'NEW TEMPLATE:').replace('title: Shout test', 'title: Shout test v3'),
      'application/yaml',
    );
    expect(v3.json).toMatchObject({ id, version: 3, title: 'Shout test v3' });

    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'completed');
    expect(task.definition).toEqual({ id, version: 2 });
    const msg = (await h.chatMessage(run.json.task_id))!;
    expect(msg.content).toEqual({
      title: 'Shouted',
      message: '1 shouted: OLD',
    });

    const runs = await h.request('GET', `/v1/workflows/${id}/runs`);
    expect(runs.json.runs.find((r: { task_id: string }) => r.task_id === run.json.task_id)).toMatchObject({
      status: 'completed',
      trigger: 'manual',
      definition_version: 2,
    });
  });

  it('deletes a definition', async () => {
    expect((await h.request('DELETE', `/v1/workflows/${id}`)).status).toBe(204);
    expect((await h.request('GET', `/v1/workflows/${id}`)).status).toBe(404);
  });

  it('requires a bearer token', async () => {
    const res = await h.api.app.inject({ method: 'GET', url: '/v1/workflows' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Send Authorization: Bearer <API token>.', details: {} },
    });
  });
});
