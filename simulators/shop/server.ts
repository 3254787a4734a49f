/**
 * The shop simulator: a real HTTP server speaking the upstream shop's lookup and suggestion
 * interfaces, with the same header checks, a request log and fault
 * injection. See README.md for the magic names and the admin API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeName, pricesFor } from './catalogue.js';
import { FaultState, findFault, type Fault, type FaultRule, type ShopOperation } from './faults.js';
import { buildStream, frame, overflowPrices } from './stream.js';
import { RequestLog } from '../request-log.js';

/** One request as the simulator saw it (admin routes are not logged). */
export interface ShopRequestRecord {
  op: ShopOperation | 'other';
  method: string;
  path: string;
  /** Raw query string without the leading `?`, in the order sent. */
  query: string;
  /** Every query parameter with all its values, so repeated parameters are visible. */
  params: Record<string, string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** Status of the answer (200 for streams, even stalled ones). */
  status?: number;
  /** True when the client closed the connection before the answer was complete. */
  clientClosed?: boolean;
  /** Arrival time (epoch ms), to assert when requests were sent (e.g. after a Retry-After). */
  at: number;
}

export interface ShopSimulatorOptions {
  port?: number;
  host?: string;
  /** Initial server-wide fault rules. */
  faults?: FaultRule[];
  /** Delay between stream events, to let tests interleave aborts. Default 0. */
  eventDelayMs?: number;
}

