/**
 * The domain search fault campaign: 1000 exact-lookup groups, each with one shop fault (every
 * kind the shop simulator knows, enumerated from it), once or on every attempt, mixed into calls
 * of 1-5 groups, with the proxy healthy and then failing in each of its own ways. Every call goes
 * through the real API inline path (auth, limits, the skill, the error mapping) to the shop
 * simulator and the basic-auth proxy on loopback, and every answer must keep the invariants of
 * test/helpers/fault-campaign-invariants.ts. The seed is printed; FAULT_CAMPAIGN_SEED replays
 * another campaign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticSecrets } from '../../lib/secrets.js';
import { PROXY_FAULT_TYPES, startProxy, type ProxySimulator } from '../../simulators/proxy/proxy-server.js';
import { FAULT_TYPES } from '../../simulators/shop/faults.js';
import {
  startShopSimulator,
  type ShopRequestRecord,
  type ShopSimulator,
} from '../../simulators/shop/server.js';
import { CAMPAIGN_LIMITS, campaignHostingApp } from '../fixtures/campaign/search-domains.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { checkCall, type CallAnswer } from '../helpers/fault-campaign-invariants.js';
import { planCampaign, type CallPlan, type PhasePlan } from '../helpers/fault-campaign-plan.js';

const SKILL = '/v1/apps/hosting/skills/search_domains';
const SEED = Number(process.env.FAULT_CAMPAIGN_SEED ?? '20261125');
const GROUPS = 1000;
/** Calls in flight at once (each holds at most two shop requests). */
const CONCURRENCY = 12;
/** Share of the groups run while the proxy fails (split evenly between its fault kinds). */
const PROXY_FAULT_SHARE = 0.3;
/**
 * A call may answer this long after its group deadline: the time to assemble and serialise the
 * answer once the deadline has cut the last request, on a busy machine.
 */
const TOLERANCE_MS = 1_000;
/**
 * An answer the shop sent this close to the group deadline may be read too late on a loaded
 * machine; one sent earlier must be used.
 */
const LAG_MS = 1_500;
/** A call still unanswered this long after it was sent is given up as hung (and reported). */
const HUNG_AFTER_MS = CAMPAIGN_LIMITS.groupDeadlineMs + 10_000;

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** A tally of labelled counts. */
const tally = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

