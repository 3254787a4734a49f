/**
 * The suggestion stream (`GET {shop_url}/api/v5/suggest/suggest`, text/event-stream).
 * Events are parsed with eventsource-parser and validated with the wire
 * schemas, and yielded in arrival order; joining by FQDN is the caller's job.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ShopError, type ShopVia } from './errors.js';
import { suffixParam } from './fqdn.js';
import { quoteParams, type QuoteParams, type ShopCallOptions } from './lookup.js';
import type { ShopRequest, ShopTransport } from './transport.js';
import { IGNORED_STREAM_EVENTS, STREAM_EVENT_SCHEMAS, type ShopStreamEvent } from './wire.js';

export const SUGGEST_PATH = '/api/v5/suggest/suggest';
/** Suggestions per upstream page. */
export const SUGGEST_PER_PAGE = 5;
/** Cap on buffered, unterminated SSE data; a stream past it is malformed. */
const MAX_EVENT_CHARS = 1_000_000;

export interface SuggestParams extends QuoteParams {
  /** 1-based page; the spec allows at most two per group, enforced by the caller. */
  page: number;
}

export interface SuggestOptions extends ShopCallOptions {
  /** Limit for the headers and for every gap between stream bytes; default: the client's. */
  idleTimeoutMs?: number;
}

function isKnownEvent(name: string): name is keyof typeof STREAM_EVENT_SCHEMAS {
  return Object.hasOwn(STREAM_EVENT_SCHEMAS, name);
}

/** Parses one SSE message: undefined for ignored and unknown events, a ShopError for bad data. */
function parseEvent(msg: EventSourceMessage, via: ShopVia): ShopStreamEvent | ShopError | undefined {
  const name = msg.event ?? '';
  if (IGNORED_STREAM_EVENTS.has(name) || !isKnownEvent(name)) return undefined;
  const malformed = new ShopError({
    kind: 'malformed',
    operation: 'suggest',
    via,
    message: `The shop sent a malformed ${name} event.`,
  });
  let json: unknown;
  try {
    json = JSON.parse(msg.data);
  } catch {
    return malformed;
  }
  const parsed = STREAM_EVENT_SCHEMAS[name].safeParse(json);
  return parsed.success ? ({ event: name, data: parsed.data } as ShopStreamEvent) : malformed;
}

function validateRequest(keyword: string, tld: string | undefined, params: SuggestParams, via: ShopVia) {
  const invalid = (message: string) => new ShopError({ kind: 'invalid', operation: 'suggest', via, message });
  const search = keyword.trim();
  // eslint-disable-next-line no-control-regex
  if (!search || search.length > 253 || /[\u0000-\u001f\u007f]/.test(search))
    throw invalid('The keyword is empty, too long or has control characters.');
  const suffix = tld === undefined ? undefined : suffixParam(tld);
  if (tld !== undefined && suffix === undefined)
    throw invalid('At most one valid extension is sent per suggestion request.');
  if (!Number.isInteger(params.page) || params.page < 1)
    throw invalid('The page must be a positive integer.');
  return { search, suffix, ...quoteParams(params, 'suggest', via) };
}

/**
 * Opens one suggestion stream for one keyword and at most one extension (`tld` undefined: no
 * extension filter, so the shop ranks extensions itself), and yields its events
 * in arrival order. Bundle and unknown events are dropped. Throws a {@link ShopError}:
 * `invalid` before sending (a comma list of extensions included), `timeout` when no byte
 * arrives within the idle timeout, `malformed` for event data failing its schema or a non-SSE
 * answer, `incomplete` when the stream ends or breaks without `done`. The request starts on the
 * first iteration; breaking out of the loop or aborting the signal closes the connection.
 */
export async function* suggest(
  transport: ShopTransport,
  keyword: string,
  tld: string | undefined,
  params: SuggestParams,
  opts: SuggestOptions = {},
): AsyncGenerator<ShopStreamEvent, void, undefined> {
  const via = opts.via ?? 'direct';
  const { search, suffix, currency, country } = validateRequest(keyword, tld, params, via);
  const req: ShopRequest = {
    operation: 'suggest',
    path: SUGGEST_PATH,
    params: [
      ['search', search],
      ['currency', currency],
      ['country', country],
      ['grid', 'A'],
      ['lang', 'en'],
      ['page', String(params.page)],
      ['per_page', String(SUGGEST_PER_PAGE)],
      ['source', 'shop'],
      ['lock_sentence', 'false'],
      ['phases', 'golive'],
      ...(suffix === undefined ? [] : ([['tlds', suffix]] as const)),
    ],
    accept: 'text/event-stream',
    via,
    signal: opts.signal,
    idleTimeoutMs: opts.idleTimeoutMs,
  };
  const res = await transport.send(req);
  try {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      throw new ShopError({
        kind: 'malformed',
        operation: 'suggest',
        via,
        message: 'The shop did not answer with an event stream.',
      });
    }
    const pending: ShopStreamEvent[] = [];
    let failure: ShopError | undefined;
    const parser = createParser({
      maxBufferSize: MAX_EVENT_CHARS,
      onEvent(msg) {
        if (failure !== undefined) return;
        const event = parseEvent(msg, via);
        if (event instanceof ShopError) failure = event;
        else if (event) pending.push(event);
      },
      onError(err) {
        if (err.type === 'max-buffer-size-exceeded') {
          failure ??= new ShopError({
            kind: 'malformed',
            operation: 'suggest',
            via,
            message: 'The shop sent an oversized event.',
          });
        }
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      if (failure === undefined) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
      // Events parsed before a malformed one are still delivered, in order.
      while (pending.length > 0) {
        const event = pending.shift()!;
        yield event;
        if (event.event === 'done') return;
      }
      if (failure !== undefined) throw failure;
    }
    throw new ShopError({
      kind: 'incomplete',
      operation: 'suggest',
      via,
      message: 'The shop stream ended without done.',
    });
  } catch (err) {
    throw transport.classify(err, req, 'body');
  } finally {
    // Destroying an unfinished body emits an abort error nobody else listens for.
    res.body.on('error', () => {});
    res.body.destroy();
  }
}
