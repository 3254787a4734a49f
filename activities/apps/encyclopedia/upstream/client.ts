/**
 * The MediaWiki client: one edition per request, chosen from ENCYCLOPEDIA_URL's `{language}`
 * template. Every request carries the contact User-Agent (the real upstream refuses requests
 * without one), has a timeout, reads at most {@link MAX_BODY_BYTES}, and follows redirects only
 * on the same origin (normalised and redirected titles), at most {@link MAX_REDIRECTS} times.
 * Statuses map to catalogue errors; an upstream 429 carries its Retry-After.
 */
import { request } from 'undici';
import type { z } from 'zod';
import { errors } from '../../../../lib/errors/errors.js';
import { SkillflowError } from '../../../../lib/errors/skillflow-error.js';
import { parseWire } from '../../../parse-wire.js';
import type { EncyclopediaLanguage } from '../../../../lib/encyclopedia/languages.js';
import { PagePropsWireSchema, SummaryWireSchema, TitleSearchWireSchema } from './wire.js';
import type { PagePropsWire, SummaryWire, TitleSearchWire } from './wire.js';

export const MAX_BODY_BYTES = 1_000_000;
export const MAX_REDIRECTS = 3;
/** Used when a 429 carries no usable Retry-After. */
export const DEFAULT_RETRY_AFTER_MS = 30_000;

export interface EncyclopediaClientOptions {
  urlTemplate: string;
  userAgent: string;
  timeoutMs: number;
}

export interface EncyclopediaClient {
  /** The edition's origin plus path prefix, e.g. `https://en.wikipedia.org`. */
  base(language: EncyclopediaLanguage): string;
  searchTitles(
    language: EncyclopediaLanguage,
    query: string,
    limit: number,
    signal: AbortSignal,
  ): Promise<TitleSearchWire>;
  summary(language: EncyclopediaLanguage, title: string, signal: AbortSignal): Promise<SummaryWire>;
  pageProps(
    language: EncyclopediaLanguage,
    titles: readonly string[],
    signal: AbortSignal,
  ): Promise<PagePropsWire>;
}

/** The wait a Retry-After header asks for: delta seconds or an HTTP date. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return DEFAULT_RETRY_AFTER_MS;
  if (/^\d{1,6}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(1000, at - now);
}

const unavailable = (reason: string) =>
  errors.upstreamUnavailable({
    provider: 'encyclopedia',
    message: 'The encyclopedia is unavailable; try again later.',
    details: { reason },
  });

const tooSlow = () =>
  errors.deadlineExceeded('The encyclopedia did not answer in time.', { provider: 'encyclopedia' });

/** Encodes a title as MediaWiki writes it in paths: spaces as underscores. */
export function titlePath(title: string): string {
  return encodeURIComponent(title.replaceAll(' ', '_'));
}

export function createEncyclopediaClient(opts: EncyclopediaClientOptions): EncyclopediaClient {
  const base = (language: EncyclopediaLanguage) =>
    opts.urlTemplate.replaceAll('{language}', language).replace(/\/+$/, '');

  async function getJson<T>(url: URL, schema: z.ZodType<T>, signal: AbortSignal): Promise<T> {
    let current = url;
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    for (let hop = 0; ; hop++) {
      let res;
      try {
        res = await request(current, {
          method: 'GET',
          headers: { 'user-agent': opts.userAgent, accept: 'application/json' },
          signal: both,
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
      } catch (err) {
        if (signal.aborted) throw err;
        if (timeout.aborted) throw tooSlow();
        throw unavailable('unreachable');
      }
      const { statusCode: status, headers } = res;
      if (status >= 300 && status < 400 && typeof headers.location === 'string') {
        await res.body.dump();
        const next = new URL(headers.location, current);
        if (next.origin !== current.origin || hop >= MAX_REDIRECTS) throw unavailable('redirect');
        current = next;
        continue;
      }
      if (status === 200) {
        return parseWire(await readBounded(res.body, timeout), schema, 'encyclopedia', 'encyclopedia');
      }
      await res.body.dump().catch(() => undefined);
      if (status === 404)
        throw errors.notFound('No article with this title exists in this language.', {
          provider: 'encyclopedia',
        });
      if (status === 429) {
        throw errors.upstreamSlowDown({
          upstream: 'The encyclopedia',
          provider: 'encyclopedia',
          retryAfterMs: retryAfterMs(headers['retry-after']),
        });
      }
      throw unavailable(status >= 500 ? 'server_error' : 'refused');
    }
  }

  return {
    base,
    searchTitles(language, query, limit, signal) {
      const url = new URL(`${base(language)}/w/rest.php/v1/search/title`);
      url.searchParams.set('q', query);
      url.searchParams.set('limit', String(limit));
      return getJson(url, TitleSearchWireSchema, signal);
    },
    summary(language, title, signal) {
      const url = new URL(`${base(language)}/api/rest_v1/page/summary/${titlePath(title)}`);
      return getJson(url, SummaryWireSchema, signal);
    },
    pageProps(language, titles, signal) {
      const url = new URL(`${base(language)}/w/api.php`);
      for (const [k, v] of Object.entries({
        action: 'query',
        prop: 'pageprops',
        ppprop: 'disambiguation',
        titles: titles.join('|'),
        redirects: '1',
        format: 'json',
        formatversion: '2',
      }))
        url.searchParams.set(k, v);
      return getJson(url, PagePropsWireSchema, signal);
    },
  };
}

function malformed(): SkillflowError {
  return errors.upstreamMalformed({ upstream: 'encyclopedia', provider: 'encyclopedia' });
}

/** Reads a body up to {@link MAX_BODY_BYTES}; more is malformed. */
async function readBounded(body: AsyncIterable<Buffer>, timeout: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      // Leaving the loop closes (and discards) the rest of the body.
      if (size > MAX_BODY_BYTES) throw malformed();
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof SkillflowError) throw err;
    if (timeout.aborted) throw tooSlow();
    throw malformed();
  }
  return Buffer.concat(chunks).toString('utf8');
}
