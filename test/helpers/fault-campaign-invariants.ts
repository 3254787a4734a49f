/**
 * The invariants every answer of the domain search fault campaign must keep, checked against the
 * shop simulator's own catalogue (what it answers without a fault) and its request log (what it
 * really answered during the campaign):
 * - unknown never becomes unavailable (nor available);
 * - no invented price: every amount equals the simulator's quote for that name and currency;
 * - every failure is flagged (a group error, or an unknown result with its warning);
 * - a whole-call error only when every group failed, and only 429 or 503: a group whose name got
 *   a usable answer from the shop never fails, and a group the fallback policy recovers fails
 *   only when time ran out (a request the skill gave up waiting for, or the group deadline);
 * - no call answers later than the group deadline plus a small tolerance.
 * Each check returns the violations it found, as sentences naming the call, group and fault.
 */
import { describeName, pricesFor } from '../../simulators/shop/catalogue.js';
import type { ShopRequestRecord } from '../../simulators/shop/server.js';
import { isErrorCode } from '../../lib/errors/catalogue.js';
import type { CallPlan, GroupPlan } from './fault-campaign-plan.js';
import { RETRY_MARGIN_MS, TRANSIENT_BACKOFF_MS } from '../../activities/apps/hosting/index.js';

/** The time a direct retry needs before the group deadline, or the policy gives up instead. */
const RETRY_NEEDS_MS = TRANSIENT_BACKOFF_MS + RETRY_MARGIN_MS;

/** One domain result as the API returns it (the fields the invariants read). */
interface Result {
  domain: string;
  availability: 'available' | 'unavailable' | 'unknown';
  currency: string | null;
  registration_tiers: Record<string, unknown>[];
  renewal_tiers: Record<string, unknown>[];
  pricing_status: string;
}

/** One group as the API returns it. */
export interface GroupAnswer {
  id: string | null;
  results: Result[];
  checked_results: Result[];
  warnings: { code: string }[];
  partial: boolean;
  error: { code: string; message: string } | null;
}

/** One call's HTTP answer and how long it took. */
export interface CallAnswer {
  /** When the call was sent (epoch ms). */
  sentAt: number;
  status: number;
  body: { results?: GroupAnswer[]; error?: { code: string; message: string; details: unknown } };
  wallMs: number;
}

/** How a group ended, for the campaign's counts. */
export type GroupOutcome = 'answered' | 'failed' | 'failed in time';

/** What the shop simulator's log shows for one group's name. */
export interface Evidence {
  /** A usable answer (no request-failing fault) reached the skill well before the deadline. */
  delivered: boolean;
  /**
   * The skill stopped waiting for a request the fault did not hold up: the machine was too slow
   * for the idle timeout or the deadline, which the policy reports as a failure in time.
   */
  abandoned: boolean;
}

/**
 * Reads the simulator's log for one group's name: with `once`, only its first request was
 * faulted. An answer counts as delivered only when it was sent `lagMs` before the deadline
 * (`deadlineAt`, epoch ms): a loaded machine may not read a later one in time.
 */
export function evidenceFor(
  plan: GroupPlan,
  records: readonly ShopRequestRecord[],
  deadlineAt: number,
  lagMs: number,
): Evidence {
  const hangs =
    plan.kind === 'stall' || plan.kind === 'drop' || (plan.kind === 'latency' && plan.failsRequest);
  const requests = records.map((r, i) => {
    const faulted = plan.persistence === 'always' || i === 0;
    return {
      failing: faulted && plan.failsRequest,
      hanging: faulted && hangs,
      closed: r.clientClosed === true,
      ok: r.status === 200,
      early: r.at + (faulted ? (plan.rule.ms ?? 0) : 0) <= deadlineAt - lagMs,
    };
  });
  return {
    delivered: requests.some((r) => !r.failing && r.ok && !r.closed && r.early),
    abandoned: requests.some((r) => r.closed && !r.hanging),
  };
}

const PRICE_FIELDS = [
  'min_duration',
  'max_duration',
  'price_before_taxes',
  'price_after_taxes',
  'normal_price_before_taxes',
  'normal_price_after_taxes',
] as const;

