/**
 * A MediaWiki-compatible stand-in on 127.0.0.1 (design/upstream-wire-notes.md "Encyclopedia").
 * Editions live under `/<language>`, so ENCYCLOPEDIA_URL is `<url>/{language}`:
 * - `GET /<lang>/w/rest.php/v1/search/title?q=&limit=`: titles whose letters-and-digits form
 *   contains the query's (run-together and partial names match), by popularity;
 *   thumbnails are protocol-relative;
 * - `GET /<lang>/api/rest_v1/page/summary/<title>`: the full summary shape (wikibase_item,
 *   originalimage, extract_html included); a title that is not normalised answers 301 to the
 *   normalised one, a redirect 302 to its target, a missing page 404;
 * - `GET /<lang>/w/api.php?action=query&prop=pageprops&titles=A|B&redirects=1`: disambiguation
 *   marks with `normalized` and `redirects`;
 * - `GET /media/<file>`: thumbnails; `not-an-image.png`, `huge.png`, `hop-same.png` (same-host
 *   redirect) and `hop-away.png` (redirect to `localhost`, another host) exercise the proxy.
 * Requests without a contact User-Agent get 403. Fault modes: status, rate_limited (429 with
 * Retry-After), slow, malformed, unsafe_prose.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EDITIONS, PNG_1X1, type Edition, type FixturePage } from './fixtures.js';
import { RequestLog } from '../request-log.js';

export type EncyclopediaFault =
  | { type: 'status'; status: number; times?: number }
  | { type: 'rate_limited'; retryAfterSeconds: number; times?: number }
  | { type: 'slow'; ms: number; times?: number }
  | { type: 'malformed'; times?: number }
  | { type: 'unsafe_prose'; times?: number };

export interface EncyclopediaRequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  userAgent: string | undefined;
}

export interface EncyclopediaSimulator {
  /** Origin, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** The ENCYCLOPEDIA_URL template for this simulator. */
  urlTemplate: string;
  /** `host:port`, for ENCYCLOPEDIA_IMAGE_HOSTS. */
  imageHost: string;
  setFault(fault: EncyclopediaFault | undefined): void;
  requests(): EncyclopediaRequestRecord[];
  /** The most requests in flight at once since the last reset. */
  peakInFlight(): number;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const compact = (s: string) => s.toLocaleLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const key = (title: string) => title.replaceAll(' ', '_');

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function normalise(title: string): string {
  const t = title.replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
  return t.charAt(0).toLocaleUpperCase() + t.slice(1);
}

function find(edition: Edition, title: string): FixturePage | undefined {
  return edition.pages.find((p) => p.title === title);
}

