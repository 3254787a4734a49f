/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field. */
/**
 * The encyclopedia over real HTTP against the MediaWiki simulator on loopback: the routes, the
 * skills, the protections (language allow-list, limits, outbound budget, sanitised prose), and a workflow that searches, takes the
 * first title and sends a chat message with its summary and a sources block.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { createClient } from '../../sdk/index.js';
import { PNG_1X1 } from '../../simulators/encyclopedia/fixtures.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../simulators/encyclopedia/server.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

const UA = 'skillflow-test/1 (ops@skillflow.test)';

describe('encyclopedia over HTTP', () => {
  let sim: EncyclopediaSimulator;
  let h: EngineHarness;
  let hook: Server;
  let hookUrl: string;
  const received: any[] = [];

  beforeAll(async () => {
    sim = await startEncyclopediaSimulator();
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    h = await startEngine({
      apps: APPS,
      config: {
        ENCYCLOPEDIA_URL: sim.urlTemplate,
        ENCYCLOPEDIA_IMAGE_HOSTS: [sim.imageHost],
        ENCYCLOPEDIA_USER_AGENT: UA,
        WEBHOOK_ALLOW_LOOPBACK: true,
        DECISION_URL: undefined,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await sim?.close();
    await new Promise((r) => hook?.close(r));
  });
  beforeEach(() => sim.reset());

  const get = (url: string, token?: string) => h.request('GET', url, undefined, undefined, token);
  const upstream = () => sim.requests().map((r) => `${r.path}${r.query.q ? `?q=${r.query.q}` : ''}`);
  const credits = async () =>
    (
      await h.api.deps.store.db
        .selectFrom('usage_records')
        .select(['skill', 'credits'])
        .where('task_id', 'like', 'enc_%')
        .orderBy('created_at', 'asc')
        .execute()
    ).map((r) => `${r.skill}:${Number(r.credits)}`);

  it('search: a run-together name puts the best match first; one batched page-props call; contact User-Agent sent', async () => {
    const res = await get('/v1/encyclopedia/search?query=alanturing&language=en&limit=5');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      language: 'en',
      cached: false,
      results: [
        {
          title: 'Alan Turing',
          description: 'English computer scientist (1912–1954)',
          url: `${sim.url}/en/wiki/Alan_Turing`,
          thumbnail: {
            url: `/v1/encyclopedia/thumbnail?src=${encodeURIComponent(`http://${sim.imageHost}/media/alan-turing.png`)}`,
            width: 60,
            height: 75,
          },
          disambiguation: false,
          reference: '@encyclopedia:en:Alan_Turing',
        },
        {
          title: 'Alan Turing Institute',
          description: 'Research institute in London',
          url: `${sim.url}/en/wiki/Alan_Turing_Institute`,
          thumbnail: null,
          disambiguation: false,
          reference: '@encyclopedia:en:Alan_Turing_Institute',
        },
      ],
    });
    // The upstream ranked the institute first; exactly two requests, both with the contact UA.
    expect(upstream()).toEqual(['/en/w/rest.php/v1/search/title?q=alanturing', '/en/w/api.php']);
    expect(sim.requests()[1]!.query.titles).toBe('Alan Turing Institute|Alan Turing');
    expect(sim.requests().map((r) => r.userAgent)).toEqual([UA, UA]);
  });

  it('runs the items of one call at once, at most ENCYCLOPEDIA_MAX_CONCURRENCY (4) upstream requests in flight', async () => {
    sim.setFault({ type: 'slow', ms: 300 });
    const titles = [
      'Ada (programming language)',
      'Ada Yonath',
      'Mercury (mythology)',
      'Paris Hilton',
      'Marie Curie',
    ];
    const res = await h.request('POST', '/v1/apps/encyclopedia/skills/get_summary', {
      requests: titles.map((title) => ({ title })),
    });
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: { title: string }) => r.title)).toEqual(titles);
    expect(sim.peakInFlight()).toBe(4);
  });

  it('search: an ambiguous name is marked as a disambiguation page, a partial name ranks prefix matches next', async () => {
    const res = await get('/v1/encyclopedia/search?query=Mercury&limit=4');
    expect(res.json.results.map((r: any) => [r.title, r.disambiguation])).toEqual([
      ['Mercury', true],
      ['Mercury (planet)', false],
      ['Mercury (element)', false],
      ['Freddie Mercury', false],
    ]);
    const partial = await get('/v1/encyclopedia/search?query=Ada%20Lov&language=de-DE&limit=3');
    expect(partial.json).toMatchObject({ language: 'de', results: [{ title: 'Ada Lovelace' }] });
  });

  it('summary: selected public fields only; redirects and normalisation followed; explicit title resolves', async () => {
    const res = await get('/v1/encyclopedia/summary?title=countess_of_Lovelace&language=en');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      title: 'Ada Lovelace',
      description: 'English mathematician (1815–1852)',
      url: `${sim.url}/en/wiki/Ada_Lovelace`,
      thumbnail: {
        url: `/v1/encyclopedia/thumbnail?src=${encodeURIComponent(`http://${sim.imageHost}/media/ada-lovelace.png`)}`,
        width: 320,
        height: 400,
      },
      disambiguation: false,
      reference: '@encyclopedia:en:Ada_Lovelace',
      language: 'en',
      type: 'standard',
      extract:
        "Augusta Ada King, Countess of Lovelace, was an English mathematician and writer chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.",
      cached: false,
    });
    expect(JSON.stringify(res.json)).not.toMatch(/wikibase|Q10|originalimage|extract_html|<span|<p>/);
    expect(upstream()).toEqual([
      '/en/api/rest_v1/page/summary/Countess_of_Lovelace',
      '/en/api/rest_v1/page/summary/Ada_Lovelace',
    ]);
    const ambiguous = await get('/v1/encyclopedia/summary?title=Mercury');
    expect([ambiguous.json.type, ambiguous.json.disambiguation]).toEqual(['disambiguation', true]);
    const explicit = await get('/v1/encyclopedia/summary?title=Mercury%20(planet)');
    expect([explicit.json.title, explicit.json.disambiguation]).toEqual(['Mercury (planet)', false]);
  });

  it('a cache hit answers without the upstream and costs no credit; usage records show which', async () => {
    const before = (await credits()).length;
    const first = await get('/v1/encyclopedia/summary?title=Marie_Curie&language=fr-FR');
    expect(first.status).toBe(404);
    const a = await get('/v1/encyclopedia/summary?title=Berlin&language=de');
    const b = await get('/v1/encyclopedia/summary?title=berlin&language=DE');
    expect([a.json.cached, b.json.cached]).toEqual([false, true]);
    expect({ ...b.json, cached: false }).toEqual(a.json);
    expect(upstream()).toEqual([
      '/fr/api/rest_v1/page/summary/Marie_Curie',
      '/de/api/rest_v1/page/summary/Berlin',
    ]);
    expect((await credits()).slice(before)).toEqual([
      'encyclopedia.get_summary:1',
      'encyclopedia.get_summary:0',
    ]);
  });

  it('the generic skill route bills only the items the cache did not answer', async () => {
    const call = (requests: { title: string; language: string }[]) =>
      h.request('POST', '/v1/apps/encyclopedia/skills/get_summary', { requests });
    const billed = async (callId: string) => {
      const { records } = (await h.request('GET', '/v1/usage?limit=50')).json;
      return records
        .filter((r: any) => r.task_id === callId)
        .map((r: any) => [r.skill, r.request_items, r.credits]);
    };
    const both = [
      { title: 'Zürich', language: 'de' },
      { title: 'Paris', language: 'fr' },
    ];
    const first = await call(both);
    expect(first.status).toBe(200);
    expect(first.json.results.map((r: any) => [r.title, r.cached])).toEqual([
      ['Zürich', false],
      ['Paris', false],
    ]);
    expect(await billed(first.json.call_id)).toEqual([['encyclopedia.get_summary', 2, 2]]);
    const second = await call(both);
    expect(second.json.results.map((r: any) => r.cached)).toEqual([true, true]);
    expect(await billed(second.json.call_id)).toEqual([['encyclopedia.get_summary', 2, 0]]);
    const mixed = await call([both[0]!, { title: 'Tour Eiffel', language: 'fr' }]);
    expect(mixed.json.results.map((r: any) => r.cached)).toEqual([true, false]);
    expect(await billed(mixed.json.call_id)).toEqual([['encyclopedia.get_summary', 2, 1]]);
    expect(upstream()).toEqual([
      '/de/api/rest_v1/page/summary/Z%C3%BCrich',
      '/fr/api/rest_v1/page/summary/Paris',
      '/fr/api/rest_v1/page/summary/Tour_Eiffel',
    ]);
  });

  it('errors: missing page 404, unsupported language 400, bad limit 400, wrong scope 403', async () => {
    expect(await get('/v1/encyclopedia/summary?title=No_such_article_here')).toMatchObject({
      status: 404,
      json: {
        error: {
          code: 'NOT_FOUND',
          message: 'No article with this title exists in this language.',
          details: { provider: 'encyclopedia' },
        },
      },
    });
    const lang = await get('/v1/encyclopedia/search?query=Paris&language=xx-YY');
    expect(lang.status).toBe(400);
    expect(lang.json).toEqual({
      error: {
        code: 'UNSUPPORTED_LANGUAGE',
        message: 'language is not a supported encyclopedia language; see details.supported.',
        details: {
          path: 'language',
          supported: ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'sv', 'ja'],
        },
      },
    });
    const limit = await get('/v1/encyclopedia/search?query=Paris&limit=11');
    expect(limit.status).toBe(400);
    expect(limit.json.error.code).toBe('INVALID_PARAMETER');
    expect(limit.json.error.details.issues[0].path).toBe('limit');
    const { token } = await createKey(h.api.deps.store, {
      name: 'hosting only',
      scopes: ['app:hosting'],
      ownerId: 'owner_a',
    });
    const scoped = await get('/v1/encyclopedia/search?query=Paris', token);
    expect(scoped.status).toBe(403);
    expect(scoped.json).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'The API key is not scoped to encyclopedia.search_articles.',
        details: { required_scope: ['app:encyclopedia', 'skill:encyclopedia.search_articles'] },
      },
    });
    expect(sim.requests()).toHaveLength(1);
  });

  it('upstream faults: 5xx, malformed, unsafe prose (CONTENT_BLOCKED), and 429 honoured with Retry-After', async () => {
    sim.setFault({ type: 'status', status: 503, times: 1 });
    expect((await get('/v1/encyclopedia/summary?title=Moon')).json).toEqual({
      error: {
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'The encyclopedia is unavailable; try again later.',
        details: { provider: 'encyclopedia', reason: 'server_error' },
      },
    });
    sim.setFault({ type: 'malformed', times: 1 });
    const bad = await get('/v1/encyclopedia/search?query=Moon');
    expect([bad.status, bad.json.error.code]).toEqual([503, 'UPSTREAM_MALFORMED']);
    sim.setFault({ type: 'unsafe_prose', times: 1 });
    const unsafe = await get('/v1/encyclopedia/summary?title=Jupiter');
    expect(unsafe.status).toBe(502);
    expect(unsafe.json).toEqual({
      error: {
        code: 'CONTENT_BLOCKED',
        message: 'The upstream content could not be made safe plain text; it was not served.',
        details: { provider: 'encyclopedia' },
      },
    });
    sim.setFault({ type: 'rate_limited', retryAfterSeconds: 1, times: 1 });
    const limited = await h.api.app.inject({
      method: 'GET',
      url: '/v1/encyclopedia/summary?title=Earth',
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.json().error).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      details: { retry_after_seconds: 1 },
    });
    const sent = sim.requests().length;
    // Honoured: during the Retry-After nothing is sent upstream.
    const during = await get('/v1/encyclopedia/summary?title=Sun');
    expect([during.status, during.json.error.code, sim.requests().length]).toEqual([
      429,
      'UPSTREAM_RATE_LIMITED',
      sent,
    ]);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get('/v1/encyclopedia/summary?title=Earth')).status).toBe(200);
  });

  it('image proxy: allowed host bytes; other hosts, non-images, SVG, oversize and cross-host redirects refused', async () => {
    const summary = await get('/v1/encyclopedia/summary?title=Paris');
    const ok = await h.api.app.inject({ method: 'GET', url: summary.json.thumbnail.url });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.rawPayload.equals(PNG_1X1)).toBe(true);
    const thumb = async (src: string) => {
      const res = await h.api.app.inject({
        method: 'GET',
        url: `/v1/encyclopedia/thumbnail?src=${encodeURIComponent(src)}`,
      });
      const type = String(res.headers['content-type']);
      return [res.statusCode, type.startsWith('image/') ? type : res.json().error.details.reason];
    };
    const media = `http://${sim.imageHost}/media`;
    expect(await thumb(`${media}/hop-same.png`)).toEqual([200, 'image/png']);
    expect(await thumb('http://upload.example.org/a.png')).toEqual([403, 'host']);
    expect(await thumb(`http://localhost:${sim.imageHost.split(':')[1]}/media/paris.png`)).toEqual([
      403,
      'host',
    ]);
    expect(await thumb(`${media}/not-an-image.png`)).toEqual([403, 'content_type']);
    expect(await thumb(`${media}/drawing.svg`)).toEqual([403, 'content_type']);
    expect(await thumb(`${media}/huge.png`)).toEqual([403, 'size']);
    expect(await thumb(`${media}/hop-away.png`)).toEqual([403, 'redirect']);
    const refused = await h.api.app.inject({
      method: 'GET',
      url: '/v1/encyclopedia/thumbnail?src=file%3A%2F%2F%2Fetc%2Fpasswd',
    });
    expect(refused.json()).toEqual({
      error: {
        code: 'IMAGE_REFUSED',
        message: 'The image is not served: host not allowed, not an image, too large or redirected.',
        details: { reason: 'host' },
      },
    });
    expect(sim.requests().filter((r) => r.path.includes('upload') || r.path.includes('passwd'))).toEqual([]);
  });

  it('the skills: search_articles and get_summary as quick skill calls', async () => {
    const res = await h.request('POST', '/v1/apps/encyclopedia/skills/search_articles', {
      requests: [{ query: 'python', language: 'en', limit: 3 }],
    });
    expect(res.status).toBe(200);
    expect(res.json.results[0].results.map((r: any) => [r.title, r.disambiguation])).toEqual([
      ['Python', true],
      ['Python (programming language)', false],
      ['Monty Python', false],
    ]);
    const bad = await h.request('POST', '/v1/apps/encyclopedia/skills/get_summary', {
      requests: [{ title: 'Paris', language: 'klingon' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: 'UNSUPPORTED_LANGUAGE',
      details: { path: 'requests[0].language' },
    });
  });

  it('the routes and the skills share the app services: a summary the route fetched answers the skill from the cache', async () => {
    const route = await get('/v1/encyclopedia/summary?title=Lovelace_(film)&language=en');
    expect([route.status, route.json.cached]).toEqual([200, false]);
    const skill = await h.request('POST', '/v1/apps/encyclopedia/skills/get_summary', {
      requests: [{ title: 'Lovelace (film)', language: 'en' }],
    });
    expect(skill.status).toBe(200);
    expect(skill.json.results.map((r: any) => [r.title, r.cached])).toEqual([['Lovelace (film)', true]]);
    expect(upstream()).toEqual(['/en/api/rest_v1/page/summary/Lovelace_(film)']);
  });

  it('the JavaScript SDK calls the routes over real HTTP', async () => {
    const address = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    const client = createClient({ baseUrl: address, token: h.token });
    const found = await client.encyclopedia.search({ query: 'tour eiffel', language: 'fr', limit: 2 });
    expect(found.results.map((r) => [r.title, r.reference])).toEqual([
      ['Tour Eiffel', '@encyclopedia:fr:Tour_Eiffel'],
    ]);
    const summary = await client.encyclopedia.summary({ title: 'Planète Mercure', language: 'fr' });
    expect([summary.title, summary.type, summary.language]).toEqual(['Mercure (planète)', 'standard', 'fr']);
    await expect(client.encyclopedia.summary({ title: 'Paris', language: 'tlh' })).rejects.toMatchObject({
      code: 'UNSUPPORTED_LANGUAGE',
      status: 400,
    });
  });

  it('a workflow searches, takes the first title, and sends a message with its summary and sources', async () => {
    const chat = await h.request('POST', '/v1/chats/webhook', { chat_id: 'chat_enc', url: hookUrl });
    expect(chat.status).toBe(200);
    const source = `title: Article digest
start_when:
  manual:
    inputs:
      topic: { type: string, required: true }
steps:
  - id: search
    use_app_skill: encyclopedia.search_articles
    input:
      requests:
        - query: "{{inputs.topic}}"
          language: en
          limit: 3
  - id: summary
    use_app_skill: encyclopedia.get_summary
    input:
      requests:
        - title: "{{steps.search.results.0.title}}"
          language: en
  - id: tell
    send_chat_message:
      chat_id: chat_enc
      title: "{{steps.summary.results.0.title}}"
      message: "{{steps.summary.results.0.extract}} Read more: {{steps.search.results.0.reference}}"
`;
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, {
      inputs: { topic: 'adalovelace' },
    });
    const task = await h.waitForTask(
      run.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(task.status).toBe('completed');
    const extract =
      "Augusta Ada King, Countess of Lovelace, was an English mathematician and writer chiefly known for her work on Charles Babbage's proposed mechanical general-purpose computer, the Analytical Engine.";
    const message = `${extract} Read more:\n\nSources:\n[1] Ada Lovelace (en) ${sim.url}/en/wiki/Ada_Lovelace\n    ${extract}`;
    expect((await h.chatMessage(run.json.task_id))?.content).toEqual({ title: 'Ada Lovelace', message });
    expect(received.at(-1)).toMatchObject({ chat_id: 'chat_enc', title: 'Ada Lovelace', message });
    // The skill's activity and the chat delivery's reference share the app's one service: the
    // summary was asked of the upstream once, the reference answered from its cache.
    expect(upstream().filter((p) => p.includes('/page/summary/'))).toEqual([
      '/en/api/rest_v1/page/summary/Ada_Lovelace',
    ]);
  });

  it('compile-time check: more than three references and malformed ones are positioned diagnostics', async () => {
    const source = `title: Too many
start_when:
  manual: {}
steps:
  - id: tell
    send_chat_message:
      title: Refs
      message: "@encyclopedia:en:Paris @encyclopedia:xx:Paris @encyclopedia:en:Moon @encyclopedia:en:Earth"
`;
    const res = await h.request('POST', '/v1/workflows/validate', source, 'application/yaml');
    expect(res.json.diagnostics).toEqual([
      {
        code: 'INVALID_ENCYCLOPEDIA_REFERENCE',
        message: 'The @encyclopedia reference names a language that is not supported.',
        path: 'steps[0].send_chat_message.message',
        line: 8,
        column: 40,
      },
      {
        code: 'TOO_MANY_REFERENCES',
        message: 'A message may hold at most 3 @encyclopedia references; this is number 4.',
        path: 'steps[0].send_chat_message.message',
        line: 8,
        column: 85,
      },
    ]);
    expect(sim.requests()).toEqual([]);
  });

  describe('limits on a second API (same simulator)', () => {
    let api: TestApi;
    let token: string;
    beforeAll(async () => {
      api = await buildTestApi(h.env, {
        taskQueue: 'enc-limits',
        apps: APPS,
        config: {
          ENCYCLOPEDIA_URL: sim.urlTemplate,
          ENCYCLOPEDIA_IMAGE_HOSTS: [sim.imageHost],
          ENCYCLOPEDIA_USER_AGENT: UA,
          ENCYCLOPEDIA_OUTBOUND_PER_MINUTE: 3,
          ENCYCLOPEDIA_OWNER_PER_MINUTE: 5,
          ENCYCLOPEDIA_TIMEOUT_MS: 500,
        },
      });
      token = (await createKey(api.deps.store, { name: 'l', scopes: ['*'], ownerId: 'owner_l' })).token;
    });
    afterAll(async () => {
      await api?.close();
    });
    const call = (url: string) =>
      api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

    it('slow upstream: DEADLINE_EXCEEDED; shared budget: BUDGET_EXHAUSTED with Retry-After; per-owner limit: RATE_LIMITED', async () => {
      sim.setFault({ type: 'slow', ms: 1500, times: 1 });
      const slow = await call('/v1/encyclopedia/summary?title=Moon');
      expect([slow.statusCode, slow.json().error.code]).toEqual([503, 'DEADLINE_EXCEEDED']);
      expect((await call('/v1/encyclopedia/summary?title=Moon')).statusCode).toBe(200);
      expect((await call('/v1/encyclopedia/summary?title=Sun')).statusCode).toBe(404);
      const over = await call('/v1/encyclopedia/summary?title=Earth');
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.json()).toEqual({
        error: {
          code: 'BUDGET_EXHAUSTED',
          message: expect.stringMatching(
            /^The encyclopedia's outbound budget of 3 requests per minute is used up; retry in \d+ s\.$/,
          ),
          details: {
            provider: 'encyclopedia',
            limit: 3,
            window_seconds: 60,
            retry_after_seconds: Number(over.headers['retry-after']),
          },
        },
      });
      expect(sim.requests()).toHaveLength(3);
      // A cached answer needs no budget; the per-owner limit still counts it.
      expect((await call('/v1/encyclopedia/summary?title=Moon')).json().cached).toBe(true);
      const keyed = await call('/v1/encyclopedia/summary?title=Moon');
      expect([keyed.statusCode, keyed.json().error.code, keyed.json().error.details.scope]).toEqual([
        429,
        'RATE_LIMITED',
        'encyclopedia per owner',
      ]);
      // The limit is the owner's, not the key's: another key of the same owner is refused too,
      // another owner's key is not.
      const sameOwner = (await createKey(api.deps.store, { name: 'l2', scopes: ['*'], ownerId: 'owner_l' }))
        .token;
      const otherOwner = (await createKey(api.deps.store, { name: 'm', scopes: ['*'], ownerId: 'owner_m' }))
        .token;
      const as = (t: string) =>
        api.app.inject({
          method: 'GET',
          url: '/v1/encyclopedia/summary?title=Moon',
          headers: { authorization: `Bearer ${t}` },
        });
      const second = await as(sameOwner);
      expect([second.statusCode, second.json().error.details.scope]).toEqual([429, 'encyclopedia per owner']);
      expect((await as(otherOwner)).statusCode).toBe(200);
    });
  });
});
