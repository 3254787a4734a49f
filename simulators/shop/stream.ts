/**
 * Builds the event sequence of one suggestion stream page (wire notes: suggestion stream).
 * Deterministic for a given request, so tests can assert exact events.
 */
import { createHash } from 'node:crypto';
import { categoriesOf, describeName, pricesFor, restrictionOf, type NameInfo } from './catalogue.js';
import { findFault, magicFault, type Fault } from './faults.js';

export interface SimEvent {
  event: string;
  /** Serialized JSON, or a deliberately broken string for the malformed fault. */
  data: string;
}

export interface SuggestRequest {
  keyword: string;
  tld: string;
  page: number;
  perPage: number;
  currency: string;
  country: string;
  /** Absolute URL of the request, used to build `pagination.next` and `last`. */
  url: URL;
}

/** Raw count the shop reports; like the real one it is not a count of available names. */
export const RAW_TOTAL = 911;

const PREFIXES = ['', 'get', '', 'my', '', 'the', '', '', 'try', '', 'go', ''];
const SUFFIX_WORDS = ['', '', 'hq', '', 'app', '', 'hub', 'online', '', 'lab', '', 'now'];
/** Some candidates fall outside the requested suffix, as the real shop's do. */
const OTHER_SUFFIX: Readonly<Record<number, string>> = { 2: 'online', 3: 'nyc', 6: 'ai' };

/** The shop's own ranking of extensions, used when a request carries no `tlds` filter. */
export const RANKED_SUFFIXES = ['com', 'online', 'ai', 'net', 'app', 'io', 'org', 'de'];

/**
 * Candidate number `i` (0-based across pages) for a keyword; multiword keywords are joined.
 * With no extension filter (`tld` empty) the extensions follow the shop's own ranking.
 */
export function candidateName(keyword: string, tld: string, i: number): string {
  const word = keyword.trim().toLowerCase().split(/\s+/).join('');
  const label = i < PREFIXES.length ? `${PREFIXES[i]}${word}${SUFFIX_WORDS[i]}` : `${word}${i}`;
  const suffix = tld === '' ? RANKED_SUFFIXES[i % RANKED_SUFFIXES.length]! : (OTHER_SUFFIX[i] ?? tld);
  return `${label}.${suffix}`;
}

/** Replaces every price amount with a number literal that overflows to Infinity in JSON.parse. */
export function overflowPrices(serialized: string): string {
  return serialized.replace(/"price_(before|after)_taxes":[0-9.]+/g, '"price_$1_taxes":1e999');
}

const json = (value: unknown): string => JSON.stringify(value);

function pageUrl(url: URL, page: number): string {
  const next = new URL(url);
  next.searchParams.set('page', String(page));
  return next.toString();
}

function suggestionOf(info: NameInfo, spelled: string) {
  return {
    fqdn: spelled,
    domain: spelled.slice(0, spelled.indexOf('.')),
    tld: info.suffix,
    corporate: false,
    allow_lang: true,
    phase: 'golive',
    provided: false,
    categories: categoriesOf(info.suffix),
    restriction: restrictionOf(info.suffix),
  };
}

/** das and billing events for one candidate, honouring its candidate-level magic faults. */
function resultEvents(info: NameInfo, req: SuggestRequest, requestFaults: readonly Fault[]): SimEvent[] {
  const faults = [...requestFaults, ...[magicFault(info.label)].filter((f): f is Fault => f !== undefined)];
  // IDNs: the availability check speaks punycode while billing echoes the Unicode spelling.
  const dasName = info.ascii;
  const billingName = info.unicode;
  const out: SimEvent[] = [];
  if (findFault(faults, 'das_failed') || info.status === 'error') {
    out.push({
      event: 'das_failed',
      data: json({ fqdn: dasName, availability: 'error', premium: 0, reserved: 0 }),
    });
  } else {
    const das = { fqdn: dasName, availability: info.status, premium: info.premium ? 1 : 0, reserved: 0 };
    out.push({ event: 'das', data: json(das) });
  }
  if (info.status !== 'available') return out;
  if (findFault(faults, 'billing_failed')) {
    out.push({ event: 'billing_failed', data: json({ fqdn: billingName, prices: {} }) });
  } else {
    const wrong = findFault(faults, 'wrong_currency')
      ? req.currency.toUpperCase() === 'USD'
        ? 'EUR'
        : 'USD'
      : undefined;
    const prices = pricesFor(info, req.currency, req.country, wrong);
    const data = json({ fqdn: billingName, prices });
    out.push({ event: 'billing', data: findFault(faults, 'price_overflow') ? overflowPrices(data) : data });
  }
  return out;
}

