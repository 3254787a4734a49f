/**
 * The power-converter upstream client (`POWER_URL`, unofficial and credential-free): undici, the zod wire types of ./wire.ts, a browser-style `Referer` and
 * `Content-Type: application/json` on every request (the schematic and parts-list GETs need it
 * too), a timeout suited to multi-second answers, and 429 `Retry-After` honoured with bounded
 * retries. Each request sent, retries included, is charged to the call's meter first. Errors
 * are catalogue errors; messages never quote the requirement or the upstream body.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { z } from 'zod';
import { errors } from '../../../../lib/errors/errors.js';
import { parseWire } from '../../../parse-wire.js';
import { WireBomSchema, WireSearchSchema, type WireBomComponent, type WireSolution } from './wire.js';

/** Largest answer read (schematics are tens of KiB, a search a few hundred). */
export const MAX_POWER_BYTES = 2 * 1024 * 1024;
const SEARCH_PATH = '/wb6/restapi/power/solutions';

export interface PowerClientOptions {
  baseUrl: string;
  /** Limit of one request (headers and body); multi-second answers are normal. */
  timeoutMs: number;
  /** 429 answers retried after their Retry-After, at most this many times (default 2). */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the call fails with it (default 60 s). */
  maxRetryAfterMs?: number;
}

/** Per-call context: the call's signal and the meter charge of one request. */
export interface PowerCallContext {
  signal: AbortSignal;
  charge: () => Promise<void>;
}

/** The upstream search body, as ./cache-key normalises it. */
export interface PowerSearchPayload {
  vinMin: number;
  vinMax: number;
  vout: number[];
  iout: number[];
  ambientTemp: number;
  isIsolated: boolean;
  powerSupply: 'dc' | 'ac';
  optimizationSetting: number;
}

export interface PowerClient {
  search(payload: PowerSearchPayload, ctx: PowerCallContext): Promise<WireSolution[]>;
  /** The raw schematic SVG (to be sanitised by the caller); NOT_FOUND for an unknown id. */
  schematic(solutionId: string, ctx: PowerCallContext): Promise<string>;
  parts(solutionId: string, ctx: PowerCallContext): Promise<WireBomComponent[]>;
}

const unavailable = (message: string, details: Record<string, unknown> = {}) =>
  errors.upstreamUnavailable({ provider: 'power', message, details });

function retryAfterMs(header: string | string[] | undefined): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value && /^\d+$/u.test(value)) return Math.max(1, Number(value)) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? 30_000 : Math.max(1000, date - Date.now());
}

export function createPowerClient(opts: PowerClientOptions): PowerClient {
  const base = opts.baseUrl.replace(/\/+$/u, '');
  const referer = `${new URL(base).origin}/power-designer/`;
  const maxRetries = opts.maxRetries ?? 2;
  const maxWait = opts.maxRetryAfterMs ?? 60_000;

  async function send(method: 'GET' | 'POST', path: string, ctx: PowerCallContext, body?: unknown) {
    for (let attempt = 0; ; attempt++) {
      await ctx.charge();
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(opts.timeoutMs)]);
      let res;
      try {
        res = await request(`${base}${path}`, {
          method,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, image/svg+xml',
            referer,
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
      } catch {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw unavailable('The power upstream did not answer in time or could not be reached.');
      }
      if (res.statusCode === 429) {
        await res.body.dump();
        const wait = retryAfterMs(res.headers['retry-after']);
        if (attempt >= maxRetries || wait > maxWait) {
          // The wait stays exact: an HTTP-date Retry-After is not a whole number of seconds.
          throw errors.upstreamSlowDown({
            upstream: 'The power upstream',
            provider: 'power',
            retryAfterMs: wait,
            exactMs: true,
          });
        }
        await sleep(wait, undefined, { signal: ctx.signal });
        continue;
      }
      if (res.statusCode === 404) {
        await res.body.dump();
        throw errors.notFound('The power upstream has no solution with this id.', { provider: 'power' });
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        await res.body.dump();
        throw unavailable(`The power upstream answered HTTP ${res.statusCode}.`, { status: res.statusCode });
      }
      try {
        const text = await res.body.text();
        if (Buffer.byteLength(text) > MAX_POWER_BYTES) throw new Error('too large');
        return text;
      } catch {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw unavailable('The power upstream answer was cut off or too large.');
      }
    }
  }

  function parse<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
    return parseWire(text, schema, 'power', 'power upstream');
  }

  const solutionPath = (id: string, leaf: string) => `${SEARCH_PATH}/${encodeURIComponent(id)}/${leaf}`;

  return {
    async search(payload, ctx) {
      return parse(await send('POST', SEARCH_PATH, ctx, payload), WireSearchSchema);
    },
    async schematic(id, ctx) {
      return send('GET', solutionPath(id, 'schsvg'), ctx);
    },
    async parts(id, ctx) {
      return parse(await send('GET', solutionPath(id, 'bomcomponents'), ctx), WireBomSchema);
    },
  };
}
