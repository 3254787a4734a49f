/**
 * The JS SDK's guest calls over real HTTP on loopback: a call asks the quote first and hands the
 * price and the free allowance to `confirm` before anything runs; a declined quote runs and
 * charges nothing; a quote that cannot run (allowance used up) throws without calling.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, GuestQuoteError, type GuestQuote, type SkillflowClient } from '../../sdk/index.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('JS SDK guest calls', () => {
  let h: EngineHarness;
  let client: SkillflowClient;
  const calls: string[] = [];

  beforeAll(async () => {
    h = await startEngine({
      worker: false,
      config: { ANONYMOUS_IDENTITY_DAILY_CREDITS: 4, ANONYMOUS_POOL_DAILY_CREDITS: 100_000 },
    });
    await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (h.api.app.server.address() as AddressInfo).port;
    // Records what the SDK sends, as it leaves the client.
    const dispatcher = new Agent().compose((dispatch) => (opts, handler) => {
      if (opts.path.startsWith('/v1/anonymous/apps/')) calls.push(`${opts.method} ${opts.path}`);
      return dispatch(opts, handler);
    });
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, dispatcher });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('quotes first, shows the price and allowance to confirm, then calls', async () => {
    const anonymousId = `guest_${randomUUID()}`;
    calls.length = 0;
    const seen: GuestQuote[] = [];
    const { quote, result } = await client.anonymous.call(
      'echo',
      'shout',
      { requests: [{ text: 'hi' }] },
      {
        anonymousId,
        confirm: (q) => {
          seen.push(q);
          // Nothing ran yet: only the quote was asked.
          expect(calls).toEqual(['POST /v1/anonymous/apps/echo/skills/shout/quote']);
          return true;
        },
      },
    );
    const expected = {
      app_id: 'echo',
      skill_id: 'shout',
      can_run: true,
      credits: 1,
      reason: 'available',
      retry_after_seconds: null,
      free_usage: { daily_remaining_percent: 100, can_send_text: true, reason: 'available' },
    };
    expect(seen).toEqual([expected]);
    expect(quote).toEqual(expected);
    expect(result).toMatchObject({ results: [{ text: 'HI' }] });
    expect(calls).toEqual([
      'POST /v1/anonymous/apps/echo/skills/shout/quote',
      'POST /v1/anonymous/apps/echo/skills/shout',
    ]);
    expect((await client.anonymous.freeUsage(anonymousId)).daily_remaining_percent).toBe(75);
  });

  it('a declined quote runs and charges nothing', async () => {
    const anonymousId = `guest_${randomUUID()}`;
    calls.length = 0;
    const err = await client.anonymous
      .call('echo', 'shout', { requests: [{ text: 'no' }] }, { anonymousId, confirm: () => false })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GuestQuoteError);
    expect((err as GuestQuoteError).code).toBe('QUOTE_DECLINED');
    expect((err as GuestQuoteError).message).toBe('The guest call was declined at its quote; nothing ran.');
    expect((err as GuestQuoteError).quote.credits).toBe(1);
    expect(calls).toEqual(['POST /v1/anonymous/apps/echo/skills/shout/quote']);
    // Unchanged since the quote (the address's allowance, shared with the test above, is the tightest).
    expect(await client.anonymous.freeUsage(anonymousId)).toEqual((err as GuestQuoteError).quote.free_usage);
  });

  it('a quote that cannot run throws with the reason and never calls', async () => {
    const anonymousId = `guest_${randomUUID()}`;
    for (let i = 0; i < 4; i++)
      await client.anonymous.call('echo', 'shout', { requests: [{ text: `n${i}` }] }, { anonymousId });
    calls.length = 0;
    const err = (await client.anonymous
      .call('echo', 'shout', { requests: [{ text: 'more' }] }, { anonymousId })
      .catch((e: unknown) => e)) as GuestQuoteError;
    expect(err).toBeInstanceOf(GuestQuoteError);
    expect(err.code).toBe('QUOTE_REFUSED');
    expect(err.quote).toMatchObject({
      can_run: false,
      reason: 'daily_limit_reached',
      free_usage: { daily_remaining_percent: 0, can_send_text: false, reason: 'daily_limit_reached' },
    });
    expect(err.message).toBe(
      `The guest call cannot run now (daily_limit_reached); retry in ${err.quote.retry_after_seconds} s.`,
    );
    expect(calls).toEqual(['POST /v1/anonymous/apps/echo/skills/shout/quote']);
  });
});
