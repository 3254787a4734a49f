/**
 * Fault injection for the shop simulator: magic names (documented in README.md) and
 * server-wide rules set through `setFaults()` or `POST /__sim/faults`.
 */

export type ShopOperation = 'lookup' | 'suggest';

/**
 * Every kind of fault the simulator can inject, as a list so that tests can enumerate them (a
 * new kind added here is picked up by the fault campaign). Candidate-level kinds (das_failed,
 * billing_failed, wrong_currency) only touch stream events or prices.
 */
export const FAULT_TYPES = [
  'status',
  'malformed',
  'stall',
  'no_done',
  'drop',
  'out_of_order',
  'das_failed',
  'billing_failed',
  'wrong_currency',
  'wrong_fqdn',
  'price_overflow',
  'latency',
] as const;

/** What can go wrong. */
export type FaultType = (typeof FAULT_TYPES)[number];

export interface Fault {
  type: FaultType;
  /** HTTP status for `status` faults. */
  status?: number;
  /** `Retry-After` header value (seconds or an HTTP-date) sent with a `status` fault. */
  retryAfter?: string;
  /** Delay before answering, for `latency` faults. */
  ms?: number;
}

/** A server-wide rule: applies to matching requests, optionally only the next `times` ones. */
export interface FaultRule extends Fault {
  op?: ShopOperation;
  /** Only requests whose `search` contains this text (case-insensitive). */
  match?: string;
  /** Apply to this many matching requests, then retire the rule. Unlimited when absent. */
  times?: number;
}

/** The HTTP statuses the simulator answers as faults: its magic names and `status` rules' examples. */
export const FAULT_STATUSES = [400, 403, 404, 429, 500, 502, 503] as const;

const STATUS_NAMES = /^fault-(400|403|404|500|502|503)$/;

/**
 * The fault a magic label asks for (the first DNS label of a lookup name, or the suggest
 * keyword), ignoring the "fail N times" counter.
 */
export function magicFault(label: string): Fault | undefined {
  const status = STATUS_NAMES.exec(label);
  if (status) return { type: 'status', status: Number(status[1]) };
  switch (label) {
    case 'fault-429':
      return { type: 'status', status: 429, retryAfter: '7' };
    case 'fault-429-date':
      return { type: 'status', status: 429, retryAfter: new Date(Date.now() + 30_000).toUTCString() };
    case 'fault-malformed':
      return { type: 'malformed' };
    case 'fault-stall':
      return { type: 'stall' };
    case 'fault-nodone':
      return { type: 'no_done' };
    case 'fault-drop':
      return { type: 'drop' };
    case 'fault-order':
      return { type: 'out_of_order' };
    case 'fault-das':
      return { type: 'das_failed' };
    case 'fault-billing':
      return { type: 'billing_failed' };
    case 'fault-currency':
      return { type: 'wrong_currency' };
    case 'fault-fqdn':
      return { type: 'wrong_fqdn' };
    case 'fault-price':
      return { type: 'price_overflow' };
    case 'fault-slow':
      return { type: 'latency', ms: 1500 };
    default:
      return undefined;
  }
}

/** Mutable fault state of one simulator: rules, latencies and the flaky-name counters. */
export class FaultState {
  private rules: FaultRule[] = [];
  private readonly flakyCounts = new Map<string, number>();

  set(rules: FaultRule[]): void {
    this.rules = rules.map((r) => ({ ...r }));
  }

  current(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  reset(): void {
    this.rules = [];
    this.flakyCounts.clear();
  }

  /**
   * Request-level faults for one request: server rules first (consuming `times`), then the
   * magic label. `fault-flaky-N` answers 503 for the first N requests naming it.
   */
  resolve(op: ShopOperation, search: string, label: string): Fault[] {
    const out: Fault[] = [];
    const haystack = search.toLowerCase();
    for (const rule of this.rules) {
      if (rule.op && rule.op !== op) continue;
      if (rule.match && !haystack.includes(rule.match.toLowerCase())) continue;
      if (rule.times !== undefined) {
        if (rule.times <= 0) continue;
        rule.times -= 1;
      }
      out.push({ type: rule.type, status: rule.status, retryAfter: rule.retryAfter, ms: rule.ms });
    }
    this.rules = this.rules.filter((r) => r.times === undefined || r.times > 0);
    const flaky = /^fault-flaky-(\d+)$/.exec(label);
    if (flaky) {
      const key = `${op}:${haystack}`;
      const seen = this.flakyCounts.get(key) ?? 0;
      this.flakyCounts.set(key, seen + 1);
      if (seen < Number(flaky[1])) out.push({ type: 'status', status: 503 });
    }
    const magic = magicFault(label);
    if (magic) out.push(magic);
    return out;
  }
}

/** The first fault of a type, if any. */
export function findFault(faults: readonly Fault[], type: FaultType): Fault | undefined {
  return faults.find((f) => f.type === type);
}
