/**
 * The simulator itself, spoken to with plain undici requests: the header checks and quirks of
 * the real shop, and the admin API. (The shop client's tests cover the happy paths.)
 */
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startShopSimulator, type ShopSimulator } from './server.js';

let sim: ShopSimulator;
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

beforeAll(async () => {
  sim = await startShopSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function get(pathAndQuery: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return request(`${sim.url}${pathAndQuery}`, {
    headers: { 'user-agent': UA, referer: `${sim.url}/`, ...headers },
    signal,
  });
}

const LOOKUP = '/api/v5/suggest/lookup?search=example.com&currency=EUR&country=DE&grid=A';
const SUGGEST =
  '/api/v5/suggest/suggest?search=cedar&currency=EUR&country=DE&grid=A&lang=en&page=1&per_page=5&source=shop&lock_sentence=false&phases=golive';

describe('header checks like the real shop', () => {
  it('a browser Origin gets 400 (CSRF)', async () => {
    const res = await get(LOOKUP, { origin: sim.url });
    expect(res.statusCode).toBe(400);
    expect(await res.body.json()).toEqual({ detail: 'CSRF Failed: Origin checking failed.' });
  });

  it('a non-browser User-Agent or a missing shop Referer gets 403', async () => {
    const plain = await request(`${sim.url}${LOOKUP}`, { headers: { referer: `${sim.url}/` } });
    expect(plain.statusCode).toBe(403);
    await plain.body.dump();
    const noReferer = await request(`${sim.url}${LOOKUP}`, { headers: { 'user-agent': UA } });
    expect(noReferer.statusCode).toBe(403);
    await noReferer.body.dump();
    const foreign = await get(LOOKUP, { referer: 'https://elsewhere.example/' });
    expect(foreign.statusCode).toBe(403);
    await foreign.body.dump();
    expect(sim.requests().map((r) => r.status)).toEqual([403, 403, 403]);
  });

  it('a name with a space is HTTP 200 unavailable', async () => {
    const res = await get('/api/v5/suggest/lookup?search=my%20shop.com&currency=EUR&country=DE&grid=A');
    expect(await res.body.json()).toEqual({
      fqdn: 'my shop.com',
      prices: {},
      availability: 'unavailable',
      premium: 0,
    });
  });
});

describe('suggestion quirks', () => {
  it('a comma list of tlds opens the stream, names the filter, then stalls', async () => {
    const ctrl = new AbortController();
    const res = await get(`${SUGGEST}&tlds=com,net`, {}, ctrl.signal);
    expect(res.headers['content-type']).toBe('text/event-stream');
    let text = '';
    res.body.setEncoding('utf8');
    const reading = (async () => {
      for await (const chunk of res.body) text += String(chunk);
    })().catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    ctrl.abort();
    await reading;
    expect(text).toBe('event: suggest_meta\ndata: {"tld_filter":["com","net"],"search_uuid":"stalled"}\n\n');
  });

  it('repeated tlds: only the first is used', async () => {
    const res = await get(`${SUGGEST}&tlds=net&tlds=org`);
    const text = await res.body.text();
    expect(text).toContain('"tld_filter":["net"]');
    expect(text).toContain('"fqdn":"cedar.net"');
    expect(text).not.toContain('.org"');
    expect(sim.requests()[0]?.params.tlds).toEqual(['net', 'org']);
  });

  it('sends bundle events, which the client must drop', async () => {
    const text = await (await get(`${SUGGEST}&tlds=com`)).body.text();
    expect(text).toContain('event: bundle_available\n');
    expect(text).toContain('event: bundle_pricing\n');
    expect(text.endsWith('event: done\ndata: null\n\n')).toBe(true);
  });
});

describe('admin API', () => {
  it('POST /__sim/faults sets rules that expire after `times`; /__sim/requests lists the requests', async () => {
    const set = await request(`${sim.url}/__sim/faults`, {
      method: 'POST',
      body: JSON.stringify({
        rules: [{ op: 'lookup', type: 'status', status: 429, retryAfter: '3', times: 1 }],
      }),
    });
    expect(await set.body.json()).toEqual({
      rules: [{ op: 'lookup', type: 'status', status: 429, retryAfter: '3', times: 1 }],
    });
    const limited = await get(LOOKUP);
    expect([limited.statusCode, limited.headers['retry-after']]).toEqual([429, '3']);
    await limited.body.dump();
    const ok = await get(LOOKUP);
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    const log = (await (await request(`${sim.url}/__sim/requests`)).body.json()) as {
      status: number;
      params: Record<string, string[]>;
    }[];
    expect(log.map((r) => r.status)).toEqual([429, 200]);
    expect(log[0]?.params).toEqual({
      search: ['example.com'],
      currency: ['EUR'],
      country: ['DE'],
      grid: ['A'],
    });
  });

  it('latency rules delay the answer; POST /__sim/reset clears rules and the log', async () => {
    sim.setFaults([{ op: 'lookup', type: 'latency', ms: 400 }]);
    const started = Date.now();
    await (await get(LOOKUP)).body.dump();
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    await (await request(`${sim.url}/__sim/reset`, { method: 'POST' })).body.dump();
    expect(sim.requests()).toEqual([]);
    const fast = Date.now();
    await (await get(LOOKUP)).body.dump();
    expect(Date.now() - fast).toBeLessThan(300);
  });
});
