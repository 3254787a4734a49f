/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `wait_for_event`, `start_when.event` and `POST /v1/events` on a real Temporal server with the
 * API and a worker: a matching event resumes exactly the runs it fits (name and every match
 * field), one that does not fit resumes none, another owner's event reaches nothing, a timeout
 * fails the step or continues, and an event starts the definitions it triggers with its data as
 * their run inputs (bad data: 400 with the path, nothing resumed or started). The store holds
 * no event name or match value in plaintext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('events', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  const WAITER = `title: Ship when paid
start_when:
  manual:
    inputs:
      order_id: { type: string, required: true }
steps:
  - id: paid
    wait_for_event:
      name: order.paid
      match: { order_id: '{{inputs.order_id}}', currency: EUR }
      timeout: 7d
  - id: ship
    if: $nodes.paid.output.received == true
    use_app_skill: echo.shout
    input: { requests: [{ text: 'ship {{steps.paid.data.order_id}} for {{steps.paid.data.amount}}' }] }
`;

  async function waiting(orderId: string): Promise<string> {
    const def = await h.request('POST', '/v1/workflows', WAITER, 'application/yaml');
    expect(def.status, def.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
      inputs: { order_id: orderId },
    });
    expect(run.status, run.body).toBe(202);
    const runId = run.json.task_id as string;
    await h.waitForTask(runId, (t) => t.steps?.[0]?.event !== undefined);
    return runId;
  }

  const send = (body: unknown, token?: string) => h.request('POST', '/v1/events', body, undefined, token);

  it('resumes exactly the runs an event fits; the step outputs its data', async () => {
    const [a, b] = [await waiting('o-1'), await waiting('o-2')];
    const task = await h.request('GET', `/v1/tasks/${a}`);
    expect(task.json.steps[0]).toMatchObject({
      id: 'paid',
      status: 'running',
      event: { name: 'order.paid' },
    });
    // Wrong currency, wrong order, wrong name: nothing.
    for (const body of [
      { name: 'order.paid', data: { order_id: 'o-1', currency: 'USD' } },
      { name: 'order.paid', data: { order_id: 'o-3', currency: 'EUR' } },
      { name: 'order.refunded', data: { order_id: 'o-1', currency: 'EUR' } },
      { name: 'order.paid', data: { order_id: ['o-1'], currency: 'EUR' } },
    ]) {
      const res = await send(body);
      expect([res.status, res.json]).toEqual([200, { resumed: 0, started: 0 }]);
    }
    const res = await send({ name: 'order.paid', data: { order_id: 'o-1', currency: 'EUR', amount: 12.5 } });
    expect([res.status, res.json]).toEqual([200, { resumed: 1, started: 0 }]);
    const done = await h.waitForTask(a, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.paid).toEqual({
      received: true,
      data: { order_id: 'o-1', currency: 'EUR', amount: 12.5 },
    });
    expect(done.result.outputs.ship.results).toEqual(['SHIP O-1 FOR 12.5']);
    // The same event again: the run no longer waits.
    const again = await send({ name: 'order.paid', data: { order_id: 'o-1', currency: 'EUR' } });
    expect(again.json).toEqual({ resumed: 0, started: 0 });
    expect((await h.request('GET', `/v1/tasks/${b}`)).json.status).toBe('running');
    // The index keeps no event name or match value in plaintext.
    const rows = await h.api.deps.store.db.selectFrom('event_waits').selectAll().execute();
    const text = JSON.stringify(rows);
    for (const secret of ['order.paid', 'o-2', 'EUR']) expect(text).not.toContain(secret);
    expect(rows.find((r) => r.workflow_id === b)).toMatchObject({
      step_id: 'paid',
      match_fields: 'currency,order_id',
    });
    await h.request('POST', `/v1/tasks/${b}/cancel`);
  });

  it('an Idempotency-Key replays the first answer and resumes nothing again', async () => {
    const event = { name: 'order.paid', data: { order_id: 'o-idem', currency: 'EUR' } };
    const post = async (key?: string) => {
      const res = await h.api.app.inject({
        method: 'POST',
        url: '/v1/events',
        headers: {
          authorization: `Bearer ${h.token}`,
          'content-type': 'application/json',
          ...(key && { 'idempotency-key': key }),
        },
        payload: JSON.stringify(event),
      });
      return { status: res.statusCode, json: res.json(), replayed: res.headers['idempotent-replayed'] };
    };
    const first = await waiting('o-idem');
    expect(await post('paid-o-idem')).toEqual({
      status: 200,
      json: { resumed: 1, started: 0 },
      replayed: undefined,
    });
    await h.waitForTask(first, (t) => t.status === 'completed');
    const second = await waiting('o-idem');
    expect(await post('paid-o-idem')).toEqual({
      status: 200,
      json: { resumed: 1, started: 0 },
      replayed: 'true',
    });
    expect((await h.request('GET', `/v1/tasks/${second}`)).json.status).toBe('running');
    expect(await post()).toEqual({ status: 200, json: { resumed: 1, started: 0 }, replayed: undefined });
    await h.waitForTask(second, (t) => t.status === 'completed');
  });

  it("never reaches another owner's runs", async () => {
    const mine = await waiting('o-shared');
    const res = await send(
      { name: 'order.paid', data: { order_id: 'o-shared', currency: 'EUR' } },
      h.otherToken,
    );
    expect([res.status, res.json]).toEqual([200, { resumed: 0, started: 0 }]);
    expect((await h.request('GET', `/v1/tasks/${mine}`)).json.status).toBe('running');
    const ok = await send({ name: 'order.paid', data: { order_id: 'o-shared', currency: 'EUR' } });
    expect(ok.json).toEqual({ resumed: 1, started: 0 });
    await h.waitForTask(mine, (t) => t.status === 'completed');
  });

  it('starts the definitions an event triggers, with the declared fields as run inputs', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: On signup
start_when:
  event:
    name: user.signed_up
    inputs:
      email: { type: string, required: true }
      plan: { type: string, default: free }
steps:
  - id: hello
    use_app_skill: echo.shout
    input: { requests: [{ text: 'hello {{inputs.email}} on {{inputs.plan}}' }] }
`,
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    expect(def.json.trigger_type).toBe('event');
    const bad = await send({ name: 'user.signed_up', data: { email: 42 } });
    expect([bad.status, bad.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at data.email: must be of type string',
          details: {
            issues: [{ path: 'data.email', message: 'must be of type string' }],
            definition_id: def.json.id,
          },
        },
      },
    ]);
    const missing = await send({ name: 'user.signed_up', data: { plan: 'pro' } });
    expect([missing.status, missing.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at data.email: is required',
          details: {
            issues: [{ path: 'data.email', message: 'is required' }],
            definition_id: def.json.id,
          },
        },
      },
    ]);
    expect((await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs).toEqual([]);
    const ok = await send({ name: 'user.signed_up', data: { email: 'a@example.com', source: 'ad' } });
    expect([ok.status, ok.json]).toEqual([200, { resumed: 0, started: 1 }]);
    // The run history comes from Temporal visibility, which trails a start by a moment.
    let runs: { task_id: string }[] = [];
    for (let i = 0; i < 50 && runs.length === 0; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      runs = (await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs;
    }
    expect(runs).toHaveLength(1);
    const done = await h.waitForTask(runs[0]!.task_id, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.result.outputs.hello.results).toEqual(['HELLO A@EXAMPLE.COM ON FREE']);
    // Another owner's event of the same name starts nothing of this owner's.
    const other = await send({ name: 'user.signed_up', data: { email: 'b@example.com' } }, h.otherToken);
    expect(other.json).toEqual({ resumed: 0, started: 0 });
  });

  it('refuses a malformed event with the failing path', async () => {
    // The message names the rule, never the name sent.
    const rule = 'must match ^[a-z][a-z0-9_.-]{0,127}$';
    const res = await send({ name: 'Order Paid', data: {} });
    expect([res.status, res.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: `Invalid body at name: ${rule}`,
          details: { issues: [{ path: 'name', message: rule, location: 'body' }] },
        },
      },
    ]);
    const list = await send({ name: 'order.paid', data: [1] });
    const notObject = 'Invalid input: expected record, received array';
    expect([list.status, list.json]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: `Invalid body at data: ${notObject}`,
          details: { issues: [{ path: 'data', message: notObject, location: 'body' }] },
        },
      },
    ]);
  });

  it('times out: on_timeout continue gives received false, fail fails the step', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: Event timeouts
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: soft
          wait_for_event: { name: never.comes, timeout: 1m, on_timeout: continue }
        - id: hard
          wait_for_event: { name: never.comes, timeout: 1m }
          continue_on_error: true
`,
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: {} });
    const done = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      90_000,
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.soft).toEqual({ received: false, data: {} });
    expect(done.steps.find((s: any) => s.id === 'hard')).toMatchObject({
      status: 'failed',
      error: { code: 'EVENT_TIMED_OUT', message: 'No matching event arrived before the wait timed out.' },
    });
    // Both waits left the index.
    const left = await h.api.deps.store.db
      .selectFrom('event_waits')
      .selectAll()
      .where('workflow_id', '=', run.json.task_id)
      .execute();
    expect(left).toEqual([]);
  }, 120_000);
});
