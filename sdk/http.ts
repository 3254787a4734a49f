/**
 * The SDK's transport: undici `request` with a bearer token, JSON in and out, and one mapping of
 * non-2xx answers to {@link SkillflowApiError}. The token is sent only in the Authorization
 * header and never appears in an error message.
 */
import type { Dispatcher } from 'undici';
import { SkillflowApiError, SkillflowClientError } from './errors.js';

/** Options of {@link createClient} that reach the transport. */
export interface TransportOptions {
  /** API origin, e.g. `http://127.0.0.1:8080` (a trailing `/v1` or `/` is accepted). */
  baseUrl: string;
  /** API token (`sf_...`). */
  token?: string;
  /** Per-request timeout in ms (headers and body). Default 120 000. */
  timeoutMs?: number;
  /** A custom undici dispatcher (connection pool, proxy, mock agent). */
  dispatcher?: Dispatcher;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** One request; `json` and `text` are mutually exclusive bodies. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  text?: { body: string; contentType: string };
  /** Headers of this request only (e.g. `idempotency-key`). */
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /**
   * An absolute URL to fetch instead of `path` (a download link): sent without the
   * Authorization header, since the link is its own credential and may name another origin.
   */
  url?: string;
  /** Answer a 2xx body as its bytes (a `Uint8Array`), not parsed JSON. */
  bytes?: boolean;
}

/** A decoded 2xx answer. */
export interface HttpResponse<T> {
  status: number;
  body: T;
}

/** The transport every resource module uses. */
export interface Transport {
  readonly baseUrl: string;
  send<T>(spec: RequestSpec): Promise<HttpResponse<T>>;
}

/** Strips a trailing slash and `/v1`, so both `http://h:8080` and `http://h:8080/v1/` work. */
export function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Creates the transport. */
export function createTransport(opts: TransportOptions): Transport {
  const baseUrl = normaliseBaseUrl(opts.baseUrl);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  return {
    baseUrl,
    async send<T>(spec: RequestSpec): Promise<HttpResponse<T>> {
      const url = new URL(spec.url ?? baseUrl + spec.path);
      for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
      const headers: Record<string, string> = {
        accept: spec.bytes ? '*/*' : 'application/json',
        ...opts.headers,
      };
      if (opts.token && !spec.url) headers.authorization = `Bearer ${opts.token}`;
      for (const [k, v] of Object.entries(spec.headers ?? {})) if (v !== undefined) headers[k] = v;
      let body: string | undefined;
      if (spec.text) {
        body = spec.text.body;
        headers['content-type'] = spec.text.contentType;
      } else if (spec.json !== undefined) {
        body = JSON.stringify(spec.json);
        headers['content-type'] = 'application/json';
      }
      let res: Dispatcher.ResponseData;
      // Loaded at the first request (cached by the module system): a CLI that only prints its
      // help never loads the HTTP client.
      const { request } = await import('undici');
      try {
        res = await request(url, {
          method: spec.method,
          headers,
          body,
          signal: spec.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
        });
      } catch (err) {
        if (spec.signal?.aborted)
          throw new SkillflowClientError('ABORTED', 'The request was aborted.', { cause: err });
        const reason = err instanceof Error ? err.message : String(err);
        throw new SkillflowClientError(
          'CONNECTION_FAILED',
          `Cannot reach the skillflow API at ${baseUrl}: ${reason}`,
          { cause: err },
        );
      }
      const raw = new Uint8Array(await res.body.arrayBuffer());
      if (spec.bytes && res.statusCode >= 200 && res.statusCode < 300)
        return { status: res.statusCode, body: raw as T };
      const text = new TextDecoder().decode(raw);
      let parsed: unknown = null;
      if (text.length > 0) {
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          if (res.statusCode < 300) {
            throw new SkillflowClientError(
              'INVALID_RESPONSE',
              `The API answered HTTP ${res.statusCode} with a body that is not JSON.`,
              { cause: err },
            );
          }
        }
      }
      if (res.statusCode < 200 || res.statusCode >= 300)
        throw SkillflowApiError.fromResponse(res.statusCode, parsed);
      return { status: res.statusCode, body: parsed as T };
    },
  };
}

/**
 * The `Idempotency-Key` header of a request, when a key is given: the API answers a repeat of
 * the same request with the first answer instead of doing it again (docs/api.md).
 */
export const idempotencyHeaders = (key: string | undefined): Record<string, string | undefined> => ({
  'idempotency-key': key,
});

/** Encodes one path segment. */
export const seg = (value: string): string => encodeURIComponent(value);
