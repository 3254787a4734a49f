/**
 * The search limits (deadlines, timeouts, caps), asserted through behaviour with the production defaults (no
 * shortened limits): the 40 s group deadline, the 15 s stream idle timeout and the 20-lookup
 * cap per group. The two timing tests run concurrently, so the file takes about 40 s.
 */
import { describe, expect, it } from 'vitest';
import { call, shopCalls, useUpstreams } from './orchestration.test-helpers.js';

const up = useUpstreams();

describe.concurrent('search limits, with the default settings', () => {
  it('the group deadline is 40 s, fallback included: a stalled lookup is cut at 40 s and the sibling is kept', async () => {
    const res = await call(up, { requests: [{ query: 'fault-stall.com' }, { query: 'cedarwood.com' }] });
    expect(res.elapsedMs).toBeGreaterThanOrEqual(39_900);
    expect(res.elapsedMs).toBeLessThan(42_000);
    const [stalled, sibling] = res.output!.results;
    expect(stalled).toMatchObject({ partial: false, results: [], error: { code: 'DEADLINE_EXCEEDED' } });
    expect(stalled!.error!.message).toContain('the 40 s group deadline passed');
    expect(sibling).toMatchObject({ error: null, results: [{ domain: 'cedarwood.com' }] });
    // Direct (15 s idle), the one proxy attempt (15 s idle), one direct retry cut by the deadline.
    expect(shopCalls(up.sim).filter((c) => c === 'lookup fault-stall.com')).toHaveLength(3);
  });

  it('the stream idle timeout is 15 s: a stalled stream without a proxy fails after 15 s', async () => {
    const res = await call(up, { requests: [{ query: 'fault-stall' }] }, { proxy: false });
    expect(res.elapsedMs).toBeGreaterThanOrEqual(14_900);
    expect(res.elapsedMs).toBeLessThan(17_000);
    expect(res.error).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(res.output).toBeUndefined();
  });

  it('20 extensions are 20 exact lookups, each sent once (21 are refused by the input schema)', async () => {
    const tlds = Array.from({ length: 20 }, (_, i) => `zz${String.fromCharCode(97 + i)}`);
    const res = await call(up, { requests: [{ query: 'capwood', tlds, max_results: 20 }] }, { proxy: false });
    const lookups = shopCalls(up.sim).filter((c) => c.startsWith('lookup capwood.'));
    expect(lookups).toHaveLength(20);
    expect(new Set(lookups).size).toBe(20);
    expect(res.output!.results[0]!.results).toEqual([]);
  });
});
