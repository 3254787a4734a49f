/**
 * The one upstream meter: without a prepayment it charges the owner's share, then the provider
 * limit, per request sent; with one, each announced use draws on it once, further requests are
 * charged by it, and settling gives back exactly what was not sent.
 */
import { describe, expect, it } from 'vitest';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { OwnerProviderShare } from '../../lib/limits/owner-provider-share.js';
import { parseProviderRules, ProviderLimits } from '../../lib/limits/provider-limits.js';
import type { ProviderUse } from '../registry/types.js';
import { createUpstreamMeter, type Prepayment } from './upstream-meter.js';

/** A prepayment that records what it is asked to charge and give back; `room` extra charges. */
function recordingPrepayment(uses: ProviderUse[], room: number) {
  const charged: ProviderUse[] = [];
  const released: ProviderUse[][] = [];
  const prepaid: Prepayment = {
    uses,
    chargeOne: (use) => {
      if (charged.length >= room) return Promise.reject(new SkillflowError('UPSTREAM_RATE_LIMITED'));
      charged.push(use);
      return Promise.resolve();
    },
    release: (unused) => {
      released.push([...unused]);
      return Promise.resolve();
    },
  };
  return { prepaid, charged, released };
}

describe('createUpstreamMeter', () => {
  it('charges the provider limit per request and counts only requests allowed', async () => {
    const limits = new ProviderLimits(parseProviderRules('shop=2/60'));
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', limits });
    await meter.charge('shop');
    await meter.charge('shop');
    await expect(meter.charge('shop')).rejects.toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      details: { provider: 'shop', skill: 'hosting.search_domains', model: null, retry_after_seconds: 60 },
    });
    expect(meter.sent()).toEqual({ shop: 2 });
    expect(meter.total()).toBe(2);
    await meter.settle();
  });

  it("charges the owner's share before the provider limit", async () => {
    const rules = parseProviderRules('shop=10/60');
    const limits = new ProviderLimits(rules);
    const share = { share: new OwnerProviderShare(rules, 20), ownerId: 'owner_a' };
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', limits, share });
    await meter.charge('shop');
    await meter.charge('shop');
    // 20 % of 10: the owner's third request is refused, the provider still has room.
    await expect(meter.charge('shop')).rejects.toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' });
    expect(meter.sent()).toEqual({ shop: 2 });
    expect(await limits.busy('hosting.search_domains', [{ provider: 'shop' }])).toBeUndefined();
  });

  it('draws on prepaid uses first (provider and model must match), charges the rest, gives back the unused', async () => {
    const sim = { provider: 'sim', model: 'sim-model-1' };
    const { prepaid, charged, released } = recordingPrepayment([sim, sim, { provider: 'shop' }], 1);
    const meter = createUpstreamMeter({ skill: 'metered.ping', prepaid });
    await meter.charge('sim', 'sim-model-1');
    await meter.charge('sim', 'sim-model-2');
    expect(charged).toEqual([{ provider: 'sim', model: 'sim-model-2' }]);
    await expect(meter.charge('decision')).rejects.toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' });
    expect(meter.sent()).toEqual({ sim: 2 });
    await meter.settle();
    await meter.settle();
    expect(released).toEqual([[sim, { provider: 'shop' }]]);
  });

  it('settles nothing when every prepaid use was sent', async () => {
    const { prepaid, charged, released } = recordingPrepayment([{ provider: 'shop' }], 0);
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', prepaid });
    await meter.charge('shop');
    await meter.settle();
    expect([charged, released, meter.sent()]).toEqual([[], [], { shop: 1 }]);
  });

  it("gives the owner's share point back when the provider limit refuses the request", async () => {
    const rules = parseProviderRules('shop=1/60');
    const limits = new ProviderLimits(rules);
    const share = { share: new OwnerProviderShare(rules, 50), ownerId: 'owner_a' };
    // The first request uses the provider's one point; its share point is given back here, so
    // the share is free and only the provider refuses the next request.
    await createUpstreamMeter({ skill: 'hosting.search_domains', limits, share }).charge('shop');
    await share.share.release('owner_a', ['shop'], 1);
    const meter = createUpstreamMeter({ skill: 'hosting.search_domains', limits, share });
    await expect(meter.charge('shop')).rejects.toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' });
    expect(await share.share.busy('owner_a', ['shop'])).toBeUndefined();
    expect(meter.refusal()).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED', details: { provider: 'shop' } });
  });

  it('with a wait, charges again at the reset while it comes before the deadline', async () => {
    const limits = new ProviderLimits(parseProviderRules('power=1/1'));
    const signal = new AbortController().signal;
    const meter = createUpstreamMeter({
      skill: 'electronics.get_power_design',
      limits,
      wait: { deadlineAt: Date.now() + 5_000, signal },
    });
    const started = Date.now();
    await meter.charge('power');
    await meter.charge('power');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect([meter.sent(), meter.refusal()]).toEqual([{ power: 2 }, undefined]);
  });

  it('with a wait that would pass the deadline, refuses at once', async () => {
    const limits = new ProviderLimits(parseProviderRules('power=1/60'));
    const meter = createUpstreamMeter({
      skill: 'electronics.get_power_design',
      limits,
      wait: { deadlineAt: Date.now() + 5_000, signal: new AbortController().signal },
    });
    await meter.charge('power');
    const started = Date.now();
    const refused = await meter.charge('power').catch((err: unknown) => err);
    expect(Date.now() - started).toBeLessThan(500);
    expect(refused).toBe(meter.refusal());
    expect(refused).toMatchObject({
      code: 'UPSTREAM_RATE_LIMITED',
      message: 'The power provider limit for electronics.get_power_design is reached; retry in 60 s.',
      details: {
        provider: 'power',
        skill: 'electronics.get_power_design',
        model: null,
        retry_after_seconds: 60,
      },
    });
    expect(meter.sent()).toEqual({ power: 1 });
  });

  it('sums decision usage exactly', () => {
    const meter = createUpstreamMeter({ skill: 'design.search_icons' });
    for (let i = 0; i < 10; i++) meter.addDecisionUsage({ input_tokens: 3, cost_usd: 0.000000001 });
    expect(meter.decisionUsage()).toEqual({ input_tokens: 30, cost_usd: 0.00000001 });
  });
});
