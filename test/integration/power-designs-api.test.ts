/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * The electronics app through the API, on a real Temporal test server and worker, against the
 * power simulator over HTTP: the long-running path (POST → 202 → stages while
 * polling → completed → each embed format), the requirement cache, input rules checked before
 * any upstream request, the sanitised schematic, the header on the GETs, the 429 retry and a
 * definition step referencing the results.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';
import { powerConfig } from '../helpers/power-config.js';

const SEARCH = '/v1/apps/electronics/skills/search_power_designs';
const DESIGN = '/v1/apps/electronics/skills/get_power_design';
const REQ = { vinMin: 10, vinMax: 24, vout: [5], iout: [2] };

describe('electronics: power designs', () => {
  let h: EngineHarness;
  let sim: PowerSimulator;
  beforeAll(async () => {
    sim = await startPowerSimulator({ latencyMs: 5 });
    h = await startEngine({
      apps: APPS,
      config: powerConfig(sim.url),
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await sim?.close();
  });
  beforeEach(() => {
    sim.reset();
    sim.setLatency(5);
  });

  const file = (embedId: string, format: string) =>
    h.api.app.inject({
      method: 'GET',
      url: `/v1/embeds/${embedId}/file?format=${format}`,
      headers: { authorization: `Bearer ${h.token}` },
    });

  it('runs the whole long-running path: 202, stages while polling, completed, every embed format', async () => {
    sim.setLatency(1500);
    const res = await h.request('POST', SEARCH, { requests: [{ ...REQ, max_results: 3 }] });
    expect(res.status).toBe(202);
    expect(Object.keys(res.json).sort()).toEqual(expect.arrayContaining(['embed_id', 'task_id']));
    const { task_id: taskId, embed_id: embedId } = res.json;
    expect(taskId).toMatch(/^task_/);
    expect(embedId).toMatch(/^emb_/);

    const pending = await file(embedId, 'full');
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.code).toBe('EMBED_PENDING');
    expect(pending.json().error.details).toMatchObject({
      embed_id: embedId,
      task_id: taskId,
      status: 'pending',
    });

    const seen = new Set<string>();
    const done = await h.waitForTask(
      taskId,
      (t) => {
        for (const s of t.steps) if (s.stage) seen.add(s.stage);
        return t.status === 'completed';
      },
      30_000,
    );
    expect(seen).toContain('querying_upstream');
    expect(seen).toContain('fetching_schematic');
    expect(done.steps).toEqual([
      expect.objectContaining({ id: 'electronics.search_power_designs', status: 'completed' }),
    ]);
    expect(done.steps[0].stage).toBeUndefined();

    const out = done.result.output;
    expect(out.note).toBe(
      'These are candidate reference designs, not PCB layouts; verify every design before use. The schematic is a picture with metadata, not a netlist.',
    );
    expect(out.results).toHaveLength(1);
    expect(out.results[0].cached).toBe(false);
    const sols = out.results[0].solutions;
    expect(sols.map((s: any) => s.rank)).toEqual([1, 2, 3]);
    expect(sols[0]).toEqual({
      id: expect.stringMatching(/^\d+-5000-2000-10000-24000-30$/),
      rank: 1,
      considerations: expect.stringContaining('5 V at 2 A from 10-24 V'),
      part_number: expect.any(String),
      base_product_id: expect.any(String),
      topology: 'Buck',
      bom_cost_usd: expect.any(Number),
      efficiency: expect.any(Number),
      footprint_mm2: expect.any(Number),
      frequency_hz: expect.any(Number),
      temperature_c: expect.any(Number),
      source_url: `https://products.example/product/${sols[0].base_product_id}`,
    });
    expect(sols[0].efficiency).toBeGreaterThan(0.5);
    expect(sols[0].efficiency).toBeLessThanOrEqual(1);
    expect(out.top_schematic).toMatchObject({ solution_id: sols[0].id, content_type: 'image/svg+xml' });

    const preview = await file(embedId, 'preview');
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(preview.headers['x-content-type-options']).toBe('nosniff');
    expect(preview.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(preview.body).toContain('<title>');
    const full = await file(embedId, 'full');
    expect(full.statusCode).toBe(200);
    expect(full.json()).toMatchObject({
      embed_id: embedId,
      skill: 'electronics.search_power_designs',
      output: out,
    });
    const original = await file(embedId, 'original');
    expect(original.json()).toEqual(out);

    // The upstream saw one search and one schematic GET, with the headers it needs.
    expect(
      sim.requests().map((r) => [r.method, r.path.replace(/\/solutions\/[^/]+\//, '/solutions/{id}/')]),
    ).toEqual([
      ['POST', '/wb6/restapi/power/solutions'],
      ['GET', '/wb6/restapi/power/solutions/{id}/schsvg'],
    ]);
    for (const r of sim.requests()) {
      expect(r.contentType).toBe('application/json');
      expect(r.referer).toBe(`${sim.url}/power-designer/`);
    }
  }, 60_000);

  it('serves the same normalised requirement from the cache without an upstream search', async () => {
    sim.setContainer('array');
    const first = await h.request('POST', SEARCH, {
      requests: [{ vinMin: 12, vinMax: 12, vout: [3.3], iout: [1] }],
    });
    const a = await h.waitForTask(first.json.task_id, (t) => t.status === 'completed');
    expect(a.result.output.results[0].cached).toBe(false);
    sim.reset();
    const second = await h.request('POST', SEARCH, {
      requests: [
        {
          vinMin: 12.0,
          vinMax: 12,
          vout: [3.3],
          iout: [1.0],
          ambientTemp: 30,
          isIsolated: false,
          powerSupply: 'dc',
          optimizationSetting: 3,
        },
      ],
    });
    const b = await h.waitForTask(second.json.task_id, (t) => t.status === 'completed');
    expect(b.result.output.results[0]).toEqual({ ...a.result.output.results[0], cached: true });
    expect(sim.requests().filter((r) => r.method === 'POST')).toEqual([]);
    sim.setContainer('object');
  }, 60_000);

  const issue = (path: string, message: string) => ({ path, message, location: 'body' });
  const invalid: [string, unknown, ReturnType<typeof issue>[]][] = [
    ['vinMin above vinMax', { ...REQ, vinMin: 30 }, [issue('requests[0].vinMin', 'must not exceed vinMax')]],
    [
      'a non-positive voltage',
      { ...REQ, vinMin: 0 },
      [issue('requests[0].vinMin', 'Too small: expected number to be >0')],
    ],
    [
      'a negative current',
      { ...REQ, iout: [-1] },
      [issue('requests[0].iout[0]', 'Too small: expected number to be >0')],
    ],
    [
      'two rails',
      { ...REQ, vout: [5, 3.3], iout: [1, 1] },
      [issue('requests[0].vout', 'one rail supported'), issue('requests[0].iout', 'one rail supported')],
    ],
    [
      'an optimisation setting of 5',
      { ...REQ, optimizationSetting: 5 },
      [issue('requests[0].optimizationSetting', 'Too big: expected number to be <=4')],
    ],
    [
      'max_results over 20',
      { ...REQ, max_results: 21 },
      [issue('requests[0].max_results', 'Too big: expected number to be <=20')],
    ],
    [
      'an unknown power supply',
      { ...REQ, powerSupply: 'battery' },
      [issue('requests[0].powerSupply', 'Invalid option: expected one of "dc"|"ac"')],
    ],
  ];
  it.each(invalid)('rejects %s before any upstream request, naming the path', async (_name, item, issues) => {
    const res = await h.request('POST', SEARCH, { requests: [item] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: 'INVALID_PARAMETER',
        message: `Invalid body at ${issues[0]!.path}: ${issues[0]!.message}`,
        details: { issues },
      },
    });
    expect(sim.requests()).toEqual([]);
  });

  it('get_power_design: sanitised schematic, normalised parts list, JSON header on both GETs', async () => {
    sim.setFault({ type: 'unsafe_svg' });
    const id = '10652-5000-2000-10000-24000-30';
    const res = await h.request('POST', DESIGN, { requests: [{ solution_id: id }] });
    expect(res.status).toBe(202);
    const t = await h.waitForTask(res.json.task_id, (x) => x.status === 'completed');
    expect(t.result.output.results).toHaveLength(1);
    const out = t.result.output.results[0];
    expect(out.solution_id).toBe(id);
    expect(out.schematic.svg).not.toMatch(/<script|onload|javascript:|attacker\.invalid|<image/i);
    expect(out.schematic.svg).toContain('TPS62933');
    expect(out.schematic.note).toBe('A picture with metadata, not a netlist.');
    expect(out.part_count).toBe(6);
    expect(out.parts[0]).toEqual({
      reference: 'U1',
      part: 'TPS62933DRLR',
      description: 'Buck converter',
      quantity: 1,
      value: 'TPS62933',
      manufacturer: 'Texas Instruments',
      limits: { voltage_v: 30, current_a: 3, power_w: null, tolerance: null },
    });
    expect(JSON.stringify(out)).not.toMatch(/refDes|bomComponents|voltageRating/);
    const gets = sim.requests();
    expect(gets.map((r) => [r.method, r.path, r.contentType])).toEqual([
      ['GET', `/wb6/restapi/power/solutions/${id}/schsvg`, 'application/json'],
      ['GET', `/wb6/restapi/power/solutions/${id}/bomcomponents`, 'application/json'],
    ]);
    const svg = await file(res.json.embed_id, 'preview');
    expect(svg.body).toBe(out.schematic.svg);
  }, 60_000);

  it('honours a 429 Retry-After and still completes; a 5xx fails the task with the catalogue error', async () => {
    sim.setFault({ type: 'rate_limited', retryAfterSeconds: 1, times: 1 });
    const ok = await h.request('POST', SEARCH, {
      requests: [{ vinMin: 9, vinMax: 15, vout: [5], iout: [1] }],
    });
    const done = await h.waitForTask(ok.json.task_id, (t) => t.status === 'completed', 30_000);
    expect(done.result.output.results[0].solutions.length).toBeGreaterThan(0);
    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(2);

    sim.reset();
    sim.setFault({ type: 'status', status: 503 });
    const bad = await h.request('POST', SEARCH, {
      requests: [{ vinMin: 8, vinMax: 15, vout: [5], iout: [1] }],
    });
    const failed = await h.waitForTask(bad.json.task_id, (t) => t.status === 'failed', 30_000);
    expect(failed.error).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The power upstream answered HTTP 503.',
      details: { provider: 'power', status: 503 },
    });
    const embed = await file(bad.json.embed_id, 'full');
    expect(embed.statusCode).toBe(409);
    expect(embed.json().error.code).toBe('EMBED_FAILED');
    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
  }, 60_000);

  it('a schematic the sanitiser cannot read fails the task with UNSAFE_CONTENT, not INTERNAL', async () => {
    sim.setFault({
      type: 'unsafe_svg',
      body: '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg><frameset>',
    });
    const bad = await h.request('POST', DESIGN, {
      requests: [{ solution_id: '10652-5000-2000-10000-24000-30' }],
    });
    expect(bad.status).toBe(202);
    const failed = await h.waitForTask(bad.json.task_id, (t) => t.status === 'failed', 30_000);
    expect(failed.error).toEqual({
      code: 'UNSAFE_CONTENT',
      message: 'The schematic could not be made safe to show.',
      details: { provider: 'power', reason: 'no single svg root' },
    });
    const embed = await file(bad.json.embed_id, 'preview');
    expect(embed.statusCode).toBe(409);
    expect(embed.json().error.code).toBe('EMBED_FAILED');
    sim.reset();
  }, 60_000);

  it('a malformed upstream answer fails the task with UPSTREAM_MALFORMED and quotes nothing of it', async () => {
    sim.reset();
    sim.setFault({ type: 'malformed' });
    const bad = await h.request('POST', SEARCH, {
      requests: [{ vinMin: 7, vinMax: 15, vout: [5], iout: [1] }],
    });
    expect(bad.status).toBe(202);
    const failed = await h.waitForTask(bad.json.task_id, (t) => t.status === 'failed', 30_000);
    expect(failed.error).toEqual({
      code: 'UPSTREAM_MALFORMED',
      message: 'The power upstream sent an answer that does not parse.',
      details: { provider: 'power' },
    });
    sim.reset();
  }, 60_000);

  it('a definition waits for the search and a later step references $nodes.<step>.output.results', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: Power then design
start_when:
  manual: {}
steps:
  - id: search
    use_app_skill: electronics.search_power_designs
    input:
      requests:
        - { vinMin: 18, vinMax: 30, vout: [12], iout: [1], max_results: 2 }
  - id: design
    use_app_skill: electronics.get_power_design
    input:
      requests:
        - solution_id: $nodes.search.output.results[0].id
`,
      'application/yaml',
    );
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    const t = await h.waitForTask(
      run.json.task_id,
      (x) => x.status === 'completed' || x.status === 'failed',
      30_000,
    );
    expect(t.status).toBe('completed');
    const first = t.result.outputs.search.results[0];
    expect(t.result.outputs.search.result_count).toBe(2);
    expect(t.result.outputs.design.raw.results[0].solution_id).toBe(first.id);
    expect(t.result.outputs.design.result_count).toBe(6);
    expect(t.result.outputs.design.designs).toEqual([
      { solution_id: first.id, schematic: t.result.outputs.design.schematic, part_count: 6 },
    ]);
  }, 60_000);

  it("takes five requirements and five solution ids per call, and sends each call's items at once", async () => {
    sim.setLatency(300);
    const requirements = [5, 6, 9, 12, 15].map((vinMin) => ({
      vinMin,
      vinMax: 24,
      vout: [3.3],
      iout: [1],
      max_results: 1,
    }));
    const search = await h.request('POST', SEARCH, { requests: requirements });
    expect(search.status).toBe(202);
    const found = await h.waitForTask(
      search.json.task_id,
      (x) => x.status === 'completed' || x.status === 'failed',
      30_000,
    );
    expect(found.status).toBe('completed');
    expect(found.result.output.results).toHaveLength(5);
    const posts = sim.requests().filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(5);
    expect(sim.peakInFlight()).toBe(5);

    sim.reset();
    const ids = found.result.output.results.map(
      (r: { solutions: Array<{ id: string }> }) => r.solutions[0]!.id,
    );
    const design = await h.request('POST', DESIGN, {
      requests: ids.map((id: string) => ({ solution_id: id })),
    });
    expect(design.status).toBe(202);
    const t = await h.waitForTask(
      design.json.task_id,
      (x) => x.status === 'completed' || x.status === 'failed',
      30_000,
    );
    expect(t.status).toBe('completed');
    expect(t.result.output.results.map((d: { solution_id: string }) => d.solution_id)).toEqual(ids);
    expect(sim.requests()).toHaveLength(10);
    expect(sim.peakInFlight()).toBe(5);

    const six = await h.request('POST', DESIGN, {
      requests: [...ids, ids[0]].map((id: string) => ({ solution_id: id })),
    });
    expect(six.status).toBe(400);
    expect(six.json).toEqual({
      error: {
        code: 'INVALID_PARAMETER',
        message: 'Invalid body at requests: At most 5 requests are allowed.',
        details: {
          issues: [{ path: 'requests', message: 'At most 5 requests are allowed.', location: 'body' }],
        },
      },
    });
  }, 60_000);
});
