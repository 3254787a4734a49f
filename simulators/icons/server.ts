/**
 * A simulator of the Iconify-compatible icon API (design/upstream-wire-notes.md, "Icons") for
 * tests and benchmarks, serving the real offline sets in the upstream's shapes:
 * - `GET /search?query=&limit=` (limit clamped to 32-999, default 64; missing query → 400);
 * - `GET /{prefix}.json?icons=a,b` (root defaults, aliases, `not_found`; unknown prefix → 404);
 * - `GET /{prefix}/{name}.svg?height=&color=` (missing icon → 404).
 *
 * Fault modes (`setFaults`): an HTTP status (404, 5xx, 429 with Retry-After), slow answers,
 * malformed bodies, and an unsafe SVG body served for every `.svg` request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getIconData } from '@iconify/utils';
import { createOfflineProvider, offlineIndex, searchOffline } from '../../activities/apps/design/index.js';
import { RequestLog } from '../request-log.js';

export type IconRoute = 'search' | 'json' | 'svg';

export type IconFault =
  | { type: 'status'; status: number; route?: IconRoute; retryAfter?: string }
  | { type: 'slow'; ms: number; route?: IconRoute }
  | { type: 'malformed'; route?: IconRoute }
  | { type: 'unsafe-svg'; body: string };

export interface IconRequestRecord {
  route: IconRoute | 'other';
  path: string;
  query: Record<string, string>;
}

export interface IconSimulator {
  url: string;
  setFaults(faults: IconFault[]): void;
  requests(): IconRequestRecord[];
  /** The most requests in flight at once since the last reset. */
  peakInFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

function routeOf(pathname: string): IconRoute | 'other' {
  if (pathname === '/search') return 'search';
  if (/^\/[a-z0-9-]+\.json$/u.test(pathname)) return 'json';
  if (/^\/[a-z0-9-]+\/[a-z0-9-]+\.svg$/u.test(pathname)) return 'svg';
  return 'other';
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startIconSimulator(opts: { port?: number } = {}): Promise<IconSimulator> {
  const idx = offlineIndex();
  const provider = createOfflineProvider(idx);
  let faults: IconFault[] = [];
  const log = new RequestLog<IconRequestRecord>();
  const applies = (f: { route?: IconRoute }, route: IconRoute | 'other') => !f.route || f.route === route;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    const route = routeOf(url.pathname);
    log.track(res);
    log.push({ route, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    for (const f of faults) {
      if (f.type === 'slow' && applies(f, route)) await new Promise((r) => setTimeout(r, f.ms));
      if (f.type === 'status' && applies(f, route)) {
        if (f.retryAfter) res.setHeader('retry-after', f.retryAfter);
        return send(res, f.status, JSON.stringify({ error: 'fault' }));
      }
      if (f.type === 'malformed' && applies(f, route))
        return send(
          res,
          200,
          route === 'svg' ? 'not an svg <<<' : '{"icons": [',
          route === 'svg' ? 'image/svg+xml' : undefined,
        );
      if (f.type === 'unsafe-svg' && route === 'svg')
        return send(res, 200, f.body, 'image/svg+xml; charset=utf-8');
    }
    if (route === 'search') {
      const query = url.searchParams.get('query');
      if (!query) return send(res, 400, JSON.stringify({ error: 'missing query' }));
      const limit = Math.min(999, Math.max(32, Number(url.searchParams.get('limit') ?? 64) || 64));
      const prefixes = url.searchParams.get('prefixes')?.split(',').filter(Boolean);
      const icons = searchOffline(idx, query, prefixes).slice(0, limit);
      const collections: Record<string, unknown> = {};
      for (const { prefix } of icons) {
        const c = idx.collections[prefix]!;
        collections[prefix] = {
          name: c.name,
          total: idx.sets.get(prefix)?.info?.total,
          author: c.author,
          license: c.license,
        };
      }
      return send(
        res,
        200,
        JSON.stringify({
          icons: icons.map((i) => `${i.prefix}:${i.name}`),
          total: icons.length,
          limit,
          start: 0,
          collections,
        }),
      );
    }
    if (route === 'json') {
      const prefix = url.pathname.slice(1, -'.json'.length);
      const set = idx.sets.get(prefix);
      if (!set) return send(res, 404, '404');
      const icons: Record<string, unknown> = {};
      const aliases: Record<string, unknown> = {};
      const notFound: string[] = [];
      for (const name of (url.searchParams.get('icons') ?? '').split(',').filter(Boolean)) {
        const alias = set.aliases?.[name];
        const parent = alias ? alias.parent : name;
        const icon = set.icons[parent];
        if (!icon || !getIconData(set, name)) {
          notFound.push(name);
          continue;
        }
        icons[parent] = icon;
        if (alias) aliases[name] = alias;
      }
      const body = {
        prefix,
        icons,
        ...(Object.keys(aliases).length ? { aliases } : {}),
        width: set.width,
        height: set.height,
        ...(notFound.length ? { not_found: notFound } : {}),
      };
      return send(res, 200, JSON.stringify(body));
    }
    if (route === 'svg') {
      const [, prefix = '', file = ''] = url.pathname.split('/');
      const height = Number(url.searchParams.get('height') ?? 24) || 24;
      const color = url.searchParams.get('color') ?? undefined;
      const svg = await provider.svg(
        prefix,
        file.slice(0, -'.svg'.length),
        { height, color },
        { signal: new AbortController().signal },
      );
      return svg ? send(res, 200, svg, 'image/svg+xml; charset=utf-8') : send(res, 404, '404', 'text/plain');
    }
    return send(res, 404, '404', 'text/plain');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, '{}');
      else res.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setFaults: (f) => {
      faults = f;
    },
    requests: () => log.entries(),
    peakInFlight: () => log.peakInFlight(),
    reset: () => {
      faults = [];
      log.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
