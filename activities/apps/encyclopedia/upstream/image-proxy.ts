/**
 * The thumbnail proxy (thumbnail bytes come through the service). Only URLs
 * on ENCYCLOPEDIA_IMAGE_HOSTS are fetched; a named host must resolve to public addresses only
 * (lib/net/address-policy.ts) and the connection is pinned to the checked address; an IP entry
 * is the operator's explicit choice (the simulator on loopback). Redirects are followed only
 * on the same host; only raster `image/*` types are served (never SVG, which can script); the
 * size is capped. Every refusal is IMAGE_REFUSED with a `reason`, never the URL.
 */
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { errors } from '../../../../lib/errors/errors.js';
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import { isAllowedAddress } from '../../../../lib/net/address-policy.js';
import { pinnedLookup, systemResolve, type ResolveHost } from '../../../../lib/net/webhook.js';

const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp|avif)$/;
const MAX_HOPS = 2;

export type ImageRefusal = 'host' | 'address' | 'content_type' | 'size' | 'redirect';

export interface ImageProxyOptions {
  allowedHosts: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  userAgent: string;
  resolve?: ResolveHost;
}

export interface ProxiedImage {
  contentType: string;
  bytes: Buffer;
}

export function refused(reason: ImageRefusal): SkillflowError {
  return new SkillflowError('IMAGE_REFUSED', undefined, { reason });
}

/** Whether `url` is on the allow-list: `host` entries match on the default port, `host:port` exactly. */
export function isAllowedImageUrl(url: URL, allowedHosts: readonly string[]): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  const host = url.host.toLowerCase();
  return allowedHosts.some(
    (entry) => entry === host || (entry === url.hostname.toLowerCase() && url.port === ''),
  );
}

/** Fetches one allowed image; `send` runs the request under the outbound guard. */
export async function fetchImage(
  src: string,
  opts: ImageProxyOptions,
  send: <T>(fn: () => Promise<T>) => Promise<T>,
  signal: AbortSignal,
): Promise<ProxiedImage> {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    throw refused('host');
  }
  for (let hop = 0; ; hop++) {
    if (!isAllowedImageUrl(url, opts.allowedHosts)) throw refused(hop === 0 ? 'host' : 'redirect');
    const target = url;
    const res = await send(() => get(target, opts, signal));
    if ('location' in res) {
      const next = new URL(res.location, url);
      if (next.host !== url.host || hop >= MAX_HOPS) throw refused('redirect');
      url = next;
      continue;
    }
    return res;
  }
}

async function pinnedAddress(url: URL, resolve: ResolveHost) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP literal on the allow-list was named by the operator; a host name must resolve public.
  if (isIP(host)) return { address: host, family: isIP(host) };
  const addresses = await resolve(host).catch(() => []);
  const first = addresses[0];
  if (!first || !addresses.every((a) => isAllowedAddress(a.address, { allowLoopback: false })))
    throw refused('address');
  return first;
}

async function get(
  url: URL,
  opts: ImageProxyOptions,
  signal: AbortSignal,
): Promise<ProxiedImage | { location: string }> {
  const address = await pinnedAddress(url, opts.resolve ?? systemResolve);
  const agent = new Agent({
    connect: { lookup: pinnedLookup(address), timeout: opts.timeoutMs },
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });
  try {
    const res = await request(url, {
      method: 'GET',
      dispatcher: agent,
      headers: { 'user-agent': opts.userAgent, accept: 'image/*' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs)]),
    }).catch(() => {
      throw errors.upstreamUnavailable({
        provider: 'encyclopedia',
        message: 'The image host is unavailable.',
      });
    });
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
      await res.body.dump();
      return { location };
    }
    if (res.statusCode !== 200) {
      await res.body.dump().catch(() => undefined);
      if (res.statusCode === 404) throw errors.notFound('The image does not exist.');
      throw errors.upstreamUnavailable({
        provider: 'encyclopedia',
        message: 'The image host is unavailable.',
      });
    }
    const contentType = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!IMAGE_TYPE.test(contentType)) {
      await res.body.dump().catch(() => undefined);
      throw refused('content_type');
    }
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > opts.maxBytes) {
      await res.body.dump().catch(() => undefined);
      throw refused('size');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      // Leaving the loop closes (and discards) the rest of the body.
      if (size > opts.maxBytes) throw refused('size');
      chunks.push(chunk);
    }
    return { contentType, bytes: Buffer.concat(chunks) };
  } finally {
    await agent.close().catch(() => undefined);
  }
}
