/**
 * Upstream health metrics ("monitoring of 4xx/5xx rates"), in Prometheus
 * form through prom-client. Every provider client sends with undici, so the one place that
 * sees every upstream request is undici's diagnostics channels: {@link observeUpstreams}
 * subscribes once per process and names each request's provider by its origin (the configured
 * upstream URLs). Requests to other origins (chat webhooks) are not counted. Labels are the
 * provider, the status class and the outcome only: never a path, query or body.
 */
import diagnostics from 'node:diagnostics_channel';
import { Counter, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.js';

/** The process's metrics registry, served by GET /metrics. */
export const metricsRegistry = new Registry();

const requests = new Counter({
  name: 'skillflow_upstream_requests_total',
  help: 'Upstream requests by provider and status class (2xx, 3xx, 4xx, 5xx, error = no answer).',
  labelNames: ['provider', 'status_class'] as const,
  registers: [metricsRegistry],
});

const latency = new Histogram({
  name: 'skillflow_upstream_request_duration_seconds',
  help: 'Time from sending an upstream request to its response headers (or failure), by provider.',
  labelNames: ['provider', 'status_class'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

const cache = new Counter({
  name: 'skillflow_upstream_cache_lookups_total',
  help: 'Upstream result cache lookups by provider and result (hit or miss).',
  labelNames: ['provider', 'result'] as const,
  registers: [metricsRegistry],
});

/** Counts one cache lookup of a provider's results. */
export function recordCacheLookup(provider: string, hit: boolean): void {
  cache.inc({ provider, result: hit ? 'hit' : 'miss' });
}

/** `2xx` … `5xx`, from a status code. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

interface ChannelRequest {
  origin?: string | URL;
}

let providerOf: (origin: string) => string | undefined = () => undefined;
let subscribed = false;
const started = new WeakMap<object, { provider: string; at: number }>();

function finish(request: object, klass: string): void {
  const s = started.get(request);
  if (!s) return;
  started.delete(request);
  requests.inc({ provider: s.provider, status_class: klass });
  latency.observe({ provider: s.provider, status_class: klass }, (performance.now() - s.at) / 1000);
}

/** The provider of a request origin, when it is a configured upstream's (see {@link observeUpstreams}). */
export function upstreamProvider(origin: string): string | undefined {
  return providerOf(origin.toLowerCase());
}

/**
 * Starts counting upstream requests, naming each by the first upstream whose origin matches;
 * a later call replaces the list (the dev simulators' URLs are known only after boot).
 */
export function observeUpstreams(upstreams: readonly UpstreamOrigin[]): void {
  providerOf = (origin) => upstreams.find((u) => u.origin.test(origin.toLowerCase()))?.provider;
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('undici:request:create', (msg) => {
    const { request } = msg as { request: ChannelRequest };
    const origin = request.origin ? new URL(String(request.origin)).origin : undefined;
    const provider = origin ? providerOf(origin) : undefined;
    if (provider) started.set(request, { provider, at: performance.now() });
  });
  diagnostics.subscribe('undici:request:headers', (msg) => {
    const { request, response } = msg as { request: object; response: { statusCode: number } };
    finish(request, statusClass(response.statusCode));
  });
  diagnostics.subscribe('undici:request:error', (msg) => {
    finish((msg as { request: object }).request, 'error');
  });
}

/** One upstream: its provider id and a pattern matching its request origins. */
export interface UpstreamOrigin {
  provider: string;
  origin: RegExp;
}

/**
 * The origin pattern of a configured upstream URL; `{language}` in the host (a per-edition
 * encyclopedia host) matches any label.
 */
export function originPattern(url: string): RegExp | undefined {
  const m = /^(https?:\/\/[^/?#]+)/iu.exec(url);
  if (!m) return undefined;
  const escaped = m[1]!.toLowerCase().replace(/[.*+?^$()|[\]\\]/gu, '\\$&');
  return new RegExp(`^${escaped.replaceAll('{language}', '[a-z0-9-]+').replace(/:(80|443)$/u, '')}$`, 'u');
}

/** The upstreams of a configuration, for {@link observeUpstreams}. */
export function upstreamOrigins(config: Config): UpstreamOrigin[] {
  const urls: [string, string | undefined][] = [
    ['shop', config.apps.hosting.SHOP_URL],
    ['icons', config.apps.design.ICON_URL],
    ['encyclopedia', config.apps.encyclopedia.ENCYCLOPEDIA_URL],
    ['decision', config.decision.DECISION_URL],
    ['power', config.apps.electronics.POWER_URL],
  ];
  return urls.flatMap(([provider, url]) => {
    const origin = url ? originPattern(url) : undefined;
    return origin ? [{ provider, origin }] : [];
  });
}
