/**
 * The Iconify-API-compatible upstream client (`ICON_URL`): undici, the zod wire types in
 * ./wire.ts, a timeout per request, and 429 `Retry-After` honoured: after a 429 no request is
 * sent until the time it names has passed (calls fail at once with UPSTREAM_RATE_LIMITED); with
 * the platform store, by any process (lib/limits/cool-down-gate.ts).
 * Errors are catalogue errors; messages never quote the query or the upstream body.
 */
import { request } from 'undici';
import type { z } from 'zod';
import { errors } from '../../../../lib/errors/errors.js';
import { CoolDownGate } from '../../../../lib/limits/cool-down-gate.js';
import type { Store } from '../../../../lib/store/db.js';
import type { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import { parseWire } from '../../../parse-wire.js';
import type { IconCallContext, IconCollection, IconProvider, IconSize } from './provider.js';
import { WireIconSetSchema, WireSearchSchema, type WireCollection } from './wire.js';

/** The upstream clamps `/search` limits to 32-999; we ask for enough to survive filtering. */
export const UPSTREAM_SEARCH_MIN = 32;
export const UPSTREAM_SEARCH_MAX = 999;
/** Largest SVG or JSON body we read from the upstream. */
export const MAX_UPSTREAM_BYTES = 1024 * 1024;
const DEFAULT_RETRY_AFTER_S = 30;

export interface IconClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Clock for the Retry-After gate (tests). */
  now?: () => number;
  /** Shares the Retry-After gate with every process on this store. */
  store?: Store | undefined;
}

function unavailable(message: string, details: Record<string, unknown> = {}): SkillflowError {
  return errors.upstreamUnavailable({ provider: 'icons', message, details });
}

const slowDown = (retryAfterMs: number) =>
  errors.upstreamSlowDown({ upstream: 'The icon upstream', provider: 'icons', retryAfterMs });

function retryAfterSeconds(header: string | string[] | undefined, now: number): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return DEFAULT_RETRY_AFTER_S;
  if (/^\d+$/u.test(value.trim())) return Math.max(1, Number(value.trim()));
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil((date - now) / 1000));
}

function toCollection(prefix: string, c: WireCollection): IconCollection {
  return { prefix, name: c.name, license: c.license, author: c.author };
}

/** Creates the upstream provider, with its Retry-After gate. */
export function createIconClient(opts: IconClientOptions): IconProvider {
  const base = opts.baseUrl.replace(/\/+$/u, '');
  const timeoutMs = opts.timeoutMs;
  const now = opts.now ?? Date.now;
  const gate = new CoolDownGate('icons', opts.store, now);

  /** GET one path; undefined on 404. */
  async function get(path: string, ctx: IconCallContext): Promise<string | undefined> {
    const closedFor = await gate.remainingMs();
    if (closedFor > 0) throw slowDown(closedFor);
    await ctx.beforeRequest?.();
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
    let res;
    try {
      res = await request(`${base}${path}`, {
        method: 'GET',
        headers: { accept: 'application/json, image/svg+xml' },
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      throw unavailable('The icon upstream did not answer in time or could not be reached.');
    }
    if (res.statusCode === 404) {
      await res.body.dump();
      return undefined;
    }
    if (res.statusCode === 429) {
      await res.body.dump();
      const seconds = retryAfterSeconds(res.headers['retry-after'], now());
      await gate.close(now() + seconds * 1000);
      throw slowDown(seconds * 1000);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw unavailable(`The icon upstream answered HTTP ${res.statusCode}.`, { status: res.statusCode });
    }
    try {
      const text = await res.body.text();
      if (Buffer.byteLength(text) > MAX_UPSTREAM_BYTES) throw new Error('too large');
      return text;
    } catch {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      throw unavailable('The icon upstream answer was cut off or too large.');
    }
  }

  async function getJson<S extends z.ZodType>(
    path: string,
    schema: S,
    ctx: IconCallContext,
  ): Promise<z.infer<S> | undefined> {
    const text = await get(path, ctx);
    if (text === undefined) return undefined;
    return parseWire(text, schema, 'icons', 'icon upstream');
  }

  return {
    kind: 'upstream',
    async search({ query, limit, prefixes }, ctx) {
      const params = new URLSearchParams({
        query,
        limit: String(Math.min(UPSTREAM_SEARCH_MAX, Math.max(UPSTREAM_SEARCH_MIN, limit))),
      });
      if (prefixes?.length) params.set('prefixes', prefixes.join(','));
      const answer = await getJson(`/search?${params.toString()}`, WireSearchSchema, ctx);
      if (!answer) throw unavailable('The icon upstream has no search route.', { status: 404 });
      const icons = answer.icons.map((id) => {
        const [prefix = '', name = ''] = id.split(':');
        return { prefix, name };
      });
      const collections: Record<string, IconCollection> = {};
      for (const [prefix, c] of Object.entries(answer.collections))
        collections[prefix] = toCollection(prefix, c);
      return { icons, collections };
    },
    async sizes(prefix, names, ctx) {
      const out = new Map<string, IconSize>();
      if (names.length === 0) return out;
      const params = new URLSearchParams({ icons: names.join(',') });
      const set = await getJson(`/${prefix}.json?${params.toString()}`, WireIconSetSchema, ctx);
      if (!set) return out;
      const width = set.width ?? 16;
      const height = set.height ?? 16;
      for (const name of names) {
        const alias = set.aliases?.[name];
        const icon = set.icons[alias ? alias.parent : name];
        if (!icon) continue;
        out.set(name, {
          width: alias?.width ?? icon.width ?? width,
          height: alias?.height ?? icon.height ?? height,
        });
      }
      return out;
    },
    async svg(prefix, name, { height, color }, ctx) {
      const params = new URLSearchParams({ height: String(height) });
      if (color) params.set('color', color);
      return get(`/${prefix}/${name}.svg?${params.toString()}`, ctx);
    },
  };
}
