/**
 * The plan of the domain search fault campaign (test/integration/domain-search-campaign.test.ts):
 * seeded exact-lookup groups, each with one shop fault rule of every kind the shop simulator
 * knows, mixed into calls of 1-5 groups, run in phases, one per proxy state (healthy, then every
 * proxy fault kind). Each group also carries what the fallback policy promises for it, so the
 * invariants can tell a group that had to answer from one that was allowed to fail. Pure and
 * deterministic for a given seed.
 */
import { SUFFIXES } from '../../simulators/shop/catalogue.js';
import { FAULT_STATUSES, FAULT_TYPES, type FaultRule, type FaultType } from '../../simulators/shop/faults.js';
import { PROXY_FAULT_TYPES, type ProxyFaultType } from '../../simulators/proxy/proxy-server.js';

/** A small seeded generator (mulberry32): the same seed gives the same campaign. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The proxy's state during a phase. */
export type ProxyState = 'healthy' | ProxyFaultType;

/**
 * What the policy promises for a group:
 * - answer: the name must come back checked (its fault is an answer, or a fallback recovers it);
 * - fail: every attempt fails, so the group must report an error;
 * - either: both are correct (e.g. a sibling's 429 closed the call's Retry-After gate).
 */
export type Expectation = 'answer' | 'fail' | 'either';

/** The kind of name looked up: its true status in the shop's catalogue. */
export type NameBase = 'available' | 'taken' | 'unsupported';

export interface GroupPlan {
  /** Campaign-wide number; the request id is `g<number>`. */
  number: number;
  domain: string;
  base: NameBase;
  currency: 'EUR' | 'USD';
  country: string;
  kind: FaultType;
  /** `once`: only the first request for the name fails; `always`: every request does. */
  persistence: 'once' | 'always';
  rule: FaultRule;
  /** True when the fault makes a request fail (rather than degrade its answer). */
  failsRequest: boolean;
  expect: Expectation;
}

export interface CallPlan {
  number: number;
  groups: GroupPlan[];
}

export interface PhasePlan {
  proxy: ProxyState;
  calls: CallPlan[];
}

/** Limits the campaign's skill runs with (short, so that 1000 groups fit a CI run). */
export interface CampaignLimits {
  groupDeadlineMs: number;
  idleTimeoutMs: number;
}

/** Retry-After of the campaign's 429 faults, in seconds: short enough to wait within the deadline. */
export const CAMPAIGN_RETRY_AFTER_S = 1;

const SUFFIX_LIST = Object.keys(SUFFIXES);
const COUNTRIES = ['DE', 'US', 'FR', 'NL'] as const;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;

/**
 * A fresh name per group. The shop simulator matches a fault rule by substring, so no name may
 * contain another: available and unsupported labels start with `cf-<number>-` and end in a digit,
 * taken ones are exactly three letters (every such label is in use at the shop).
 */
function nameFor(rnd: () => number, n: number, base: NameBase, taken: Set<string>): string {
  if (base === 'taken') {
    for (;;) {
      const label = Array.from({ length: 3 }, () => pick(rnd, [...LETTERS])).join('');
      const name = `${label}.${pick(rnd, SUFFIX_LIST)}`;
      if (!taken.has(name)) {
        taken.add(name);
        return name;
      }
    }
  }
  const suffix = base === 'unsupported' ? 'invalid' : pick(rnd, SUFFIX_LIST);
  return `cf-${n}-${Math.floor(rnd() * 1e6)}7.${suffix}`;
}

/** The failure a fault makes of a lookup, in the fallback policy's terms. */
type LookupFailure = 'none' | 'transient' | 'eligible' | 'final' | 'rate_limited';

function lookupFailure(rule: FaultRule, limits: CampaignLimits): LookupFailure {
  switch (rule.type) {
    case 'status':
      if (rule.status === 429) return 'rate_limited';
      if ((rule.status ?? 500) >= 500) return 'transient';
      return rule.status === 403 ? 'eligible' : 'final';
    case 'stall':
    case 'drop':
      return 'transient';
    case 'latency':
      return (rule.ms ?? 0) < limits.idleTimeoutMs / 2 ? 'none' : 'transient';
    case 'malformed':
    case 'no_done':
    case 'wrong_fqdn':
      return 'eligible';
    default:
      // das_failed, billing_failed, wrong_currency, price_overflow, out_of_order: an answer.
      return 'none';
  }
}

