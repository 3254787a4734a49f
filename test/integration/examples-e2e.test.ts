/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * The example definitions (definitions/examples/) compile against the real skill catalog and
 * run end to end on a real Temporal server, with the domain search skill talking over HTTP to
 * the shop simulator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { PROJECT_ROOT } from '../../lib/config.js';
import { signatureHeader } from '../../lib/webhooks/hook-signature.js';
import { startShopSimulator, type ShopSimulator } from '../../simulators/shop/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const example = (name: string) => readFileSync(path.join(PROJECT_ROOT, 'definitions/examples', name), 'utf8');

describe('example definitions against the simulators', () => {
  let shop: ShopSimulator;
  let h: EngineHarness;
  beforeAll(async () => {
    shop = await startShopSimulator({ host: '127.0.0.1' });
    h = await startEngine({ apps: APPS, config: { SHOP_URL: shop.url } });
  });
  afterAll(async () => {
    await h?.close();
    await shop?.close();
  });

  it('runs the spec example: search domains, then a chat message with the count', async () => {
    const def = await h.request('POST', '/v1/workflows', example('domain-ideas.yaml'), 'application/yaml');
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(task.status).toBe('completed');
    const search = task.result.outputs.search;
    expect(search.result_count).toBe(search.results.length);
    expect(search.result_count).toBeGreaterThan(0);
    expect(search.raw.results).toHaveLength(1);
    expect(search.raw.results[0]).toMatchObject({
      query: 'cedar',
      country: 'DE',
      currency: 'EUR',
      partial: false,
      error: null,
    });
    expect(search.results.every((r: { domain: string }) => r.domain.endsWith('.com'))).toBe(true);
    expect(task.steps[0].output_summary).toEqual({ result_count: search.result_count });

    const msg = (await h.chatMessage(run.json.task_id))!;
    expect(msg.content).toEqual({
      title: 'Domains',
      message: `${search.result_count} domains found`,
    });
    // The user can read the message the run delivered: through the chat the engine assigned…
    const chat = await h.request('POST', '/v1/chats/messages', { chat_id: `workflow:${def.json.id}` });
    expect(chat.status).toBe(200);
    expect(chat.json).toEqual({
      chat_id: `workflow:${def.json.id}`,
      messages: [
        {
          message_id: msg.row.id,
          title: 'Domains',
          message: `${search.result_count} domains found`,
          // Server-sealed (CHAT_SERVER_SEALED, as in every test platform): no copies for chat keys.
          sealed: [],
          task_id: run.json.task_id,
          step_id: 'notify',
          created_at: expect.any(String),
          webhook_delivered: false,
        },
      ],
    });
    // …and in the chat step's output of the task, beside the skill output.
    expect(task.result.outputs.notify).toEqual({
      message_id: msg.row.id,
      chat_id: `workflow:${def.json.id}`,
      title: 'Domains',
      message: `${search.result_count} domains found`,
      stored: true,
      webhook_delivered: false,
    });
    const lookups = shop.requests().filter((r) => r.op === 'lookup');
    expect(lookups.map((r) => r.params.search?.[0])).toContain('cedar.com');
  });

  it('runs the flow-control example: a retry bound, a fail step that is skipped, a wait, then the message', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      example('domain-check-with-pause.yaml'),
      'application/yaml',
    );
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { word: 'cedar' } });
    expect(run.status).toBe(202);
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(task.status).toBe('completed');
    expect(task.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['search', 'completed'],
      ['nothing_free', 'skipped'],
      ['cool_down', 'completed'],
      ['notify', 'completed'],
    ]);
    const { search, cool_down: coolDown } = task.result.outputs;
    expect(search.result_count).toBeGreaterThan(0);
    expect(coolDown.waited_ms).toBe(3_000);
    expect(task.steps[2].wake_at).toBe(coolDown.until);
    expect((await h.chatMessage(run.json.task_id))?.content).toEqual({
      title: 'Domains',
      message: `${search.result_count} names are free (reported 3000 ms after the search).`,
    });
  });

  it('runs the fan-out example: a loop over the ideas, a parallel group, then one message', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      example('brand-ideas-fan-out.yaml'),
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const names = ['cedar', 'maple', 'oak'];
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { names } });
    expect(run.status).toBe(202);
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['each_name', 'completed'],
      ['other_endings', 'completed'],
      ['net', 'completed'],
      ['org', 'completed'],
      ['report', 'completed'],
    ]);
    const { each_name: loop, net, org } = task.result.outputs;
    expect(loop.completed_count).toBe(3);
    const counts = loop.results.map((r: any) => r.outputs.check.result_count);
    const firsts = loop.results.map((r: any) => r.outputs.check.results[0]?.domain ?? '');
    expect(counts.every((n: number) => n > 0)).toBe(true);
    // In the order of the ideas: each element's first free name holds its idea.
    firsts.forEach((d: string, i: number) =>
      expect([d.endsWith('.com'), d.includes(names[i]!)]).toEqual([true, true]),
    );
    const message =
      '3 ideas checked. ' +
      names.map((_, i) => `${firsts[i]}: ${counts[i]} free. `).join('') +
      ` Other endings for the first idea: ${net.result_count} .net, ${org.result_count} .org.`;
    expect((await h.chatMessage(run.json.task_id))?.content).toEqual({ title: 'Brand ideas', message });
    const lookups = shop
      .requests()
      .filter((r) => r.op === 'lookup')
      .map((r) => r.params.search?.[0]);
    expect(lookups).toEqual(
      expect.arrayContaining(['cedar.com', 'maple.com', 'oak.com', 'cedar.net', 'cedar.org']),
    );
    // An idea that cannot be checked (an empty name fails the skill's input check): its
    // handler says so in the chat, the element completes and the run reports the others.
    const failing = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
      inputs: { names: ['birch', ''] },
    });
    const handled = await h.waitForTask(
      failing.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(handled.status, JSON.stringify(handled.error)).toBe('completed');
    const elements = handled.result.outputs.each_name.results;
    expect(elements.map((r: any) => [r.status, r.outputs.check.result_count > 0])).toEqual([
      ['completed', true],
      ['completed', false],
    ]);
    const rows = await h.api.deps.store.db
      .selectFrom('chat_messages')
      .select(['step_id'])
      .where('task_id', '=', failing.json.task_id)
      .orderBy('step_id')
      .execute();
    expect(rows.map((r) => r.step_id)).toEqual(['each_name[1].check_failed', 'report']);
  });

  it('runs the use_workflow example: a child run per idea, its declared outputs in the report', async () => {
    // At start both load from definitions/examples with the ids wf_file_name_score and
    // wf_file_names_report; here the parent names the child by the id the API gave it.
    const child = await h.request('POST', '/v1/workflows', example('name-score.yaml'), 'application/yaml');
    expect(child.status, child.body).toBe(201);
    const source = example('names-report.yaml').replace('wf_file_name_score', child.json.id);
    const parent = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(parent.status, parent.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${parent.json.id}/runs`, {
      inputs: { names: ['cedar', 'maple'] },
    });
    expect(run.status, run.body).toBe(202);
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    const scores = task.result.outputs.each_idea.results.map((r: any) => r.outputs.score);
    expect(scores.map((s: any) => Object.keys(s).sort())).toEqual([
      ['first', 'free', 'summary'],
      ['first', 'free', 'summary'],
    ]);
    expect(scores.every((s: any) => s.free > 0 && s.summary === `${s.free} .com names free`)).toBe(true);
    expect((await h.chatMessage(run.json.task_id))?.content).toEqual({
      title: 'Names report',
      message: scores.map((s: any) => `${s.first} (${s.summary}). `).join(''),
    });
    // Each child is a run of the Name score definition, a task of its own.
    const children = await h.request('GET', `/v1/workflows/${child.json.id}/runs`);
    expect(children.json.runs.map((r: any) => r.trigger)).toEqual(['workflow', 'workflow']);
  });

  it('runs the approval example: waits, is approved with a budget, reports it', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      example('register-with-approval.yaml'),
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, { inputs: { idea: 'cedar' } });
    expect(run.status, run.body).toBe(202);
    const taskId = run.json.task_id as string;
    const waiting = await h.waitForTask(taskId, (t) => t.steps?.[1]?.approval !== undefined);
    expect(waiting.steps[0].output_summary.result_count).toBeGreaterThan(0);
    const decided = await h.request('POST', `/v1/runs/${taskId}/approvals/ok_to_register`, {
      decision: 'approved',
      payload: { budget: 40, note: 'Go.' },
    });
    expect(decided.status, decided.body).toBe(200);
    const task = await h.waitForTask(taskId, (t) => ['completed', 'failed'].includes(t.status));
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['search', 'completed'],
      ['ok_to_register', 'completed'],
      ['approved', 'completed'],
      ['not_approved', 'skipped'],
    ]);
    const first = task.result.outputs.search.results[0].domain as string;
    expect(first).toMatch(/cedar.*\.com$/);
    expect((await h.chatMessage(taskId))?.content).toEqual({
      title: 'Approved',
      message: `${first} approved with a budget of 40 euros. Go.`,
    });
  });

  it('runs the event example: an event starts it, the matching payment event resumes it', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      example('register-when-paid.yaml'),
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    expect(def.json.trigger_type).toBe('event');
    const started = await h.request('POST', '/v1/events', {
      name: 'domain.requested',
      data: { idea: 'cedar', order_id: 'ord-7', channel: 'shop' },
    });
    expect([started.status, started.json]).toEqual([200, { resumed: 0, started: 1 }]);
    const [run] = (await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs;
    expect(run.trigger).toBe('event');
    const taskId = run.task_id as string;
    await h.waitForTask(taskId, (t) => t.steps?.[1]?.event !== undefined);
    const other = await h.request('POST', '/v1/events', { name: 'order.paid', data: { order_id: 'ord-8' } });
    expect(other.json).toEqual({ resumed: 0, started: 0 });
    const paid = await h.request('POST', '/v1/events', {
      name: 'order.paid',
      data: { order_id: 'ord-7', amount: 12 },
    });
    expect(paid.json).toEqual({ resumed: 1, started: 0 });
    const task = await h.waitForTask(taskId, (t) => ['completed', 'failed'].includes(t.status));
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['search', 'completed'],
      ['paid', 'completed'],
      ['register', 'completed'],
      ['unpaid', 'skipped'],
    ]);
    const first = task.result.outputs.search.results[0].domain as string;
    expect((await h.chatMessage(taskId))?.content).toEqual({
      title: 'Paid',
      message: `Order ord-7 is paid (12 euros): register ${first}.`,
    });
  });

  it('runs the webhook example: a signed request starts it with the declared body fields', async () => {
    const def = await h.request('POST', '/v1/workflows', example('order-webhook.yaml'), 'application/yaml');
    expect(def.status, def.body).toBe(201);
    expect(def.json.trigger_type).toBe('webhook');
    const { url, signing_secret: secret } = def.json.hook;
    const body = JSON.stringify({ idea: 'cedar', order_id: 'ord-9', customer: { country: 'DE' } });
    const res = await h.api.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/json', 'x-skillflow-signature': signatureHeader(secret, body) },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(202);
    const taskId = res.json().task_id as string;
    const task = await h.waitForTask(taskId, (t) => ['completed', 'failed'].includes(t.status), 60_000);
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    const first = task.result.outputs.search.results[0].domain as string;
    expect((await h.chatMessage(taskId))?.content).toEqual({
      title: 'New order',
      message: `Order ord-9: ${first} is free for cedar.`,
    });
    const [run] = (await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs;
    expect(run).toMatchObject({ task_id: taskId, trigger: 'webhook' });
  });

  it('compiles the scheduled example and runs it when triggered', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      example('daily-domain-watch.yaml'),
      'application/yaml',
    );
    expect(def.status, JSON.stringify(def.json)).toBe(201);
    expect(def.json.schedule).toMatchObject({ timezone: 'Europe/Berlin', paused: false });
    await h.request('POST', `/v1/workflows/${def.json.id}/schedule/trigger`);
    let runs: { task_id: string; status: string }[] = [];
    for (let i = 0; i < 120 && !runs.some((r) => !['queued', 'running'].includes(r.status)); i++) {
      await new Promise((r) => setTimeout(r, 250));
      runs = (await h.request('GET', `/v1/workflows/${def.json.id}/runs`)).json.runs;
    }
    const task = await h.waitForTask(runs[0]!.task_id, (t) => t.status === 'completed');
    const search = task.result.outputs.search;
    expect(search.raw.results.map((g: { query: string }) => g.query)).toEqual(['cedar', 'juniper']);
    expect(search.result_count).toBeGreaterThan(0);
    expect(search.results.every((r: { availability: string }) => r.availability === 'available')).toBe(true);
    expect(task.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
    const msg = (await h.chatMessage(runs[0]!.task_id))!;
    const content = msg.content;
    expect(content.title).toBe(`Domain watch: ${search.result_count} free`);
    expect(
      content.message
        .trim()
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(
      search.results.map(
        (r: { domain: string; premium: boolean }) => `- ${r.domain}${r.premium ? ' (premium)' : ''}`,
      ),
    );
  });

  it('serves hosting.search_domains over REST: grouped results in request order, previews, and per-field validation', async () => {
    const res = await h.request('POST', '/v1/apps/hosting/skills/search-domains', {
      requests: [
        { id: 'brand', query: 'cedar', tlds: ['com'], max_results: 2 },
        { id: 'exact', query: 'cedar.com' },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.json.results.map((g: { id: string; country: string; currency: string }) => [
        g.id,
        g.country,
        g.currency,
      ]),
    ).toEqual([
      ['brand', 'DE', 'EUR'],
      ['exact', 'DE', 'EUR'],
    ]);
    expect(res.json.results[0].results.length).toBeLessThanOrEqual(2);
    expect(res.json.previews.length).toBeGreaterThan(0);
    expect(res.json.call_id).toMatch(/^call_/);
    expect(res.json.task_id).toBeUndefined();

    const before = shop.requests().length;
    const bad = await h.request('POST', '/v1/apps/hosting/skills/search_domains', {
      requests: [
        { id: 'ok', query: 'cedar' },
        { id: 'bad', query: 'cedar', max_results: 21, tlds: Array.from({ length: 21 }, (_, i) => `x${i}`) },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('INVALID_PARAMETER');
    expect(bad.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'requests[1].max_results',
      'requests[1].tlds',
    ]);
    expect(shop.requests().length).toBe(before);
  });
});