/** The amounts of a tier list, for comparison with the simulator's. */
const amounts = (tiers: readonly Record<string, unknown>[]) =>
  JSON.stringify(tiers.map((t) => PRICE_FIELDS.map((f) => t[f] ?? null)));

/** The simulator's own tiers for a name (what it quotes without a fault). */
function quotedTiers(plan: GroupPlan, process: 'create' | 'renew'): Record<string, unknown>[] {
  const prices = pricesFor(describeName(plan.domain), plan.currency, plan.country) as {
    products?: { process: string; prices: Record<string, unknown>[] }[];
  };
  return (prices.products ?? []).filter((p) => p.process === process).flatMap((p) => p.prices);
}

/** Availability values a correct answer may report (a retry may meet the name without its fault). */
function allowedAvailability(plan: GroupPlan): Result['availability'][] {
  const truth = describeName(plan.domain).status;
  if (truth === 'error' || (plan.kind === 'das_failed' && plan.persistence === 'always')) return ['unknown'];
  return plan.kind === 'das_failed' ? [truth, 'unknown'] : [truth];
}

/** Checks one result: identity, availability and price. */
function checkResult(plan: GroupPlan, r: Result, where: string): string[] {
  const out: string[] = [];
  if (r.domain !== plan.domain) out.push(`${where}: a result for another name (${r.domain})`);
  const allowed = allowedAvailability(plan);
  if (!allowed.includes(r.availability))
    out.push(`${where}: ${r.availability}, expected ${allowed.join(' or ')}`);
  const priced = r.registration_tiers.length + r.renewal_tiers.length > 0;
  if (priced !== (r.pricing_status === 'priced')) {
    out.push(`${where}: pricing_status ${r.pricing_status} with ${priced ? 'tiers' : 'no tiers'}`);
  }
  if (!priced) return out;
  if (r.availability !== 'available') out.push(`${where}: a price on a ${r.availability} name`);
  const unpriceable = plan.kind === 'wrong_currency' || plan.kind === 'price_overflow';
  if (unpriceable && plan.persistence === 'always')
    out.push(`${where}: a price, yet every answer was ${plan.kind}`);
  if (r.currency !== plan.currency) out.push(`${where}: quoted in ${r.currency}, asked ${plan.currency}`);
  for (const [process, tiers] of [
    ['create', r.registration_tiers],
    ['renew', r.renewal_tiers],
  ] as const) {
    if (amounts(tiers) !== amounts(quotedTiers(plan, process))) {
      out.push(`${where}: ${process} amounts ${amounts(tiers)} differ from the shop's quote`);
    }
  }
  return out;
}

/**
 * The whole-call rule for one group, also for groups of a call that failed as a whole: a group
 * whose name got a usable answer must answer, and one the policy recovers may fail only in time.
 */
function mustHaveAnswered(plan: GroupPlan, ev: Evidence, cut: boolean, code: string | undefined): string[] {
  if (ev.delivered) return ['the shop answered its name, yet it failed'];
  const inTime = ev.abandoned || cut;
  if (plan.expect === 'answer' && !inTime) return [`failed (${code}) although the fallback recovers it`];
  if (plan.expect === 'either' && !inTime && code !== 'UPSTREAM_RATE_LIMITED') {
    return [`failed with ${code} next to a 429 (only the rate limit may cut it)`];
  }
  return [];
}

