/**
 * Guest calls (`client.anonymous`): skills open to guests, without a token, as the guest
 * `anonymousId` (sent in `X-Skillflow-Anonymous-ID`; keep it stable so the free allowance
 * follows the guest). A call asks the quote route first and hands the price and the remaining
 * free allowance to `confirm` before anything runs; a quote that cannot run, or one `confirm`
 * declines, throws {@link GuestQuoteError} and runs nothing.
 */
import { SkillflowClientError } from './errors.js';
import type { FreeUsageStatus } from './generated.js';
import type { Transport } from './http.js';
import type { AnonymousSkillCallCompleted } from './types.js';

const GUEST_HEADER = 'x-skillflow-anonymous-id';

/** The body of POST /v1/anonymous/apps/{app}/skills/{skill}/quote. */
export interface GuestQuote {
  app_id: string;
  skill_id: string;
  /** Whether the allowances and the provider limits let the call run now. */
  can_run: boolean;
  /** What the call costs. */
  credits: number;
  /** `available`, a used-up allowance (`daily_limit_reached`, ...) or `provider_busy`. */
  reason: string;
  retry_after_seconds: number | null;
  /** The guest's free allowance before the call. */
  free_usage: FreeUsageStatus;
}

/** A guest call refused before it ran: the quote says it cannot run, or `confirm` declined it. */
export class GuestQuoteError extends SkillflowClientError {
  constructor(
    code: 'QUOTE_REFUSED' | 'QUOTE_DECLINED',
    message: string,
    readonly quote: GuestQuote,
  ) {
    super(code, message);
  }
}

export interface GuestCallOptions {
  /** The guest's stable id: 16-128 letters, digits, `_` or `-`. */
  anonymousId: string;
  /** Sees the quote (price, allowance) before the call; return false to run nothing. */
  confirm?: (quote: GuestQuote) => boolean | Promise<boolean>;
  signal?: AbortSignal;
}

/** `client.anonymous`. */
export interface AnonymousClient {
  /** What a call would cost and whether the allowance covers it; nothing runs. */
  quote(appId: string, skillId: string, input: unknown, opts: { anonymousId: string }): Promise<GuestQuote>;
  /** Quotes, lets `confirm` see the quote, then calls (one request item). */
  call<O = Record<string, unknown>>(
    appId: string,
    skillId: string,
    input: unknown,
    opts: GuestCallOptions,
  ): Promise<{ quote: GuestQuote; result: AnonymousSkillCallCompleted<O> }>;
  /** The guest's remaining free usage. */
  freeUsage(anonymousId: string): Promise<FreeUsageStatus>;
}

const skillPath = (appId: string, skillId: string) =>
  `/v1/anonymous/apps/${encodeURIComponent(appId)}/skills/${encodeURIComponent(skillId)}`;

/** Creates `client.anonymous`. The client's token, if any, is not what authorises these calls. */
export function createAnonymousClient(http: Transport): AnonymousClient {
  const quote = async (
    appId: string,
    skillId: string,
    input: unknown,
    opts: { anonymousId: string; signal?: AbortSignal },
  ): Promise<GuestQuote> =>
    (
      await http.send<GuestQuote>({
        method: 'POST',
        path: `${skillPath(appId, skillId)}/quote`,
        json: input,
        headers: { [GUEST_HEADER]: opts.anonymousId },
        ...(opts.signal ? { signal: opts.signal } : {}),
      })
    ).body;
  return {
    quote,
    async call<O>(appId: string, skillId: string, input: unknown, opts: GuestCallOptions) {
      const q = await quote(appId, skillId, input, opts);
      if (!q.can_run)
        throw new GuestQuoteError(
          'QUOTE_REFUSED',
          q.retry_after_seconds !== null
            ? `The guest call cannot run now (${q.reason}); retry in ${q.retry_after_seconds} s.`
            : `The guest call cannot run now (${q.reason}).`,
          q,
        );
      if (opts.confirm && !(await opts.confirm(q)))
        throw new GuestQuoteError(
          'QUOTE_DECLINED',
          'The guest call was declined at its quote; nothing ran.',
          q,
        );
      const result = (
        await http.send<AnonymousSkillCallCompleted<O>>({
          method: 'POST',
          path: skillPath(appId, skillId),
          json: input,
          headers: { [GUEST_HEADER]: opts.anonymousId },
          ...(opts.signal ? { signal: opts.signal } : {}),
        })
      ).body;
      return { quote: q, result };
    },
    async freeUsage(anonymousId: string) {
      return (
        await http.send<FreeUsageStatus>({
          method: 'GET',
          path: '/v1/anonymous/free-usage/status',
          query: { anonymous_id: anonymousId },
        })
      ).body;
    },
  };
}
