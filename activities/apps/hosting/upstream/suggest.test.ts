import { describe, expect, it } from 'vitest';
import { staticSecrets } from '../../../../lib/secrets.js';
import { startShopSimulator } from '../../../../simulators/shop/server.js';
import { createShopClient, isProxyEligible, ShopError } from './index.js';
import { useShopSimulator } from './sim.test-helpers.js';
import { BROWSER_USER_AGENT } from './transport.js';
import type { ShopStreamEvent } from './wire.js';
import { POLICY_PROFILES } from '../../../policy.js';

const SEARCH_DEADLINES = POLICY_PROFILES['upstream-search'].deadlines;

const ctx = useShopSimulator();
const PAGE1 = { page: 1, currency: 'EUR', country: 'DE' };

async function collect(
  stream: AsyncIterable<ShopStreamEvent>,
): Promise<{ events: ShopStreamEvent[]; error?: unknown }> {
  const events: ShopStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const names = (events: ShopStreamEvent[]) => events.map((e) => e.event);
const fqdnOf = (e: ShopStreamEvent | undefined) =>
  e && e.data && 'fqdn' in e.data ? e.data.fqdn : undefined;

describe('suggestion request', () => {
  it('sends exactly the spec params with one extension, browser headers and Accept event-stream', async () => {
    await collect(ctx.shop.suggest('cedar', '.COM', PAGE1));
    const [rec] = ctx.sim.requests();
    expect(rec?.path).toBe('/api/v5/suggest/suggest');
    expect(rec?.query).toBe(
      'search=cedar&currency=EUR&country=DE&grid=A&lang=en&page=1&per_page=5&source=shop&lock_sentence=false&phases=golive&tlds=com',
    );
    expect(rec?.headers.accept).toBe('text/event-stream');
    expect(rec?.headers['user-agent']).toBe(BROWSER_USER_AGENT);
    expect(rec?.headers.referer).toBe(`${ctx.sim.url}/`);
    expect(rec?.headers).not.toHaveProperty('origin');
    expect(rec?.clientClosed).toBeUndefined();
  });

  it('never sends a comma list of extensions, nor a blank keyword: rejected before any request', async () => {
    for (const [keyword, tld] of [
      ['cedar', 'com,net'],
      ['cedar', ''],
      ['  ', 'com'],
    ]) {
      const { error } = await collect(ctx.shop.suggest(keyword!, tld, PAGE1));
      expect(error).toBeInstanceOf(ShopError);
      expect((error as ShopError).kind).toBe('invalid');
      expect(isProxyEligible(error)).toBe(false);
    }
    expect(ctx.sim.requests()).toEqual([]);
  });
});

describe('suggestion stream', () => {
  it('yields events in arrival order, drops bundle events, keeps tick and ends at done', async () => {
    const { events, error } = await collect(ctx.shop.suggest('cedar', 'com', PAGE1));
    expect(error).toBeUndefined();
    // cedar.com is taken (das only); odd candidates send billing before das.
    expect(names(events)).toEqual([
      'suggest_meta',
      'pagination',
      'das',
      'suggestions',
      'billing',
      'das',
      'das',
      'billing',
      'billing',
      'das',
      'das',
      'billing',
      'tick',
      'suggest_meta',
      'done',
    ]);
    expect(names(events)).not.toContain('bundle_available');
    expect(names(events)).not.toContain('bundle_pricing');
    expect(names(events).slice(0, 4)).toEqual(['suggest_meta', 'pagination', 'das', 'suggestions']);
    expect(fqdnOf(events[2])).toBe('cedar.com');
    expect(names(events).slice(-3)).toEqual(['tick', 'suggest_meta', 'done']);
    const suggestions = events.find((e) => e.event === 'suggestions');
    expect(suggestions?.data).toMatchObject([
      { fqdn: 'cedar.com', domain: 'cedar', tld: 'com', restriction: null, categories: ['gTLD'] },
      { fqdn: 'getcedar.com' },
      { fqdn: 'cedarhq.online', tld: 'online' },
      { fqdn: 'mycedar.nyc', restriction: expect.stringContaining('<strong>New York City</strong>') },
      { fqdn: 'cedarapp.com' },
    ]);
    expect(events.find((e) => e.event === 'pagination')?.data).toMatchObject({
      'X-Total-Count': 911,
      page: 1,
      per_page: 5,
    });
  });

  it('IDNs: Unicode in suggestions and billing, punycode in das', async () => {
    const { events } = await collect(ctx.shop.suggest('bücher', 'ai', PAGE1));
    const suggestions = events.find((e) => e.event === 'suggestions');
    expect(suggestions?.event === 'suggestions' && suggestions.data[0]?.fqdn).toBe('bücher.ai');
    expect(events.filter((e) => e.event === 'das').map(fqdnOf)).toContain('xn--bcher-kva.ai');
    expect(events.filter((e) => e.event === 'billing').map(fqdnOf)).toContain('bücher.ai');
  });

  it('page 2 follows pagination.next', async () => {
    const first = await collect(ctx.shop.suggest('cedar', 'com', PAGE1));
    const next = first.events.find((e) => e.event === 'pagination');
    const nextUrl = new URL(next?.event === 'pagination' ? (next.data.next ?? '') : '');
    expect(nextUrl.searchParams.get('page')).toBe('2');
    const second = await collect(
      ctx.shop.suggest('cedar', 'com', { ...PAGE1, page: Number(nextUrl.searchParams.get('page')) }),
    );
    const s = second.events.find((e) => e.event === 'suggestions');
    expect(s?.event === 'suggestions' && s.data.map((c) => c.fqdn)).toEqual([
      'thecedar.com',
      'cedarhub.ai',
      'cedaronline.com',
      'trycedar.com',
      'cedarlab.com',
    ]);
    expect(ctx.sim.requests()[1]?.params.page).toEqual(['2']);
  });

  it('out-of-order: every das/billing before the suggestions, delivered as they arrived', async () => {
    const { events, error } = await collect(ctx.shop.suggest('fault-order', 'com', PAGE1));
    expect(error).toBeUndefined();
    const firstSuggestions = names(events).indexOf('suggestions');
    expect(
      names(events)
        .slice(0, firstSuggestions)
        .filter((n) => n === 'das'),
    ).toHaveLength(5);
    expect(names(events).at(-1)).toBe('done');
  });

  it('per-result failures: das_failed and billing_failed arrive as events and the stream completes', async () => {
    const das = await collect(ctx.shop.suggest('fault-das', 'com', PAGE1));
    expect(das.events.find((e) => e.event === 'das_failed')?.data).toEqual({
      fqdn: 'fault-das.com',
      availability: 'error',
      premium: 0,
      reserved: 0,
    });
    const billing = await collect(ctx.shop.suggest('fault-billing', 'com', PAGE1));
    expect(billing.events.find((e) => e.event === 'billing_failed')?.data).toEqual({
      fqdn: 'fault-billing.com',
      prices: {},
    });
    expect(names(billing.events).at(-1)).toBe('done');
  });
});

describe('suggestion failures', () => {
  it('a stream without done is incomplete, after delivering every event it did send', async () => {
    const { events, error } = await collect(ctx.shop.suggest('fault-nodone', 'com', PAGE1));
    expect((error as ShopError).kind).toBe('incomplete');
    expect((error as ShopError).code).toBe('UPSTREAM_MALFORMED');
    expect(isProxyEligible(error)).toBe(true);
    expect(names(events)).toContain('suggestions');
    expect(names(events)).not.toContain('done');
  });

  it('a stalled stream hits the idle timeout', async () => {
    const started = Date.now();
    const { events, error } = await collect(
      ctx.shop.suggest('fault-stall', 'com', PAGE1, { idleTimeoutMs: 300 }),
    );
    expect(events).toEqual([]);
    expect((error as ShopError).kind).toBe('timeout');
    expect(isProxyEligible(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('event data failing its schema is malformed; earlier events are still delivered', async () => {
    const { events, error } = await collect(ctx.shop.suggest('fault-malformed', 'com', PAGE1));
    expect((error as ShopError).kind).toBe('malformed');
    expect(names(events)).toEqual(['suggest_meta', 'pagination']);
  });

  it('HTTP 429 before the stream carries Retry-After and is not proxy-eligible', async () => {
    const { error } = await collect(ctx.shop.suggest('fault-429', 'com', PAGE1));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 7000, httpStatus: 429 });
    expect(isProxyEligible(error)).toBe(false);
  });

  it('a non-SSE 200 answer is malformed', async () => {
    ctx.sim.setFaults([{ op: 'suggest', type: 'status', status: 200 }]);
    const { error } = await collect(ctx.shop.suggest('cedar', 'com', PAGE1));
    expect((error as ShopError).kind).toBe('malformed');
  });

  it('breaking out of the loop closes the connection', async () => {
    const slow = await startShopSimulator({ eventDelayMs: 200 });
    const client = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: slow.url,
      secrets: staticSecrets({}),
    });
    try {
      for await (const e of client.suggest('cedar', 'com', PAGE1)) if (e.event === 'pagination') break;
      await expect.poll(() => slow.requests()[0]?.clientClosed).toBe(true);
    } finally {
      await client.close();
      await slow.close();
    }
  });

  it('an abort mid-stream rejects promptly with the reason and closes the connection', async () => {
    const slow = await startShopSimulator({ eventDelayMs: 200 });
    const client = createShopClient({
      idleTimeoutMs: SEARCH_DEADLINES.idleTimeoutMs,
      shopUrl: slow.url,
      secrets: staticSecrets({}),
    });
    try {
      const ctrl = new AbortController();
      const reason = new Error('group deadline');
      const seen: string[] = [];
      const started = Date.now();
      const run = (async () => {
        for await (const e of client.suggest('cedar', 'com', PAGE1, { signal: ctrl.signal })) {
          seen.push(e.event);
          if (seen.length === 2) ctrl.abort(reason);
        }
      })();
      await expect(run).rejects.toBe(reason);
      expect(seen).toEqual(['suggest_meta', 'pagination']);
      expect(Date.now() - started).toBeLessThan(1500);
      await expect.poll(() => slow.requests()[0]?.clientClosed).toBe(true);
    } finally {
      await client.close();
      await slow.close();
    }
  });
});
