/**
 * Every rate, quota, credit and queue limit of the platform, built from the configuration and
 * the store by {@link createLimits}, once per process by the composition root (with the Temporal
 * client the owner quotas need); the API and the worker's activities charge that one object.
 * Nothing else constructs a limiter. `charge(kind, subject)` counts one
 * use of a limit (or throws its 429), `busy(kind, subject)` reads whether a limit would refuse,
 * `refund(kind, …)` gives a charge back. The implementations behind each kind stay available
 * (`limits.tier`, `limits.providers`, …) for what the generic calls cannot say: the
 * one-statement charge of a skill call's counters (api/services/call-limits.ts), the tier's
 * X-RateLimit-* headers, the guests' free-usage status. README.md lists every limit, its counter
 * and whether it is shared by every replica or kept per process.
 */
import { hkdfSync } from 'node:crypto';
import type { Plan } from '../../definitions/index.js';
import type { Config } from '../config.js';
import { subkey, type Keyring } from '../crypto/keyring.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import type { Principal } from '../keys.js';
import type { SecretStore } from '../secrets.js';
import type { Store } from '../store/db.js';
import type { StoredDefinition } from '../store/owners/definitions.js';
import { CallQueue, type QueuedCall } from '../store/owners/skill-call-queue.js';
import type { TemporalClient } from '../temporal/client.js';
import {
  allowancesFromConfig,
  AnonymousCredits,
  type GuestKeys,
  type Reservation,
} from './anonymous-credits.js';
import { CounterLeases } from './counter-leases.js';
import { IpRateLimit } from './ip-rate-limit.js';
import { KeyedRateLimit } from './keyed-rate-limit.js';
import { LeasedIpLimit } from './leased-ip-limit.js';
import {
  ANONYMOUS_OWNER,
  createOwnerProviderShare,
  type OwnerProviderShare,
} from './owner-provider-share.js';
import { OwnerQuotas, ownerLimitsFromConfig } from './owner-quotas.js';
import { createProviderLimits, type ProviderLimits, type ProviderUse } from './provider-limits.js';
import { tierLimitsFromConfig, TierRateLimits, type RateLimitHeaders } from './tier-limits.js';

export { ANONYMOUS_OWNER };

/** What the limits are built from. */
export interface LimitsDeps {
  config: Config;
  store: Store;
  /** Derives the keys the per-address and per-key counters are hashed with. */
  keyring: Keyring;
  /** `anonymous_hash_secret`, when the operator sets one, keys the guests' counters. */
  secrets?: SecretStore;
  /** Counts open tasks for the owner quotas; without it, `owner_quota` charges throw. */
  temporal?: TemporalClient;
}

/** Each kind `charge` takes: what it counts (`subject`) and what a charge answers (`result`). */
export interface ChargeKinds {
  /**
   * One request of an authenticated caller against its tier's per-minute limit; sets the
   * X-RateLimit-* headers and answers the RATE_LIMITED error instead of throwing it (routes
   * that queue queue to its reset).
   */
  tier: { subject: { principal: Principal; headers: RateLimitHeaders }; result: SkillflowError | undefined };
  /** One request of an unauthenticated route, by client address key. */
  ip: { subject: string; result: void };
  /** One request to a webhook trigger's URL, by hook id (before its signature is checked). */
  hook: { subject: string; result: void };
  /** One encyclopedia route request, by API key id. */
  encyclopedia_owner: { subject: string; result: void };
  /** One encyclopedia route request, by client address key. */
  encyclopedia_ip: { subject: string; result: void };
  /** One icon SVG request, by client address key. */
  icon_svg_ip: { subject: string; result: void };
  /** One request sent to a provider for a skill (and model). */
  provider: { subject: { provider: string; skill: string; model?: string | undefined }; result: void };
  /** `points` of the owner's share of each provider, all or nothing. */
  owner_share: { subject: { ownerId: string; providers: readonly string[]; points?: number }; result: void };
  /** A guest's credits against its nine allowances; the reservation a refund gives back. */
  anonymous_credits: { subject: { keys: GuestKeys; credits: number }; result: Reservation };
  /** One more of an owner's definitions, schedules, running runs or open skill-call tasks. */
  owner_quota: { subject: OwnerQuotaUse; result: void };
  /** One call waiting in its API key's queue. */
  queued_call: { subject: QueuedCall; result: void };
}

/** What an owner quota charge adds. */
export type OwnerQuotaUse =
  | { ownerId: string; quota: 'running_runs' | 'queued_tasks' }
  /** A definition save: a new definition, and a schedule it adds. */
  | { ownerId: string; quota: 'definitions'; plan: Plan; current?: StoredDefinition | undefined };

export type LimitKind = keyof ChargeKinds;

/** The kinds `busy` reads without charging. */
export interface BusyKinds {
  /** The provider limits of the uses a call of `skill` announces. */
  provider: { skill: string; uses: readonly ProviderUse[] };
  /** The owner's share of each provider. */
  owner_share: { ownerId: string; providers: readonly string[] };
}

/** The kinds `refund` gives back. */
export interface RefundKinds {
  anonymous_credits: Reservation;
}