export interface ShopSimulator {
  /** Origin of the simulator, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
  /** Replaces the server-wide fault rules. */
  setFaults(rules: FaultRule[]): void;
  requests(): ShopRequestRecord[];
  /** Clears the request log, the rules and the flaky-name counters. */
  reset(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The real shop's browser checks: Origin → 400 (CSRF); no browser UA or shop Referer → 403. */
function headerRejection(
  req: IncomingMessage,
  origin: string,
): { status: number; body: unknown } | undefined {
  if (req.headers.origin !== undefined)
    return { status: 400, body: { detail: 'CSRF Failed: Origin checking failed.' } };
  if (!/Mozilla\/5\.0 \(/.test(req.headers['user-agent'] ?? ''))
    return { status: 403, body: { detail: 'Forbidden' } };
  if (!(req.headers.referer ?? '').startsWith(`${origin}/`))
    return { status: 403, body: { detail: 'Forbidden' } };
  return undefined;
}

/** Answers a request-level fault; true when the response is fully handled. */
function answerFault(res: ServerResponse, faults: readonly Fault[]): boolean {
  const status = findFault(faults, 'status');
  if (status) {
    const headers: Record<string, string> = status.retryAfter ? { 'retry-after': status.retryAfter } : {};
    sendJson(res, status.status ?? 500, { detail: 'Simulated failure' }, headers);
    return true;
  }
  if (findFault(faults, 'drop')) {
    res.socket?.destroy();
    return true;
  }
  return false;
}

function handleLookup(url: URL, res: ServerResponse, faults: readonly Fault[]): void {
  const search = url.searchParams.get('search') ?? '';
  const info = describeName(search);
  const currency = url.searchParams.get('currency') ?? 'EUR';
  const country = url.searchParams.get('country') ?? 'DE';
  if (findFault(faults, 'stall')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    return;
  }
  if (findFault(faults, 'malformed') || findFault(faults, 'no_done')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"fqdn":"${info.ascii}","prices":{"grid":"A",`);
    return;
  }
  const status = findFault(faults, 'das_failed') ? 'error' : info.status;
  const wrongCurrency = findFault(faults, 'wrong_currency')
    ? currency.toUpperCase() === 'USD'
      ? 'EUR'
      : 'USD'
    : undefined;
  const body = {
    fqdn: findFault(faults, 'wrong_fqdn') ? `other-${info.ascii}` : info.ascii,
    prices: status === 'available' ? pricesFor(info, currency, country, wrongCurrency) : {},
    availability: status,
    premium: info.premium ? 1 : 0,
  };
  if (findFault(faults, 'price_overflow')) {
    // JSON.stringify cannot write an overflowing literal; the real shop's serializer can.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(overflowPrices(JSON.stringify(body)));
    return;
  }
  sendJson(res, 200, body);
}

async function handleSuggest(
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  faults: readonly Fault[],
  eventDelayMs: number,
) {
  const tld = url.searchParams.getAll('tlds')[0] ?? '';
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  if (tld.includes(',')) {
    // The real shop opens the stream, names the filter, then never sends suggestions.
    res.write(
      frame({
        event: 'suggest_meta',
        data: JSON.stringify({ tld_filter: tld.split(','), search_uuid: 'stalled' }),
      }),
    );
    return;
  }
  if (findFault(faults, 'stall')) return;
  const events = buildStream(
    {
      keyword: url.searchParams.get('search') ?? '',
      tld: tld.toLowerCase(),
      page: Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1),
      perPage: Math.max(1, Math.min(20, Number(url.searchParams.get('per_page') ?? '5') || 5)),
      currency: url.searchParams.get('currency') ?? 'EUR',
      country: url.searchParams.get('country') ?? 'DE',
      url,
    },
    faults,
  );
  let closed = false;
  req.socket.once('close', () => (closed = true));
  for (const e of events) {
    if (closed) return;
    res.write(frame(e));
    if (eventDelayMs > 0) await sleep(eventDelayMs);
  }
  res.end();
}

/** Starts the shop simulator on 127.0.0.1 (port 0 = any free port). */
export async function startShopSimulator(opts: ShopSimulatorOptions = {}): Promise<ShopSimulator> {
  const faults = new FaultState();
  faults.set(opts.faults ?? []);
  const log = new RequestLog<ShopRequestRecord>();
  let origin = '';

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname.startsWith('/__sim/')) return handleAdmin(req, res, url);
      const op: ShopRequestRecord['op'] =
        url.pathname === '/api/v5/suggest/lookup'
          ? 'lookup'
          : url.pathname === '/api/v5/suggest/suggest'
            ? 'suggest'
            : 'other';
      const params: Record<string, string[]> = {};
      for (const [k, v] of url.searchParams) (params[k] ??= []).push(v);
      const rec: ShopRequestRecord = {
        op,
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search.slice(1),
        params,
        headers: { ...req.headers },
        at: Date.now(),
      };
      log.push(rec);
      res.once('finish', () => (rec.status ??= res.statusCode));
      res.once('close', () => {
        if (!res.writableFinished) rec.clientClosed = true;
      });
      if (op === 'other' || req.method !== 'GET') return sendJson(res, 404, { detail: 'Not found' });
      const rejected = headerRejection(req, origin);
      if (rejected) return sendJson(res, rejected.status, rejected.body);
      const search = url.searchParams.get('search') ?? '';
      const label = op === 'lookup' ? describeName(search).label : search.trim().toLowerCase();
      const active = faults.resolve(op, search, label);
      const latency = findFault(active, 'latency');
      if (latency?.ms) await sleep(latency.ms);
      if (answerFault(res, active)) return;
      rec.status = 200;
      if (op === 'lookup') return handleLookup(url, res, active);
      return handleSuggest(url, req, res, active, opts.eventDelayMs ?? 0);
    })().catch(() => res.socket?.destroy());
  });

  function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (url.pathname === '/__sim/requests') return sendJson(res, 200, log.entries());
    if (url.pathname === '/__sim/reset' && req.method === 'POST') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    if (url.pathname === '/__sim/faults' && req.method === 'GET')
      return sendJson(res, 200, { rules: faults.current() });
    if (url.pathname === '/__sim/faults' && req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        try {
          const parsed = JSON.parse(body || '{}') as { rules?: FaultRule[] };
          faults.set(Array.isArray(parsed.rules) ? parsed.rules : []);
          sendJson(res, 200, { rules: faults.current() });
        } catch {
          sendJson(res, 400, { detail: 'Body must be JSON: {"rules":[...]}' });
        }
      });
      return;
    }
    sendJson(res, 404, { detail: 'Unknown admin route' });
  }

  function reset(): void {
    log.clear();
    faults.reset();
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  origin = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    setFaults: (rules) => faults.set(rules),
    requests: () => log.entries().map((r) => ({ ...r })),
    reset,
  };
}
