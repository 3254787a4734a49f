/**
 * Anonymous skill calls: only skills marked `anonymous_access: inline`, exactly one
 * request item, run in-process (no workflow, no file, no stored content), with no user, chat,
 * message, embed or upload context. Before dispatch the call's credits are reserved against the
 * guest's, the IP's and the shared pool's allowances; an exhausted allowance or provider limit
 * is a 429 at once, never a queue.
 */
import { providerWait } from '../../activities/runtime/provider-uses.js';
import {
  policyDeadlineMs,
  runSkill,
  type FullSkillResult,
  type RunnableSkill,
} from '../../activities/runtime/run-skill.js';
import { createUpstreamMeter } from '../../activities/runtime/upstream-meter.js';
import { errors } from '../../lib/errors/errors.js';
import { refuseUngranted } from '../../activities/registry/restricted-options.js';
import { invalidParameter, parseOrThrow, SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { FreeUsageStatus, LimitReason } from '../../lib/limits/anonymous-credits.js';
import { ANONYMOUS_OWNER, type Limits } from '../../lib/limits/index.js';
import type { ApiDeps } from '../deps.js';

type Skill = RunnableSkill;

/** Not the guest's doing: upstream or platform trouble (a bad request is the guest's). */
function notTheGuests(err: unknown): boolean {
  return !(err instanceof SkillflowError) || err.retryable || err.code === 'INTERNAL';
}

/** What a guest may send as `X-Skillflow-Anonymous-ID` (e.g. a UUID). */
export const GUEST_ID = /^[A-Za-z0-9_-]{16,128}$/;

export interface Quote {
  app_id: string;
  skill_id: string;
  can_run: boolean;
  credits: number;
  reason: LimitReason | 'available' | 'provider_busy';
  retry_after_seconds: number | null;
  /** The guest's free allowance now, before this call: what the free-usage status route answers. */
  free_usage: FreeUsageStatus;
}

/** Every anonymous call costs at least one credit, so a free skill cannot be called unmetered. */
export function anonymousCost(skill: Skill): number {
  return Math.max(1, Math.ceil(skill.manifest.pricing.creditsPerRequest));
}

export class AnonymousCallsService {
  constructor(
    private readonly deps: ApiDeps,
    /** The guests' credits, the provider limits and the guests' share of them (lib/limits/index.ts). */
    readonly limits: Limits,
  ) {}

  /**
   * Guests together are one owner of the provider shares (fair use between tenants): they
   * cannot take more than one owner's share of a provider.
   */
  private guests() {
    return { share: this.limits.ownerShare, ownerId: ANONYMOUS_OWNER };
  }

  /** The skill, if guests may call it: 404 when unknown or unloadable, 403 when not inline. */
  eligible(appId: string, skillId: string): Skill {
    const skill = this.deps.registry.available(appId, skillId);
    if (!skill) throw errors.skillNotFound();
    if (skill.manifest.anonymousAccess !== 'inline') {
      throw new SkillflowError(
        'ANONYMOUS_NOT_ALLOWED',
        `${skill.manifest.appId}.${skill.manifest.id} needs an API token.`,
        {
          authenticated_route: `/v1/apps/${skill.manifest.appId}/skills/${skill.manifest.id}`,
        },
      );
    }
    return skill;
  }

  /** The guest id from the header; a missing or malformed one is INVALID_PARAMETER. */
  guestId(value: unknown): string {
    if (typeof value !== 'string' || !GUEST_ID.test(value)) {
      throw invalidParameter([
        {
          path: 'x-skillflow-anonymous-id',
          message: 'must be 16 to 128 letters, digits, _ or - (a stable guest id such as a UUID)',
        },
      ]);
    }
    return value;
  }

  /** Validates the body with the skill's schema, then the anonymous rule of one request item. */
  parse(skill: Skill, body: unknown): unknown {
    const data = parseOrThrow(skill.impl.input, body);
    const requests = (data as { requests?: unknown[] }).requests;
    if (!Array.isArray(requests) || requests.length !== 1) {
      throw invalidParameter([
        { path: 'requests', message: 'the anonymous route takes exactly one request item' },
      ]);
    }
    // A guest holds no restricted scope.
    refuseUngranted(skill.manifest, data, []);
    return data;
  }

  /** Could this call run now, and what would it cost? Reserves nothing and runs nothing. */
  async quote(skill: Skill, parsed: unknown, guestId: string, ip: string): Promise<Quote> {
    const credits = anonymousCost(skill);
    const credit = this.limits.anonymous;
    const keys = credit.keysFor(guestId, ip);
    const base = {
      app_id: skill.manifest.appId,
      skill_id: skill.manifest.id,
      credits,
      free_usage: await credit.status(keys),
    };
    const available = await credit.check(keys, credits);
    if (!available.ok)
      return {
        ...base,
        can_run: false,
        reason: available.reason,
        retry_after_seconds: Math.ceil(available.retryAfterMs / 1000),
      };
    const wait = await providerWait(skill, parsed, this.limits.providers, this.guests());
    if (wait) {
      return {
        ...base,
        can_run: false,
        reason: 'provider_busy',
        retry_after_seconds: Math.ceil((wait.retryAfterMs ?? 1000) / 1000),
      };
    }
    return { ...base, can_run: true, reason: 'available', retry_after_seconds: null };
  }

  /**
   * Checks the provider limits (a used-up one is a 429 at once, never a wait), reserves the
   * credits, and runs the skill in-process under its policy deadline with an upstream meter
   * (activities/runtime/run-skill.ts). The reservation is refunded only when the call sent
   * nothing upstream and the failure was not the guest's doing: a guest cannot get free calls
   * by making the upstream fail, nor by sending bad requests.
   */
  async call(skill: Skill, input: unknown, guestId: string, ip: string): Promise<FullSkillResult> {
    const busy = await providerWait(skill, input, this.limits.providers, this.guests());
    if (busy) throw busy;
    const reservation = await this.limits.charge('anonymous_credits', {
      keys: this.limits.anonymous.keysFor(guestId, ip),
      credits: anonymousCost(skill),
    });
    const meter = createUpstreamMeter({
      skill: `${skill.manifest.appId}.${skill.manifest.id}`,
      limits: this.limits.providers,
      share: this.guests(),
    });
    try {
      return await runSkill(skill, input, {
        view: 'full',
        meter,
        anonymous: true,
        deadlineMs: policyDeadlineMs(skill),
        validated: true,
      });
    } catch (err) {
      if (meter.total() === 0 && notTheGuests(err))
        await this.limits.refund('anonymous_credits', reservation);
      throw err;
    }
  }
}
