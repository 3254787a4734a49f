import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import { startIconSimulator, type IconSimulator } from '../../../../simulators/icons/server.js';
import { createIconClient } from './client.js';

const ctx = () => ({ signal: new AbortController().signal });

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; details: unknown }> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof SkillflowError)) throw new Error('expected a SkillflowError');
  return { code: err.code, message: err.message, details: err.details };
}

describe('icon upstream client over HTTP against the simulator', () => {
  let sim: IconSimulator;
  beforeAll(async () => {
    sim = await startIconSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => sim.reset());

  it('reads /search, /{prefix}.json with aliases resolved to their parent, and the raw SVG', async () => {
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000 });
    const found = await client.search({ query: 'home', limit: 3 }, ctx());
    expect(found.icons.slice(0, 2)).toEqual([
      { prefix: 'tabler', name: 'home' },
      { prefix: 'mdi', name: 'home' },
    ]);
    expect(found.collections['mdi']?.license).toEqual({
      title: 'Apache 2.0',
      spdx: 'Apache-2.0',
      url: 'https://github.com/Templarian/MaterialDesign/blob/master/LICENSE',
    });
    expect(sim.requests()[0]?.query).toEqual({ query: 'home', limit: '32' });
    // lucide "home" is an alias of "house".
    expect(await client.sizes('lucide', ['home', 'nope'], ctx())).toEqual(
      new Map([['home', { width: 24, height: 24 }]]),
    );
    expect(await client.svg('mdi', 'home', { height: 24 }, ctx())).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><path fill="currentColor" d="M10 20v-6h4v6h5v-8h3L12 3L2 12h3v8z"/></svg>',
    );
  });

  it('404: a missing icon is undefined; an unknown prefix gives no sizes', async () => {
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000 });
    expect(await client.svg('mdi', 'no-such-icon', { height: 24 }, ctx())).toBeUndefined();
    expect(await client.sizes('no-such-set', ['a'], ctx())).toEqual(new Map());
  });

  it('5xx is UPSTREAM_UNAVAILABLE with the status, never the body', async () => {
    sim.setFaults([{ type: 'status', status: 503 }]);
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000 });
    expect(await failure(client.search({ query: 'home', limit: 5 }, ctx()))).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The icon upstream answered HTTP 503.',
      details: { provider: 'icons', status: 503 },
    });
  });

  it('slow: the request timeout ends the call with UPSTREAM_UNAVAILABLE', async () => {
    sim.setFaults([{ type: 'slow', ms: 1_000 }]);
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 150 });
    const started = Date.now();
    expect(await failure(client.svg('mdi', 'home', { height: 24 }, ctx()))).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The icon upstream did not answer in time or could not be reached.',
      details: { provider: 'icons' },
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('malformed JSON is UPSTREAM_MALFORMED', async () => {
    sim.setFaults([{ type: 'malformed', route: 'search' }]);
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000 });
    expect(await failure(client.search({ query: 'home', limit: 5 }, ctx()))).toEqual({
      code: 'UPSTREAM_MALFORMED',
      message: 'The icon upstream sent an answer that does not parse.',
      details: { provider: 'icons' },
    });
  });

  it('unsafe SVG comes back raw from the client (the route sanitises it)', async () => {
    sim.setFaults([{ type: 'unsafe-svg', body: '<svg onload="alert(1)"/>' }]);
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000 });
    expect(await client.svg('mdi', 'home', { height: 24 }, ctx())).toBe('<svg onload="alert(1)"/>');
  });

  it('429 Retry-After: no further request is sent until it has passed', async () => {
    let now = 1_000_000;
    sim.setFaults([{ type: 'status', status: 429, retryAfter: '7' }]);
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000, now: () => now });
    const limited = {
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'The icon upstream asked us to slow down; retry in 7 s.',
      details: { provider: 'icons', retry_after_seconds: 7 },
    };
    expect(await failure(client.svg('mdi', 'home', { height: 24 }, ctx()))).toEqual(limited);
    sim.reset();
    now += 3_000;
    expect((await failure(client.svg('mdi', 'home', { height: 24 }, ctx()))).details).toEqual({
      provider: 'icons',
      retry_after_seconds: 4,
    });
    expect(sim.requests()).toEqual([]);
    now += 4_000;
    expect(await client.svg('mdi', 'home', { height: 24 }, ctx())).toMatch(/^<svg /u);
    expect(sim.requests()).toHaveLength(1);
  });
});
