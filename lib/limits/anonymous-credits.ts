/**
 * Anonymous credit allowances: daily, weekly and monthly limits for the guest
 * identity, the client IP and one shared server-wide pool, nine counters in all. A reservation
 * consumes the skill's credits from all nine inside one store transaction, so it is
 * all-or-nothing and concurrent guests can never overspend. Guest ids and IPs are never stored:
 * counter keys carry an HMAC of them under a server secret.
 */
import { createHmac } from 'node:crypto';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { LimitsConfig } from '../config.js';
import { errors } from '../errors/errors.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import type { Store } from '../store/db.js';
import { inLimiterTransaction, isRejection, storeLimiter } from '../store/owners/rate-limits.js';

export const SCOPES = ['identity', 'ip', 'pool'] as const;
export const PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type AllowanceScope = (typeof SCOPES)[number];
export type Period = (typeof PERIODS)[number];

/** Windows start at a counter's first use and last this long (fixed windows, not calendar days). */
const PERIOD_SECONDS: Record<Period, number> = { daily: 86_400, weekly: 7 * 86_400, monthly: 30 * 86_400 };

export type Allowances = Record<AllowanceScope, Record<Period, number>>;

/** The nine allowances from the ANONYMOUS_* configuration variables. */
export function allowancesFromConfig(c: LimitsConfig): Allowances {
  return {
    identity: {
      daily: c.ANONYMOUS_IDENTITY_DAILY_CREDITS,
      weekly: c.ANONYMOUS_IDENTITY_WEEKLY_CREDITS,
      monthly: c.ANONYMOUS_IDENTITY_MONTHLY_CREDITS,
    },
    ip: {
      daily: c.ANONYMOUS_IP_DAILY_CREDITS,
      weekly: c.ANONYMOUS_IP_WEEKLY_CREDITS,
      monthly: c.ANONYMOUS_IP_MONTHLY_CREDITS,
    },
    pool: {
      daily: c.ANONYMOUS_POOL_DAILY_CREDITS,
      weekly: c.ANONYMOUS_POOL_WEEKLY_CREDITS,
      monthly: c.ANONYMOUS_POOL_MONTHLY_CREDITS,
    },
  };
}

/** Hashed counter keys of one guest; `identity` is absent when no guest id was given. */
export interface GuestKeys {
  identity: string | undefined;
  ip: string;
}

/** Why a guest cannot spend: `<period>_limit_reached` (own or IP) or `shared_<period>_limit_reached` (pool). */
export type LimitReason = `${Period}_limit_reached` | `shared_${Period}_limit_reached`;

/** The public free-usage status: percentages and a reason, never counts or hashes. */
export const FreeUsageStatusSchema = z
  .object({
    daily_remaining_percent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('The tightest daily allowance left (identity, IP, pool); null without a guest id.'),
    can_send_text: z.boolean(),
    reason: z.enum([
      'available',
      ...PERIODS.flatMap((p) => [`${p}_limit_reached` as const, `shared_${p}_limit_reached` as const]),
    ]),
  })
  .describe('Free usage left for a guest.');
export type FreeUsageStatus = z.infer<typeof FreeUsageStatusSchema>;

export type Availability = { ok: true } | { ok: false; reason: LimitReason; retryAfterMs: number };

export interface Reservation {
  keys: GuestKeys;
  credits: number;
  /** Window end (epoch ms) of each counter charged, so a refund never credits a later window. */
  windows: { index: number; expiresAt: number }[];
}

interface Counter {
  scope: AllowanceScope;
  period: Period;
  points: number;
  limiter: RateLimiterPostgres;
}

const reasonOf = (c: Counter): LimitReason =>
  c.scope === 'pool' ? `shared_${c.period}_limit_reached` : `${c.period}_limit_reached`;

export class AnonymousCredits {
  private readonly counters: Counter[];

  constructor(
    private readonly store: Store,
    allowances: Allowances,
    private readonly secret: Buffer,
  ) {
    // Fixed order (identity, ip, pool): every transaction locks rows in the same order, so
    // competing reservations queue instead of deadlocking.
    this.counters = SCOPES.flatMap((scope) =>
      PERIODS.map((period) => ({
        scope,
        period,
        points: allowances[scope][period],
        limiter: storeLimiter(store, {
          keyPrefix: `anon:${scope}:${period}`,
          points: allowances[scope][period],
          durationSec: PERIOD_SECONDS[period],
        }),
      })),
    );
  }