describe('domain search fault campaign', () => {
  let h: EngineHarness;
  let sim: ShopSimulator;
  let proxy: ProxySimulator;
  beforeAll(async () => {
    if (!Number.isSafeInteger(SEED)) throw new Error('FAULT_CAMPAIGN_SEED must be an integer');
    sim = await startShopSimulator();
    proxy = await startProxy({ username: 'res-user', password: 'res-pass-9' });
    h = await startEngine({
      apps: [campaignHostingApp],
      config: {
        SHOP_URL: sim.url,
        PROXY_URL: proxy.url,
        DECISION_URL: undefined,
        // Lifted, so that every call reaches the skill: the campaign tests the search, not the quotas.
        RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000,
        PROVIDER_RATE_LIMITS: 'shop=1000000/60,*=1000000/60',
        OWNER_PROVIDER_SHARE_PERCENT: 100,
      },
      secrets: staticSecrets({ proxy_username: 'res-user', proxy_password: 'res-pass-9' }),
    });
  });
  afterAll(async () => {
    await h?.close();
    await proxy?.close();
    await sim?.close();
  });

  async function send(call: CallPlan): Promise<CallAnswer> {
    const requests = call.groups.map((g) => ({
      id: `g${g.number}`,
      query: g.domain,
      currency: g.currency,
      country: g.country,
    }));
    const sentAt = Date.now();
    const started = performance.now();
    const answer = h.api.app
      .inject({
        method: 'POST',
        url: SKILL,
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        payload: { requests },
      })
      .then((res) => ({
        sentAt,
        status: res.statusCode,
        body: res.json(),
        wallMs: performance.now() - started,
      }));
    // A call that hangs is reported as one (status 0) instead of stalling the campaign.
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<CallAnswer>((resolve) => {
      timer = setTimeout(
        () => resolve({ sentAt, status: 0, body: {}, wallMs: performance.now() - started }),
        HUNG_AFTER_MS,
      );
    });
    try {
      return await Promise.race([answer, hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  it(`${GROUPS} exact-lookup groups under every shop and proxy fault keep the invariants`, async () => {
    console.log(`fault campaign: seed ${SEED} (FAULT_CAMPAIGN_SEED replays another)`);
    const started = performance.now();
    const phases: PhasePlan[] = planCampaign({
      seed: SEED,
      total: GROUPS,
      limits: CAMPAIGN_LIMITS,
      proxyShare: PROXY_FAULT_SHARE,
    });
    // Warm-up outside the campaign: a fresh process's first calls load modules (the skill, the
    // proxy agent) and prepare store statements, which no deadline of a running service includes.
    sim.setFaults([{ type: 'status', status: 403, op: 'lookup', times: 1 }]);
    for (const query of ['warm-up-1.com', 'warm-up-2.net']) {
      const warm = await h.request('POST', SKILL, { requests: [{ query }] });
      expect(warm.status).toBe(200);
    }
    const violations: string[] = [];
    const counts = { kinds: {}, outcomes: {}, proxy: {}, statuses: {} } as Record<
      string,
      Record<string, number>
    >;
    let calls = 0;
    let slowest = 0;
    for (const phase of phases) {
      sim.reset();
      sim.setFaults(phase.calls.flatMap((c) => c.groups.map((g) => g.rule)));
      proxy.setFault(phase.proxy === 'healthy' ? undefined : phase.proxy);
      const phaseStarted = performance.now();
      const answers = new Map<CallPlan, CallAnswer>();
      await pool(phase.calls, CONCURRENCY, async (call) => {
        answers.set(call, await send(call));
      });
      const log = new Map<string, ShopRequestRecord[]>();
      for (const r of sim.requests()) {
        const name = r.params['search']?.[0] ?? '';
        log.set(name, [...(log.get(name) ?? []), r]);
      }
      for (const [call, answer] of answers) {
        const checked = checkCall(call, answer, log, {
          deadlineMs: CAMPAIGN_LIMITS.groupDeadlineMs,
          toleranceMs: TOLERANCE_MS,
          lagMs: LAG_MS,
        });
        violations.push(...checked.violations);
        calls += 1;
        slowest = Math.max(slowest, answer.wallMs);
        tally(counts.statuses!, String(answer.status));
        call.groups.forEach((g, i) => {
          tally(counts.kinds!, g.kind);
          tally(counts.outcomes!, `${g.kind} ${g.persistence}: ${checked.outcomes[i]}`);
          tally(counts.proxy!, phase.proxy);
        });
      }
      const phaseSeconds = ((performance.now() - phaseStarted) / 1000).toFixed(1);
      console.log(`fault campaign: proxy ${phase.proxy}, ${phase.calls.length} calls in ${phaseSeconds} s`);
    }
    proxy.setFault(undefined);
    console.log(
      JSON.stringify(
        { seed: SEED, calls, groups: GROUPS, ...counts, slowest_call_ms: Math.round(slowest) },
        null,
        1,
      ),
    );
    console.log(
      `fault campaign: ${violations.length} violation(s) in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    if (violations.length > 0) console.log(violations.slice(0, 200).join('\n'));
    expect(violations.slice(0, 25)).toEqual([]);
    // Every fault kind of both simulators took part.
    expect(Object.keys(counts.kinds!).sort()).toEqual([...FAULT_TYPES].sort());
    expect(Object.keys(counts.proxy!).sort()).toEqual(['healthy', ...PROXY_FAULT_TYPES].sort());
  }, 300_000);
});
