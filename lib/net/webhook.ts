/**
 * Outbound webhooks without SSRF. A URL is checked when it is registered and again at every
 * delivery: https on port 443 only, no credentials, and a host whose every resolved address is
 * public (lib/net/address-policy.ts). The delivery connects to the very address it checked (a
 * pinned lookup, so a DNS answer cannot change between check and connect) while TLS keeps SNI
 * and certificate verification on the hostname. Redirects are never followed.
 *
 * `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK, refused in production) additionally allows hosts that
 * resolve only to loopback, on any port and over plain http, for local receivers and tests.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { SecurityConfig } from '../config.js';
import { classifyAddress, isAllowedAddress } from './address-policy.js';

/** Resolves a hostname to every address it has (injectable, so tests never use real DNS). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (getaddrinfo), every address. */
export const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** What outbound webhooks may reach. */
export interface WebhookPolicy {
  allowLoopback: boolean;
  resolve: ResolveHost;
}

/** A URL that passed the check, with the address to connect to. */
export interface CheckedTarget {
  url: URL;
  address: LookupAddress;
}

/** Problems with the URL itself, named for the client (never echoing the URL). */
export function webhookUrlProblem(raw: string, allowLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:' && (url.port === '' || url.port === '443')) return undefined;
  if (allowLoopback && (url.protocol === 'https:' || url.protocol === 'http:')) return undefined;
  return url.protocol === 'https:' ? 'must use the default https port 443' : 'must use https';
}

/** The message for every host that does not qualify: unresolvable, private, or mixed. */
export const HOST_PROBLEM = 'must name a host that resolves only to public addresses';

/**
 * Checks a URL and resolves its host: the address to connect to, or the problem. With loopback
 * allowed, a loopback host may use http and any port; any other host still needs https on 443.
 */
export async function checkWebhookTarget(
  raw: string,
  policy: WebhookPolicy,
): Promise<{ ok: true; target: CheckedTarget } | { ok: false; problem: string }> {
  const problem = webhookUrlProblem(raw, policy.allowLoopback);
  if (problem) return { ok: false, problem };
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await policy.resolve(host);
  } catch {
    return { ok: false, problem: HOST_PROBLEM };
  }
  const first = addresses[0];
  if (!first || !addresses.every((a) => isAllowedAddress(a.address, policy))) {
    return { ok: false, problem: HOST_PROBLEM };
  }
  const loopback = addresses.every((a) => classifyAddress(a.address) === 'loopback');
  if (!loopback && webhookUrlProblem(raw, false))
    return { ok: false, problem: webhookUrlProblem(raw, false)! };
  return { ok: true, target: { url, address: first } };
}

type LookupCallback = (err: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A lookup that answers every query with the checked address: the connection is pinned to it. */
export function pinnedLookup(address: LookupAddress) {
  return (_host: string, options: { all?: boolean }, callback: LookupCallback) => {
    if (options?.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
}

/** The outcome of one POST: the HTTP status, or `unreachable` for any transport failure. */
export type PostOutcome = { status: number } | { status: 'unreachable' };

/** POSTs JSON to a checked target over a connection pinned to its address; no redirects. */
export async function postJson(
  target: CheckedTarget,
  body: unknown,
  opts: { timeoutMs: number; signal?: AbortSignal; userAgent: string },
): Promise<PostOutcome> {
  const agent = new Agent({
    connect: { lookup: pinnedLookup(target.address), timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  try {
    const res = await request(target.url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'user-agent': opts.userAgent },
      body: JSON.stringify(body),
      signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
    });
    await res.body.dump();
    return { status: res.statusCode };
  } catch {
    return { status: 'unreachable' };
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** The webhook policy from configuration, with the system resolver unless one is given. */
export function webhookPolicy(
  config: Pick<SecurityConfig, 'WEBHOOK_ALLOW_LOOPBACK'>,
  resolve: ResolveHost = systemResolve,
): WebhookPolicy {
  return { allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK, resolve };
}