/**
 * What the policy promises: one lazy proxy attempt after a timeout, transport failure, 403, 5xx
 * or malformed answer; a transient failure (also the proxy's own timeout) retried directly; one
 * Retry-After wait; 400 and 404 final.
 */
export function expectationOf(
  rule: FaultRule,
  persistence: 'once' | 'always',
  proxy: ProxyState,
  limits: CampaignLimits,
): Expectation {
  const failure = lookupFailure(rule, limits);
  if (failure === 'none') return 'answer';
  if (persistence === 'always' || failure === 'final') return 'fail';
  if (failure === 'rate_limited') return 'answer';
  // A hung proxy times out, and a timeout is retried directly; a refusing proxy leaves the
  // shop's own failure to decide whether a direct retry is allowed.
  if (proxy === 'healthy' || proxy === 'stall') return 'answer';
  return failure === 'transient' ? 'answer' : 'fail';
}

function ruleFor(rnd: () => number, kind: FaultType, domain: string, limits: CampaignLimits): FaultRule {
  const rule: FaultRule = { type: kind, op: 'lookup', match: domain };
  if (kind === 'status') {
    rule.status = pick(rnd, FAULT_STATUSES);
    if (rule.status === 429) rule.retryAfter = String(CAMPAIGN_RETRY_AFTER_S);
  }
  if (kind === 'latency') {
    // Mostly a slow answer within the idle timeout; sometimes one past it (a timeout).
    rule.ms = rnd() < 0.7 ? Math.floor(limits.idleTimeoutMs * 0.25 * rnd()) : limits.idleTimeoutMs * 2;
  }
  return rule;
}

/** Splits `total` groups into calls of 1-5. */
function callSizes(rnd: () => number, total: number): number[] {
  const sizes: number[] = [];
  for (let left = total; left > 0;) {
    const size = Math.min(left, 1 + Math.floor(rnd() * 5));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * Plans the campaign: `total` groups, the fault kinds dealt round-robin (so each kind gets an
 * equal share) and shuffled, the first phase with a healthy proxy, then one per proxy fault kind
 * with `proxyShare` of the groups between them. A group next to a 429 in the same call may fail
 * rate-limited: the call's Retry-After gate holds every group of the call.
 */
export function planCampaign(opts: {
  seed: number;
  total: number;
  limits: CampaignLimits;
  proxyShare: number;
}): PhasePlan[] {
  const rnd = seededRandom(opts.seed);
  const kinds = Array.from({ length: opts.total }, (_, i) => FAULT_TYPES[i % FAULT_TYPES.length]!);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const states: ProxyState[] = ['healthy', ...PROXY_FAULT_TYPES];
  const faulty = Math.round(opts.total * opts.proxyShare);
  const per = Math.floor(faulty / PROXY_FAULT_TYPES.length);
  const shares = [opts.total - per * PROXY_FAULT_TYPES.length, ...PROXY_FAULT_TYPES.map(() => per)];
  const taken = new Set<string>();
  let n = 0;
  let callNumber = 0;
  return states.map((proxy, p) => {
    const calls = callSizes(rnd, shares[p]!).map((size) => {
      const groups = Array.from({ length: size }, () => {
        const number = n++;
        const kind = kinds[number]!;
        const roll = rnd();
        const base: NameBase = roll < 0.6 ? 'available' : roll < 0.85 ? 'taken' : 'unsupported';
        const domain = nameFor(rnd, number, base, taken);
        const persistence = rnd() < 0.5 ? 'once' : 'always';
        const rule = ruleFor(rnd, kind, domain, opts.limits);
        if (persistence === 'once') rule.times = 1;
        return {
          number,
          domain,
          base,
          currency: pick(rnd, ['EUR', 'USD'] as const),
          country: pick(rnd, COUNTRIES),
          kind,
          persistence,
          rule,
          failsRequest: lookupFailure(rule, opts.limits) !== 'none',
          expect: expectationOf(rule, persistence, proxy, opts.limits),
        } satisfies GroupPlan;
      });
      const gated = groups.some((g) => g.rule.status === 429);
      for (const g of groups) if (gated && g.expect === 'answer') g.expect = 'either';
      return { number: callNumber++, groups };
    });
    return { proxy, calls };
  });
}
