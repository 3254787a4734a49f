/**
 * A stand-in for the unofficial power-converter design upstream on 127.0.0.1
 * (design/upstream-wire-notes.md "Power converter"):
 * - `POST /wb6/restapi/power/solutions`: ranked solutions for the requirement (numbers as
 *   numbers or strings), as a bare array or wrapped in `{ solutions: [...] }` (`container`);
 * - `GET /wb6/restapi/power/solutions/{id}/schsvg`: the schematic SVG;
 * - `GET /wb6/restapi/power/solutions/{id}/bomcomponents`: the parts list, wrapped in
 *   `{ bomComponents: [...] }`.
 * Every route waits `latencyMs` first (multi-second by default, like the real service); the
 * GETs answer 415 without `Content-Type: application/json`. Fault modes: status (5xx),
 * rate_limited (429 with Retry-After), malformed, unsafe_svg, slow_parts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bomComponents, parseSolutionId, schematicSvg, solutionsFor, type SimRequest } from './catalogue.js';
import { RequestLog } from '../request-log.js';

export type PowerFault =
  | { type: 'status'; status: number; times?: number }
  | { type: 'rate_limited'; retryAfterSeconds: number; times?: number }
  | { type: 'malformed'; times?: number }
  /** The schematic with script, a `javascript:` link and a remote image, or `body` as it is. */
  | { type: 'unsafe_svg'; body?: string; times?: number }
  | { type: 'slow_parts'; ms: number; times?: number };

export interface PowerRequestRecord {
  method: string;
  path: string;
  contentType: string | undefined;
  referer: string | undefined;
}

export interface PowerSimulatorOptions {
  port?: number;
  /** Delay before every answer (default 2500 ms; tests pass a few ms). */
  latencyMs?: number;
  /** Search answer container (default `object`). */
  container?: 'array' | 'object';
}

export interface PowerSimulator {
  /** Origin, e.g. `http://127.0.0.1:43121` (the POWER_URL). */
  url: string;
  setFault(fault: PowerFault | undefined): void;
  setLatency(ms: number): void;
  setContainer(container: 'array' | 'object'): void;
  requests(): PowerRequestRecord[];
  /** The most requests in flight at once since the last reset. */
  peakInFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

const BASE = '/wb6/restapi/power/solutions';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(body);
}
const json = (res: ServerResponse, status: number, body: unknown) =>
  send(
    res,
    status,
    'application/json; charset=utf-8',
    typeof body === 'string' ? body : JSON.stringify(body),
  );

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The search body, numbers as numbers or strings; undefined when it is not one. */
function parseSearch(text: string): SimRequest | undefined {
  let b: Record<string, unknown>;
  try {
    b = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const num = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? Number(v) : NaN);
  const first = (v: unknown) => (Array.isArray(v) ? num(v[0]) : NaN);
  const r: SimRequest = {
    vinMin: num(b.vinMin),
    vinMax: num(b.vinMax),
    vout: first(b.vout),
    iout: first(b.iout),
    ambientTemp: b.ambientTemp === undefined ? 30 : num(b.ambientTemp),
    isIsolated: b.isIsolated === true || b.isIsolated === 'true',
    powerSupply: typeof b.powerSupply === 'string' ? b.powerSupply.toLowerCase() : 'dc',
    optimizationSetting: b.optimizationSetting === undefined ? 3 : num(b.optimizationSetting),
  };
  const nums = [r.vinMin, r.vinMax, r.vout, r.iout, r.ambientTemp, r.optimizationSetting];
  return nums.every(Number.isFinite) ? r : undefined;
}

export async function startPowerSimulator(opts: PowerSimulatorOptions = {}): Promise<PowerSimulator> {
  let fault: PowerFault | undefined;
  let latencyMs = opts.latencyMs ?? 2500;
  let container = opts.container ?? 'object';
  const log = new RequestLog<PowerRequestRecord>();

  const takeFault = (applies: (f: PowerFault) => boolean): PowerFault | undefined => {
    const f = fault;
    if (!f || !applies(f)) return undefined;
    if (f.times !== undefined) {
      f.times -= 1;
      if (f.times <= 0) fault = undefined;
    }
    return f;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://sim').pathname;
    const contentType = req.headers['content-type'];
    log.track(res);
    log.push({ method: req.method ?? '', path, contentType, referer: req.headers.referer });
    const body = req.method === 'POST' ? await readBody(req) : '';
    await sleep(latencyMs);
    const general = takeFault(
      (f) => f.type === 'status' || f.type === 'rate_limited' || f.type === 'malformed',
    );
    if (general?.type === 'status') return json(res, general.status, { message: 'Service Unavailable' });
    if (general?.type === 'rate_limited')
      return send(res, 429, 'text/plain', 'Too Many Requests', {
        'retry-after': String(general.retryAfterSeconds),
      });
    if (general?.type === 'malformed') return json(res, 200, '{"solutions": [{"id": 7, "rank": "first"');

    if (req.method === 'POST' && path === BASE) {
      const search = parseSearch(body);
      if (!search) return json(res, 400, { message: 'Bad Request' });
      const solutions = solutionsFor(search);
      return json(res, 200, container === 'array' ? solutions : { status: 'SUCCESS', solutions });
    }
    const m = /^\/wb6\/restapi\/power\/solutions\/([^/]+)\/(schsvg|bomcomponents)$/.exec(path);
    if (req.method !== 'GET' || !m) return json(res, 404, { message: 'Not Found' });
    if (!contentType?.toLowerCase().startsWith('application/json'))
      return json(res, 415, { message: 'Unsupported Media Type' });
    const found = parseSolutionId(decodeURIComponent(m[1]!));
    if (!found) return json(res, 404, { message: 'Solution not found' });
    if (m[2] === 'schsvg') {
      const unsafe = takeFault((f) => f.type === 'unsafe_svg');
      if (unsafe?.type === 'unsafe_svg' && unsafe.body !== undefined)
        return send(res, 200, 'image/svg+xml', unsafe.body);
      return send(res, 200, 'image/svg+xml', schematicSvg(found.device, found.req, unsafe !== undefined));
    }
    const slow = takeFault((f) => f.type === 'slow_parts');
    if (slow?.type === 'slow_parts') await sleep(slow.ms);
    return json(res, 200, { bomComponents: bomComponents(found.device, found.req) });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setFault: (f) => {
      fault = f ? { ...f } : undefined;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setContainer: (c) => {
      container = c;
    },
    requests: () => log.entries(),
    peakInFlight: () => log.peakInFlight(),
    reset: () => {
      log.clear();
      fault = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