  /** Keyed hashes of the guest id and IP; the raw values go no further than this. */
  keysFor(guestId: string | undefined, ip: string): GuestKeys {
    const h = (kind: string, v: string) =>
      createHmac('sha256', this.secret).update(`${kind}\0${v}`).digest('base64url').slice(0, 32);
    return { identity: guestId === undefined ? undefined : h('id', guestId), ip: h('ip', ip) };
  }

  private keyOf(c: Counter, keys: GuestKeys): string | undefined {
    return c.scope === 'pool' ? 'all' : c.scope === 'ip' ? keys.ip : keys.identity;
  }

  /** Read-only: could `credits` be spent now? The tightest failing counter names the reason. */
  async check(keys: GuestKeys, credits: number): Promise<Availability> {
    let worst: { counter: Counter; ms: number } | undefined;
    for (const c of this.counters) {
      const key = this.keyOf(c, keys);
      if (key === undefined) continue;
      const res = await c.limiter.get(key);
      const used = res?.consumedPoints ?? 0;
      if (used + credits <= c.points) continue;
      const ms = res ? Math.max(res.msBeforeNext, 0) : PERIOD_SECONDS[c.period] * 1000;
      if (!worst || ms > worst.ms) worst = { counter: c, ms };
    }
    return worst ? { ok: false, reason: reasonOf(worst.counter), retryAfterMs: worst.ms } : { ok: true };
  }

  /** Charges all nine counters at once, or none; throws ANONYMOUS_LIMIT_EXHAUSTED (429). */
  async reserve(keys: GuestKeys, credits: number): Promise<Reservation> {
    if (keys.identity === undefined) throw new Error('a reservation needs a guest identity');
    try {
      return await inLimiterTransaction(this.store, async () => {
        const windows: Reservation['windows'] = [];
        for (const [index, c] of this.counters.entries()) {
          const res = await c.limiter.consume(this.keyOf(c, keys)!, credits);
          windows.push({ index, expiresAt: Date.now() + res.msBeforeNext });
        }
        return { keys, credits, windows };
      });
    } catch (err) {
      if (!isRejection(err)) throw err;
      const now = await this.check(keys, credits);
      const reason = now.ok ? 'daily_limit_reached' : now.reason;
      const retryAfterMs = now.ok ? Math.max(err.msBeforeNext, 1000) : Math.max(now.retryAfterMs, 1000);
      throw exhausted(reason, retryAfterMs);
    }
  }

  /** Gives a reservation back (the skill failed for an upstream or platform reason). */
  async refund(r: Reservation): Promise<void> {
    await inLimiterTransaction(this.store, async () => {
      for (const w of r.windows) {
        const c = this.counters[w.index]!;
        const key = this.keyOf(c, r.keys)!;
        const res = await c.limiter.get(key);
        // A window that rolled over since the reservation starts fresh: nothing to give back.
        if (res && Math.abs(Date.now() + res.msBeforeNext - w.expiresAt) < 2000)
          await c.limiter.reward(key, r.credits);
      }
    });
  }

  /** The public free-usage status: percentages and a reason, never counts or hashes. */
  async status(keys: GuestKeys): Promise<FreeUsageStatus> {
    let percent: number | null = null;
    if (keys.identity !== undefined) {
      percent = 100;
      for (const c of this.counters.filter((x) => x.period === 'daily')) {
        const res = await c.limiter.get(this.keyOf(c, keys)!);
        const left = Math.max(c.points - (res?.consumedPoints ?? 0), 0);
        percent = Math.min(percent, remainingPercent(left, c.points));
      }
    }
    const text = await this.check(keys, 1);
    return {
      daily_remaining_percent: percent,
      can_send_text: text.ok,
      reason: text.ok ? 'available' : text.reason,
    };
  }
}

/** Rounded to the nearest whole percent, but 0 only when nothing at all is left. */
export function remainingPercent(left: number, points: number): number {
  if (points <= 0 || left <= 0) return 0;
  return Math.max(1, Math.round((100 * left) / points));
}

/** The 429 for an exhausted allowance: rejected at once, never queued. */
export function exhausted(reason: LimitReason, retryAfterMs: number): SkillflowError {
  return errors.anonymousLimitExhausted({ reason, retryAfterMs });
}
