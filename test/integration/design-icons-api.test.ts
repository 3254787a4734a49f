/**
 * `design.search_icons` and the sanitised SVG route through the real API (and a worker on the
 * Temporal test server for the workflow), against both providers: the offline sets (ICON_URL
 * unset) and the icon API simulator over HTTP on 127.0.0.1 (ICON_URL set).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIconSimulator, type IconSimulator } from '../../simulators/icons/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { holdsActiveContent, SVG_XSS_CORPUS } from '../helpers/svg-xss-corpus.js';
import { APPS } from '../../activities/apps/index.js';

const SKILL = '/v1/apps/design/skills/search_icons';
const ANONYMOUS = '/v1/anonymous/apps/design/skills/search_icons';
const SVG = '/v1/apps/design/icons/upstream';

const get = (h: EngineHarness, url: string, headers: Record<string, string> = {}) =>
  h.api.app.inject({ method: 'GET', url, remoteAddress: '10.9.0.1', headers });

const anonymous = (h: EngineHarness, body: unknown) =>
  h.api.app.inject({
    method: 'POST',
    url: ANONYMOUS,
    remoteAddress: '10.9.0.2',
    headers: { 'content-type': 'application/json', 'x-skillflow-anonymous-id': randomUUID() },
    payload: JSON.stringify(body),
  });

describe('design icons with the offline sets (ICON_URL unset)', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({ apps: APPS, config: { ICON_URL: undefined, DECISION_URL: undefined } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it("skill details show the decision helper's price (relevance ranking)", async () => {
    const res = await h.request('GET', '/v1/apps/design/skills/search_icons/details');
    expect(res.status).toBe(200);
    expect(res.json.decision_pricing).toEqual({
      usd_per_million_input_tokens: 0.042,
      output_tokens_charged: false,
    });
  });

  it('serves a sanitised real icon with the security and cache headers, and 304 on its ETag', async () => {
    const res = await get(h, `${SVG}/mdi/home.svg?height=32&color=%23ff0000`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 24 24"><path fill="#ff0000" d="M10 20v-6h4v6h5v-8h3L12 3L2 12h3v8z"/></svg>',
    );
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const etag = res.headers['etag'] as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await get(h, `${SVG}/mdi/home.svg?height=32&color=%23ff0000`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("a search result's versioned URL is kept for a year; another or no version for a day", async () => {
    const res = await anonymous(h, { requests: [{ query: 'home', limit: 50 }] });
    const urls = new Map<string, string>(
      res.json().results[0].results.map((r: { id: string; svg_url: string }) => [r.id, r.svg_url]),
    );
    const tabler = urls.get('tabler:home')!;
    const token = new URL(tabler, 'http://x').searchParams.get('v')!;
    // Each collection has its own token.
    expect(new URL(urls.get('mdi:home')!, 'http://x').searchParams.get('v')).not.toBe(token);
    const current = await get(h, tabler);
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get(h, `${SVG}/tabler/home.svg`);
    expect(plain.headers['cache-control']).toBe('public, max-age=86400');
    expect(plain.body).toBe(current.body);
    const other = await get(h, `${SVG}/tabler/home.svg?v=AAAAAAAAAAAA`);
    expect([other.statusCode, other.headers['cache-control']]).toEqual([200, 'public, max-age=86400']);
    const bad = await get(h, `${SVG}/tabler/home.svg?v=not-a-token`);
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      {
        error: {
          code: 'INVALID_PARAMETER',
          message: "Invalid querystring at v: must be the version token of a search result's svg_url",
          details: {
            issues: [
              {
                path: 'v',
                message: "must be the version token of a search result's svg_url",
                location: 'querystring',
              },
            ],
          },
        },
      },
    ]);
  });

  it('answers 400 in the envelope for a bad prefix, name, height or colour, and 404 for a missing icon', async () => {
    const traversal = await get(h, `${SVG}/..%2Fx/home.svg`);
    expect(traversal.statusCode).toBe(400);
    expect(traversal.json().error.code).toBe('INVALID_PARAMETER');
    expect(traversal.json().error.details.issues).toEqual([
      {
        path: 'prefix',
        message: 'must be a collection prefix: a-z, 0-9 and single hyphens',
        location: 'params',
      },
    ]);
    const height = await get(h, `${SVG}/mdi/home.svg?height=9000`);
    expect(height.json().error.details.issues).toEqual([
      { path: 'height', message: 'must be an integer from 8 to 512', location: 'querystring' },
    ]);
    const color = await get(h, `${SVG}/mdi/home.svg?color=red;x`);
    expect(color.json().error.details.issues).toEqual([
      { path: 'color', message: 'must be a hex colour such as #1a2b3c', location: 'querystring' },
    ]);
    const missing = await get(h, `${SVG}/mdi/no-such-icon-here.svg`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { code: 'ICON_NOT_FOUND', message: 'No icon with this prefix and name.', details: {} },
    });
  });

  it('searches anonymously inline with the permissive default, hiding other licenses', async () => {
    const res = await anonymous(h, { requests: [{ query: 'home', limit: 50 }] });
    expect(res.statusCode).toBe(200);
    const group = res.json().results[0];
    expect(group.license_policy).toBe('permissive');
    expect(group.results[0]).toEqual({
      id: 'tabler:home',
      prefix: 'tabler',
      name: 'home',
      display_name: 'Home',
      collection: 'Tabler Icons',
      license: {
        spdx: 'MIT',
        title: 'MIT',
        url: 'https://github.com/tabler/tabler-icons/blob/master/LICENSE',
      },
      author: { name: 'Paweł Kuna', url: 'https://github.com/tabler/tabler-icons' },
      width: 24,
      height: 24,
      svg_url: expect.stringMatching(
        /^\/v1\/apps\/design\/icons\/upstream\/tabler\/home\.svg\?v=[A-Za-z0-9_-]{12}$/,
      ),
    });
    const prefixes = new Set(group.results.map((r: { prefix: string }) => r.prefix));
    expect(prefixes.has('typcn')).toBe(false);
    expect(group.hidden_by_license).toBeGreaterThan(0);
    expect(group.icons).toEqual(group.results.map((r: { id: string }) => r.id));
    expect(JSON.stringify(res.json())).not.toMatch(/<svg|data:/u);
  });

  it('answers 200 with an empty list when nothing matches, and 400 naming the path for bad input', async () => {
    const empty = await h.request('POST', SKILL, { requests: [{ query: 'zzqxjvw' }] });
    expect(empty.status).toBe(200);
    expect(empty.json.results[0]).toMatchObject({ icons: [], results: [], result_count: 0 });
    const bad = await h.request('POST', SKILL, {
      requests: [{ query: 'home', limit: 51, license_policy: 'any' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.issues).toEqual([
      { path: 'requests[0].limit', message: 'limit must be an integer from 1 to 50.', location: 'body' },
      {
        path: 'requests[0].license_policy',
        message: 'license_policy must be one of permissive, all.',
        location: 'body',
      },
    ]);
  });

  it('runs a workflow that uses design.search_icons and feeds its count to a chat message', async () => {
    const definition = {
      title: 'Icons',
      start_when: { manual: {} },
      steps: [
        {
          id: 'icons',
          use_app_skill: 'design.search_icons',
          input: { requests: [{ query: 'arrow left', limit: 3, collections: ['lucide', 'mdi'] }] },
        },
        {
          id: 'notify',
          send_chat_message: { title: 'Icons', message: '{{steps.icons.result_count}} icons' },
        },
      ],
    };
    const def = await h.request('POST', '/v1/workflows', definition);
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => ['completed', 'failed'].includes(t.status),
      60_000,
    );
    expect(task.status).toBe('completed');
    const out = task.result.outputs.icons;
    expect(out.result_count).toBe(3);
    expect(out.results.map((r: { id: string }) => r.id)).toEqual([
      'lucide:arrow-left',
      'mdi:arrow-left',
      'mdi:arrow-left-box',
    ]);
    expect(out.results[0].request_index).toBe(0);
    expect(out.raw.results[0].result_count).toBe(3);
    expect((await h.chatMessage(run.json.task_id))!.content).toEqual({ title: 'Icons', message: '3 icons' });
  });
});

describe('design icons against the icon API simulator (ICON_URL set)', () => {
  let h: EngineHarness;
  let sim: IconSimulator;
  beforeAll(async () => {
    sim = await startIconSimulator();
    h = await startEngine({
      apps: APPS,
      worker: false,
      config: { ICON_URL: sim.url, DECISION_URL: undefined },
    });
  });
  afterAll(async () => {
    await h?.close();
    await sim?.close();
  });
  beforeEach(() => sim.reset());

  it('runs the five searches of one call at once and answers them in request order', async () => {
    sim.setFaults([{ type: 'slow', ms: 300, route: 'search' }]);
    const queries = ['home', 'star', 'user', 'mail', 'bell'];
    const res = await h.request('POST', SKILL, { requests: queries.map((query) => ({ query, limit: 1 })) });
    expect(res.status).toBe(200);
    expect(res.json.results).toHaveLength(5);
    const searched = sim.requests().filter((r) => r.route === 'search');
    expect(searched.map((r) => r.query.query).sort()).toEqual([...queries].sort());
    expect(sim.peakInFlight()).toBe(5);
    expect(res.json.results.map((r: { results: Array<{ name: string }> }) => r.results[0]?.name)).toEqual(
      queries,
    );
  });

  it(`serves every one of the ${SVG_XSS_CORPUS.length} XSS vectors sanitised or not at all`, async () => {
    expect(SVG_XSS_CORPUS.length).toBeGreaterThanOrEqual(30);
    for (const [i, vector] of SVG_XSS_CORPUS.entries()) {
      sim.setFaults([{ type: 'unsafe-svg', body: vector.body }]);
      // A distinct height per vector keeps each out of the route cache.
      const res = await get(h, `${SVG}/mdi/home.svg?height=${100 + i}`);
      if (res.statusCode === 200) {
        expect(holdsActiveContent(res.body), vector.name).toBe(false);
        expect(res.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), vector.name).toBe(true);
      } else {
        expect(res.statusCode, vector.name).toBe(502);
        expect(res.json()).toEqual({
          error: {
            code: 'UNSAFE_CONTENT',
            message: 'The icon could not be made safe, so it is not served.',
            details: { provider: 'icons' },
          },
        });
      }
    }
  });

  it('answers the 502 envelope, never 500, for input the sanitiser cannot read', async () => {
    const unreadable = [
      '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg><frameset>',
      `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(5000)}</svg>`,
      '<svg xmlns="http://www.w3.org/2000/svg">\u0001<rect/></svg>',
    ];
    for (const [i, body] of unreadable.entries()) {
      sim.setFaults([{ type: 'unsafe-svg', body }]);
      const res = await get(h, `${SVG}/mdi/home.svg?height=${300 + i}`);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        error: {
          code: 'UNSAFE_CONTENT',
          message: 'The icon could not be made safe, so it is not served.',
          details: { provider: 'icons' },
        },
      });
    }
  });

  it('serves an animated icon with its animations and strips an animation that sets a link', async () => {
    const spinner =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M12 4a8 8 0 0 1 8 8"><animateTransform attributeName="transform" dur="0.75s" repeatCount="indefinite" type="rotate" values="0 12 12;360 12 12"/></path></svg>';
    sim.setFaults([{ type: 'unsafe-svg', body: spinner }]);
    const ok = await get(h, `${SVG}/svg-spinners/ring.svg?height=24`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe(spinner);
    sim.setFaults([
      {
        type: 'unsafe-svg',
        body: spinner.replace('</path>', '</path><set attributeName="href" to="javascript:alert(1)"/>'),
      },
    ]);
    const stripped = await get(h, `${SVG}/svg-spinners/ring.svg?height=25`);
    expect(stripped.statusCode).toBe(200);
    expect(stripped.body).toBe(spinner);
  });

  it('maps upstream 5xx to 503, a missing icon to 404 and a malformed SVG to 502', async () => {
    sim.setFaults([{ type: 'status', status: 500, route: 'svg' }]);
    const down = await get(h, `${SVG}/mdi/home.svg?height=40`);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      error: {
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'The icon upstream answered HTTP 500.',
        details: { provider: 'icons', status: 500 },
      },
    });
    sim.setFaults([{ type: 'malformed', route: 'svg' }]);
    expect((await get(h, `${SVG}/mdi/home.svg?height=41`)).statusCode).toBe(502);
    sim.reset();
    expect((await get(h, `${SVG}/mdi/nothing-like-this.svg`)).statusCode).toBe(404);
    expect(sim.requests().map((r) => r.path)).toEqual(['/mdi/nothing-like-this.svg']);
  });

  it('searches through the upstream: /search then /{prefix}.json for sizes, anonymously', async () => {
    const res = await anonymous(h, { requests: [{ query: 'home', limit: 2 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().results[0].results.map((r: { id: string }) => r.id)).toEqual([
      'tabler:home',
      'mdi:home',
    ]);
    expect(sim.requests().map((r) => `${r.route} ${r.query['limit'] ?? r.query['icons'] ?? ''}`)).toEqual([
      'search 64',
      'json home',
      'json home',
    ]);
  });
});