/** Checks one group of a 200 answer. */
function checkGroup(plan: GroupPlan, g: GroupAnswer, ev: Evidence, cut: boolean, where: string): string[] {
  const out: string[] = [];
  if (g.id !== `g${plan.number}`) out.push(`id ${g.id} out of order`);
  const checked = g.checked_results.find((r) => r.domain === plan.domain);
  if (g.error !== null) {
    if (!isErrorCode(g.error.code) || g.error.message.length === 0) {
      out.push(`error ${JSON.stringify(g.error)} is not a catalogue error`);
    }
    if (g.error.message.includes(plan.domain)) out.push('the error message quotes the name');
  }
  if (!checked) {
    if (g.error === null) out.push('nothing checked and no error (an unflagged failure)');
    if (g.partial || g.results.length > 0) out.push('nothing checked, yet partial or with results');
    const why = mustHaveAnswered(plan, ev, cut, g.error?.code);
    out.push(...why.map((v) => `${v} (${g.error?.message})`));
  } else if (checked.availability === 'unknown') {
    const warned = g.warnings.some((w) => w.code === 'EXACT_NAME_UNKNOWN');
    if (!warned && g.error === null) out.push('unknown without a warning or an error');
  }
  if (plan.expect === 'fail' && g.error === null && !ev.abandoned)
    out.push('no error although every attempt fails');
  const results = [...g.results, ...g.checked_results].flatMap((r) => checkResult(plan, r, where));
  return [...out.map((v) => `${where}: ${v}`), ...results];
}

/** A group's name and fault in words, e.g. `g12 cf-12-48207.com: status 403 once`. */
export function faultLabel(g: GroupPlan): string {
  const detail = g.rule.status ?? g.rule.ms;
  return `g${g.number} ${g.domain}: ${g.kind}${detail === undefined ? '' : ` ${detail}`} ${g.persistence}`;
}

/**
 * Checks one call: the deadline, the whole-call rule and every group. `log` is the simulator's
 * request log by name.
 */
export function checkCall(
  call: CallPlan,
  answer: CallAnswer,
  log: ReadonlyMap<string, ShopRequestRecord[]>,
  limit: { deadlineMs: number; toleranceMs: number; lagMs: number },
): { violations: string[]; outcomes: GroupOutcome[] } {
  const out: string[] = [];
  const where = (i: number) =>
    `call ${call.number} group ${i} (${faultLabel(call.groups[i]!)}, ${Math.round(answer.wallMs)} ms)`;
  const deadlineAt = answer.sentAt + limit.deadlineMs;
  const evidence = call.groups.map((g) => evidenceFor(g, log.get(g.domain) ?? [], deadlineAt, limit.lagMs));
  // The group deadline cut this call (it starts a little after the call does). A group also
  // stops early when the time left no longer fits a retry's pause and margin: the fallback policy
  // gives up then, so the latest such give-up answers this much before the deadline.
  const cut = answer.wallMs >= limit.deadlineMs - RETRY_NEEDS_MS - 100;
  if (answer.wallMs > limit.deadlineMs + limit.toleranceMs) {
    out.push(`call ${call.number}: answered after ${Math.round(answer.wallMs)} ms`);
  }
  const inTime = (i: number) => evidence[i]!.abandoned || cut;
  if (answer.status === 200) {
    const groups = answer.body.results ?? [];
    if (groups.length !== call.groups.length) out.push(`call ${call.number}: ${groups.length} groups back`);
    const allFail = call.groups.every((g, i) => g.expect === 'fail' && !evidence[i]!.abandoned);
    if (allFail) out.push(`call ${call.number}: 200 although every group must fail`);
    call.groups.forEach((plan, i) => {
      const g = groups[i];
      if (g) out.push(...checkGroup(plan, g, evidence[i]!, cut, where(i)));
    });
    const outcomes = call.groups.map((plan, i): GroupOutcome => {
      const answered = groups[i]?.checked_results.some((r) => r.domain === plan.domain) === true;
      return answered ? 'answered' : inTime(i) ? 'failed in time' : 'failed';
    });
    return { violations: out, outcomes };
  }
  if (answer.status !== 429 && answer.status !== 503) {
    out.push(`call ${call.number}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  const details = answer.body.error?.details as { groups?: { index: number; code: string }[] } | undefined;
  if (details?.groups?.length !== call.groups.length) {
    out.push(`call ${call.number}: the whole-call error does not list every group`);
  }
  call.groups.forEach((plan, i) => {
    const code = details?.groups?.[i]?.code;
    for (const v of mustHaveAnswered(plan, evidence[i]!, cut, code))
      out.push(`${where(i)}: whole call failed: ${v}`);
  });
  return { violations: out, outcomes: call.groups.map((_, i) => (inTime(i) ? 'failed in time' : 'failed')) };
}