/**
 * The full event list of one page. The default order already varies (the first candidate's
 * das/billing precede the `suggestions` event); `out_of_order` sends every result first and
 * the suggestions last; `malformed` breaks one das event; `no_done` drops the final `done`.
 */
export function buildStream(req: SuggestRequest, faults: readonly Fault[]): SimEvent[] {
  const first = (req.page - 1) * req.perPage;
  const infos = Array.from({ length: req.perPage }, (_, k) =>
    describeName(candidateName(req.keyword, req.tld, first + k)),
  );
  const uuid = createHash('sha256').update(`${req.keyword}|${req.tld}`).digest('hex');
  const searchUuid = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-4${uuid.slice(13, 16)}-a${uuid.slice(17, 20)}-${uuid.slice(20, 32)}`;
  const lastPage = Math.ceil(RAW_TOTAL / req.perPage);
  const meta: SimEvent = {
    event: 'suggest_meta',
    data: json({ tld_filter: req.tld === '' ? [] : [req.tld], search_uuid: searchUuid }),
  };
  const pagination: SimEvent = {
    event: 'pagination',
    data: json({
      'X-Total-Count': RAW_TOTAL,
      page: req.page,
      per_page: req.perPage,
      next: req.page < lastPage ? pageUrl(req.url, req.page + 1) : null,
      last: pageUrl(req.url, lastPage),
    }),
  };
  // Unicode spelling in `suggestions` for IDNs; das carries punycode (see resultEvents).
  const suggestions: SimEvent = {
    event: 'suggestions',
    data: json(infos.map((i) => suggestionOf(i, i.unicode))),
  };
  const results = infos.map((info, k) => {
    const events = resultEvents(info, req, faults);
    return k % 2 === 1 ? events.reverse() : events;
  });
  const bundle: SimEvent = {
    event: 'bundle_available',
    data: json({ bundles: [{ id: 'starter', fqdns: [infos[0]?.ascii] }] }),
  };
  const bundlePricing: SimEvent = { event: 'bundle_pricing', data: json({ id: 'starter', prices: {} }) };
  const tail: SimEvent[] = [
    { event: 'tick', data: 'null' },
    bundlePricing,
    { event: 'suggest_meta', data: json({ filter_failed: false }) },
  ];
  let events: SimEvent[];
  if (findFault(faults, 'out_of_order')) {
    events = [...results.flat().reverse(), bundle, meta, ...tail, pagination, suggestions];
  } else {
    events = [
      meta,
      pagination,
      ...(results[0] ?? []),
      suggestions,
      bundle,
      ...results.slice(1).flat(),
      ...tail,
    ];
  }
  if (findFault(faults, 'malformed')) {
    const i = events.findIndex((e) => e.event === 'das');
    events.splice(i < 0 ? 0 : i, 1, { event: 'das', data: '{"fqdn":"broken.com","availability":' });
  }
  if (!findFault(faults, 'no_done')) events.push({ event: 'done', data: 'null' });
  return events;
}

/** Serializes one event in text/event-stream framing. */
export function frame(e: SimEvent): string {
  return `event: ${e.event}\ndata: ${e.data}\n\n`;
}