export async function startEncyclopediaSimulator(
  opts: { port?: number } = {},
): Promise<EncyclopediaSimulator> {
  let fault: EncyclopediaFault | undefined;
  const log = new RequestLog<EncyclopediaRequestRecord>();
  let origin = '';
  let port = 0;

  const takeFault = (): EncyclopediaFault | undefined => {
    const f = fault;
    if (f?.times !== undefined) {
      f.times -= 1;
      if (f.times <= 0) fault = undefined;
    }
    return f;
  };

  const thumb = (page: FixturePage, protocolRelative: boolean) => {
    if (!page.image) return null;
    const src = `//127.0.0.1:${port}/media/${page.image}`;
    return protocolRelative ? src : `http:${src}`;
  };

  function summary(lang: string, page: FixturePage, unsafe: boolean) {
    const src = thumb(page, false);
    const extract = unsafe ? `${page.extract} <script>alert(1)</script>` : page.extract;
    return {
      type: page.disambiguation ? 'disambiguation' : page.title === 'Main Page' ? 'mainpage' : 'standard',
      title: key(page.title),
      displaytitle: `<span class="mw-page-title-main">${page.title}</span>`,
      namespace: { id: 0, text: '' },
      wikibase_item: `Q${1000 + page.rank}`,
      titles: { canonical: key(page.title), normalized: page.title, display: `<span>${page.title}</span>` },
      pageid: 10_000 + page.rank,
      ...(src
        ? {
            thumbnail: { source: src, width: 320, height: 400 },
            originalimage: { source: `${src}?original`, width: 2400, height: 3000 },
          }
        : {}),
      lang,
      dir: 'ltr',
      revision: '1234567890',
      tid: 'a5f0c1d2-0000-11ef-8000-000000000000',
      timestamp: '2026-01-15T10:00:00Z',
      ...(page.description !== undefined
        ? { description: page.description, description_source: 'local' }
        : {}),
      content_urls: {
        desktop: { page: `${origin}/${lang}/wiki/${key(page.title)}` },
        mobile: { page: `${origin}/${lang}/wiki/${key(page.title)}?mobile` },
      },
      extract,
      extract_html: `<p>${extract}</p>`,
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const ua = req.headers['user-agent'];
    log.track(res);
    log.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      userAgent: ua,
    });
    if (url.pathname.startsWith('/media/')) return media(url.pathname.slice('/media/'.length), res);
    if (!ua || !/[@(]|https?:/.test(ua))
      return json(res, 403, { error: 'Please set a user-agent with contact information' });
    const f = takeFault();
    if (f?.type === 'slow') await sleep(f.ms);
    if (f?.type === 'status')
      return json(res, f.status, { httpCode: f.status, httpReason: 'Simulated failure' });
    if (f?.type === 'rate_limited') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(f.retryAfterSeconds) });
      return void res.end('{"httpCode":429}');
    }
    if (f?.type === 'malformed') return json(res, 200, '{"pages": [ {"id": "oops"');
    const m = /^\/([a-z]{2,3})(\/.*)$/.exec(url.pathname);
    const edition = m ? EDITIONS[m[1]!] : undefined;
    if (!m || !edition) return json(res, 404, { httpCode: 404, type: 'not_found' });
    const lang = m[1]!;
    const rest = m[2]!;
    if (rest === '/w/rest.php/v1/search/title') {
      const q = compact(url.searchParams.get('q') ?? '');
      const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? 10) || 10));
      const pages =
        q === ''
          ? []
          : edition.pages
              .filter((p) => compact(p.title).includes(q))
              .sort((a, b) => b.rank - a.rank)
              .slice(0, limit);
      return json(res, 200, {
        pages: pages.map((p) => ({
          id: 10_000 + p.rank,
          key: key(p.title),
          title: p.title,
          excerpt: p.title,
          matched_title: null,
          description: p.description ?? null,
          thumbnail: p.image
            ? { mimetype: 'image/png', width: 60, height: 75, duration: null, url: thumb(p, true) }
            : null,
        })),
      });
    }
    if (rest.startsWith('/api/rest_v1/page/summary/')) {
      const raw = decodeURIComponent(rest.slice('/api/rest_v1/page/summary/'.length));
      const normal = normalise(raw);
      if (key(normal) !== raw) {
        res.writeHead(301, { location: `./${encodeURIComponent(key(normal))}` });
        return void res.end();
      }
      const target = edition.redirects[normal];
      if (target) {
        res.writeHead(302, { location: `./${encodeURIComponent(key(target))}` });
        return void res.end();
      }
      const page = find(edition, normal);
      if (!page)
        return json(res, 404, {
          type: 'https://mediawiki.org/wiki/HyperSwitch/errors/not_found',
          title: 'Not found.',
          method: 'get',
          detail: 'Page or revision not found.',
          uri: rest,
        });
      return json(res, 200, summary(lang, page, f?.type === 'unsafe_prose'));
    }
    if (rest === '/w/api.php' && url.searchParams.get('action') === 'query') {
      const titles = (url.searchParams.get('titles') ?? '').split('|').filter(Boolean).slice(0, 50);
      const normalized: { fromencoded: boolean; from: string; to: string }[] = [];
      const redirects: { from: string; to: string }[] = [];
      const pages = titles.map((t) => {
        let title = normalise(t);
        if (title !== t) normalized.push({ fromencoded: false, from: t, to: title });
        const target = edition.redirects[title];
        if (target) {
          redirects.push({ from: title, to: target });
          title = target;
        }
        const page = find(edition, title);
        if (!page) return { ns: 0, title, missing: true };
        return {
          pageid: 10_000 + page.rank,
          ns: 0,
          title,
          ...(page.disambiguation ? { pageprops: { disambiguation: '' } } : {}),
        };
      });
      return json(res, 200, {
        batchcomplete: true,
        query: {
          ...(normalized.length ? { normalized } : {}),
          ...(redirects.length ? { redirects } : {}),
          pages,
        },
      });
    }
    return json(res, 404, { httpCode: 404 });
  }

  function media(file: string, res: ServerResponse): void {
    if (file === 'not-an-image.png') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html><script>alert(1)</script></html>');
    }
    if (file === 'drawing.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      return void res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    }
    if (file === 'huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return void res.end(Buffer.alloc(3_000_000, 1));
    }
    if (file === 'hop-same.png') {
      res.writeHead(302, { location: '/media/ada-lovelace.png' });
      return void res.end();
    }
    if (file === 'hop-away.png') {
      res.writeHead(302, { location: `http://localhost:${port}/media/ada-lovelace.png` });
      return void res.end();
    }
    if (!/^[a-z0-9-]+\.png$/.test(file)) return json(res, 404, { httpCode: 404 });
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG_1X1.length });
    res.end(PNG_1X1);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { httpCode: 500 });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    urlTemplate: `${origin}/{language}`,
    imageHost: `127.0.0.1:${port}`,
    setFault: (f) => {
      fault = f && { ...f };
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
