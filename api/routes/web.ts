/**
 * The web workspace: the files Vite built into web/dist, served at `/` with a strict
 * Content-Security-Policy (same-origin scripts, styles, images and API calls only; no inline
 * script, no framing). Only the files present at start are served, by exact name, so no request
 * path reaches the file system. Compact paths `/apps/<app>/<skill>` redirect to the hash route,
 * hyphens becoming underscores. Without a build, `/` answers 503 naming the build command.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

/** Where `npm run web:build` writes the workspace. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The workspace's Content-Security-Policy. */
export const WEB_CSP = [
  "default-src 'none'",
  // 'wasm-unsafe-eval': libsodium's WebAssembly, which opens chat messages in the browser (it
  // compiles WebAssembly only; JavaScript eval stays refused).
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  // blob: for the schematic preview, fetched over the session and shown through an object URL.
  "img-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface WebFile {
  body: Buffer;
  type: string;
}

/** Reads the built files (index.html and assets/*) once; null when there is no build. */
function loadBuild(dir: string): { index: WebFile; assets: Map<string, WebFile> } | null {
  const read = (file: string): WebFile => ({
    body: readFileSync(file),
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
  });
  try {
    const index = read(path.join(dir, 'index.html'));
    const assetDir = path.join(dir, 'assets');
    const names = statSync(assetDir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(assetDir) : [];
    return { index, assets: new Map(names.map((n) => [n, read(path.join(assetDir, n))])) };
  } catch {
    return null;
  }
}

const COMPACT_SEGMENT = /^[a-z][a-z0-9_-]{0,63}$/;

/** Registers `/`, `/assets/:file` and the compact `/apps/:app/:skill` redirect. */
export function webRoutes(opts: { distDir?: string } = {}): FastifyPluginAsync {
  return async (app) => {
    const build = loadBuild(opts.distDir ?? WEB_DIST_DIR);
    const headers = {
      'content-security-policy': WEB_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    };
    app.get('/', { schema: { hide: true } }, (_req, reply) => {
      if (!build) {
        return reply
          .code(503)
          .headers(headers)
          .type('text/plain; charset=utf-8')
          .send('The web workspace is not built. Run `npm run web:build`, then restart the server.\n');
      }
      return reply
        .headers(headers)
        .header('cache-control', 'no-cache')
        .type(build.index.type)
        .send(build.index.body);
    });
    app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, (req, reply) => {
      const file = build?.assets.get(req.params.file);
      if (!file)
        return reply.code(404).headers(headers).type('text/plain; charset=utf-8').send('Not found.\n');
      // Vite names assets by content hash, so they never change under the same name.
      return reply
        .headers(headers)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(file.type)
        .send(file.body);
    });
    // Browsers ask for it unprompted; an empty answer keeps their consoles free of 404s.
    app.get('/favicon.ico', { schema: { hide: true } }, (_req, reply) => reply.code(204).send());
    app.get<{ Params: { app: string; skill: string } }>(
      '/apps/:app/:skill',
      { schema: { hide: true } },
      (req, reply) => {
        const { app: appId, skill } = req.params;
        if (!COMPACT_SEGMENT.test(appId) || !COMPACT_SEGMENT.test(skill)) {
          return reply.code(404).headers(headers).type('text/plain; charset=utf-8').send('Not found.\n');
        }
        const under = (s: string) => s.replaceAll('-', '_');
        return reply.redirect(`/#apps/${under(appId)}/${under(skill)}`, 302);
      },
    );
  };
}
