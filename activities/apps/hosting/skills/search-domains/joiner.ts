/**
 * Joins the shop's suggestion stream. Events arrive in any order:
 * `das` and `billing` may precede the `suggestions` naming their FQDN, so they are buffered by
 * canonical ASCII FQDN (`bücher.ai` and `xn--bcher-kva.ai` meet). Candidate order is the
 * first-seen order of `suggestions` across pages. Pure: no clock, no I/O.
 */
import {
  hasPricing,
  type DasEvent,
  type Prices,
  type ShopStreamEvent,
  type Suggestion,
} from '../../upstream/wire.js';
import { canonicalDomain, checkDomainName, displayName, matchesSuffixes } from './names.js';

/** Availability as the skill reports it; upstream `error` and failed checks are `unknown`. */
export type Availability = 'available' | 'unavailable' | 'unknown';

/** One checked (or still pending) candidate; the common input of result mapping. */
export interface CheckedCandidate {
  /** Canonical ASCII FQDN: the identity everything joins on. */
  domain: string;
  domain_unicode: string;
  /** Undefined until a `das`/`das_failed` (or a lookup) answered. */
  availability: Availability | undefined;
  premium: boolean;
  reserved: boolean;
  corporate: boolean;
  /** Upstream restriction text (may be HTML); reduced to plain text when mapped. */
  restriction: string | null;
  /** The pricing object that arrived for this FQDN, if any. */
  prices: Prices | undefined;
  /** True when `billing_failed` arrived and no `billing` did. */
  billingFailed: boolean;
}

/** Maps an upstream availability string; anything but the two confirmed values is unknown. */
export function toAvailability(value: string): Availability {
  return value === 'available' || value === 'unavailable' ? value : 'unknown';
}

/** A candidate is complete once its availability is known; price may legitimately be missing. */
export function isCandidateComplete(candidate: CheckedCandidate): boolean {
  return candidate.availability !== undefined;
}

interface Status {
  availability: Availability;
  premium: boolean;
  reserved: boolean;
}

/** What the joiner has when asked: complete candidates in order, and whether the stream ended. */
export interface JoinSnapshot {
  /** True when `done` was seen on the current stream. */
  complete: boolean;
  /** Complete candidates in suggestion order (useful even when the stream was cut). */
  candidates: CheckedCandidate[];
  /** How many suggested candidates still lack an availability answer. */
  pending: number;
}

/** The stream joiner: feed it every parsed event with {@link StreamJoiner.push}. */
export class StreamJoiner {
  private readonly order: string[] = [];
  private readonly suggestions = new Map<string, Suggestion>();
  private readonly statuses = new Map<string, Status>();
  private readonly prices = new Map<string, Prices>();
  private readonly billingFailures = new Set<string>();
  private done = false;
  private pagesSeen = 0;
  private nextPage: string | null = null;
  private dropped = 0;

  /** @param suffixes requested extensions; suggestions under any other suffix are dropped. */
  constructor(private readonly suffixes?: readonly string[]) {}

  /** True once `done` was seen on the current stream. */
  get isComplete(): boolean {
    return this.done;
  }

  /** Suggestions dropped because they were outside the suffix set or not valid names. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** `pagination` events seen, and the last `next` link (null when there is no next page). */
  get pagination(): { pages: number; next: string | null } {
    return { pages: this.pagesSeen, next: this.nextPage };
  }

  /** Starts the next page's stream: candidates are kept, completion is awaited again. */
  startStream(): void {
    this.done = false;
  }

  /** Applies one event. Events naming an invalid FQDN are ignored. */
  push(event: ShopStreamEvent): void {
    switch (event.event) {
      case 'suggestions':
        for (const suggestion of event.data) this.addSuggestion(suggestion);
        return;
      case 'das':
        return this.setStatus(event.data, toAvailability(event.data.availability));
      case 'das_failed':
        return this.setStatus(event.data, 'unknown');
      case 'billing':
      case 'billing_failed': {
        const fqdn = canonicalDomain(event.data.fqdn);
        if (fqdn === undefined) return;
        // Unreadable pricing (prices null) is a failed quote: availability stays as checked.
        if (event.event === 'billing_failed' || event.data.prices === null) this.billingFailures.add(fqdn);
        else if (hasPricing(event.data.prices)) this.prices.set(fqdn, event.data.prices);
        return;
      }
      case 'pagination':
        this.pagesSeen += 1;
        this.nextPage = event.data.next ?? null;
        return;
      case 'done':
        this.done = true;
        return;
      case 'suggest_meta':
      case 'tick':
        return;
    }
  }

  private addSuggestion(suggestion: Suggestion): void {
    const name = checkDomainName(suggestion.fqdn);
    if (!name.ok || !matchesSuffixes(name.ascii, this.suffixes)) {
      this.dropped += 1;
      return;
    }
    if (this.suggestions.has(name.ascii)) return;
    this.suggestions.set(name.ascii, suggestion);
    this.order.push(name.ascii);
  }

  private setStatus(data: DasEvent, availability: Availability): void {
    const fqdn = canonicalDomain(data.fqdn);
    if (fqdn === undefined) return;
    // A confirmed answer is never replaced by an unknown one, whatever the order.
    if (availability === 'unknown' && this.statuses.has(fqdn)) return;
    this.statuses.set(fqdn, {
      availability,
      premium: (data.premium ?? 0) > 0,
      reserved: (data.reserved ?? 0) > 0,
    });
  }

  /** All suggested candidates in order, complete or not. */
  candidates(): CheckedCandidate[] {
    return this.order.map((domain) => this.candidate(domain));
  }

  /** Complete candidates in order; what survives a timeout (the group is then partial). */
  snapshot(): JoinSnapshot {
    const all = this.candidates();
    const complete = all.filter(isCandidateComplete);
    return { complete: this.done, candidates: complete, pending: all.length - complete.length };
  }

  private candidate(domain: string): CheckedCandidate {
    const suggestion = this.suggestions.get(domain);
    const status = this.statuses.get(domain);
    const prices = this.prices.get(domain);
    return {
      domain,
      domain_unicode: displayName(domain),
      availability: status?.availability,
      premium: status?.premium ?? false,
      reserved: status?.reserved ?? false,
      corporate: suggestion?.corporate === true,
      restriction: suggestion?.restriction ?? null,
      prices,
      billingFailed: prices === undefined && this.billingFailures.has(domain),
    };
  }
}