export interface Limits {
  /** Charges one use of `kind` to `subject`; throws the limit's 429 once it is used up. */
  charge<K extends LimitKind>(kind: K, subject: ChargeKinds[K]['subject']): Promise<ChargeKinds[K]['result']>;
  /** Read-only: the 429 `kind` would answer now, or undefined when it has room. */
  busy<K extends keyof BusyKinds>(kind: K, subject: BusyKinds[K]): Promise<SkillflowError | undefined>;
  /** Gives a charge back (a guest call that failed for an upstream or platform reason). */
  refund<K extends keyof RefundKinds>(kind: K, charge: RefundKinds[K]): Promise<void>;
  readonly tier: TierRateLimits;
  /** This process's leases of store counters (lib/limits/counter-leases.ts). */
  readonly leases: CounterLeases;
  readonly providers: ProviderLimits;
  readonly ownerShare: OwnerProviderShare;
  readonly anonymous: AnonymousCredits;
  /** Undefined without a Temporal client (the worker). */
  readonly ownerQuotas: OwnerQuotas | undefined;
}

/** A 32-byte key for hashing counter subjects, derived from the active key for `purpose`. */
function hashKey(keyring: Keyring, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', keyring.keys.get(keyring.activeKeyId)!, '', purpose, 32));
}

/** The guests' counter secret: the operator's, else the keyring's guest-hash subkey (stable across rotations). */
function guestSecret(deps: LimitsDeps): Buffer {
  const configured = deps.secrets?.get('anonymous_hash_secret');
  return configured
    ? Buffer.from(configured, 'utf8')
    : subkey(deps.keyring, deps.keyring.hashKeyId, 'guest-hash');
}

type Chargers = {
  [K in LimitKind]: (subject: ChargeKinds[K]['subject']) => Promise<ChargeKinds[K]['result']>;
};
type Readers = { [K in keyof BusyKinds]: (subject: BusyKinds[K]) => Promise<SkillflowError | undefined> };
type Refunders = { [K in keyof RefundKinds]: (charge: RefundKinds[K]) => Promise<void> };

/** Every limit of one process, from the configuration (docs/configuration.md). */
export function createLimits(deps: LimitsDeps): Limits {
  const { config, store } = deps;
  // This process's leases of store counters, shared by the tier limit and skill calls.
  const leases = new CounterLeases(store);
  const tier = new TierRateLimits(store, tierLimitsFromConfig(config.limits), leases);
  const providers = createProviderLimits(config.limits, store);
  const ownerShare = createOwnerProviderShare(config.limits, store);
  const anonymous = new AnonymousCredits(store, allowancesFromConfig(config.limits), guestSecret(deps));
  const ip = new IpRateLimit(
    store,
    config.limits.PUBLIC_RATE_LIMIT_PER_MINUTE,
    hashKey(deps.keyring, 'skillflow ip rate limit'),
  );
  const perHook = new KeyedRateLimit(
    store,
    'webhook per hook',
    config.limits.HOOK_RATE_LIMIT_PER_MINUTE,
    hashKey(deps.keyring, 'skillflow hook limits'),
  );
  const encyclopediaKey = hashKey(deps.keyring, 'skillflow encyclopedia limits');
  const perOwner = new KeyedRateLimit(
    store,
    'encyclopedia per owner',
    config.apps.encyclopedia.ENCYCLOPEDIA_OWNER_PER_MINUTE,
    encyclopediaKey,
  );
  const perAddress = new KeyedRateLimit(
    store,
    'encyclopedia per address',
    config.apps.encyclopedia.ENCYCLOPEDIA_IP_PER_MINUTE,
    encyclopediaKey,
  );
  const iconSvg = new LeasedIpLimit(store, {
    name: 'icon svg',
    label: 'The icon SVG route',
    perMinute: config.apps.design.ICON_SVG_RATE_LIMIT_PER_MINUTE,
    hashKey: hashKey(deps.keyring, 'skillflow icon svg limit'),
  });
  const queue = new CallQueue(store, config.limits.QUEUE_MAX_PER_KEY);
  const ownerQuotas =
    deps.temporal && new OwnerQuotas(deps.temporal, store, ownerLimitsFromConfig(config.limits));
  const quotas = (): OwnerQuotas => {
    if (!ownerQuotas) throw new Error('owner quotas need the Temporal client');
    return ownerQuotas;
  };

  const chargers: Chargers = {
    tier: ({ principal, headers }) => tier.apply(principal, headers),
    ip: (ipKey) => ip.consume(ipKey),
    hook: (hookId) => perHook.consume(hookId),
    encyclopedia_owner: (ownerId) => perOwner.consume(ownerId),
    encyclopedia_ip: (ipKey) => perAddress.consume(ipKey),
    icon_svg_ip: (ipKey) => iconSvg.consume(ipKey),
    provider: ({ provider, skill, model }) => providers.charge(provider, skill, model),
    owner_share: ({ ownerId, providers: used, points }) => ownerShare.acquire(ownerId, used, points ?? 1),
    anonymous_credits: ({ keys, credits }) => anonymous.reserve(keys, credits),
    owner_quota: async (use) => {
      if (use.quota === 'definitions') return quotas().checkSave(use.ownerId, use.plan, use.current);
      return use.quota === 'running_runs'
        ? quotas().checkRunStart(use.ownerId)
        : quotas().checkSkillCall(use.ownerId);
    },
    queued_call: (call) => queue.enqueue(call),
  };
  const readers: Readers = {
    provider: ({ skill, uses }) => providers.busy(skill, uses),
    owner_share: ({ ownerId, providers: used }) => ownerShare.busy(ownerId, used),
  };
  const refunders: Refunders = {
    anonymous_credits: (reservation) => anonymous.refund(reservation),
  };

  return {
    charge: (kind, subject) => chargers[kind](subject),
    busy: (kind, subject) => readers[kind](subject),
    refund: (kind, charge) => refunders[kind](charge),
    tier,
    leases,
    providers,
    ownerShare,
    anonymous,
    ownerQuotas,
  };
}
