/** api/routes/web.ts: the built workspace at `/`, its CSP, assets, compact redirects, no build. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { WEB_CSP, webRoutes } from '../../api/routes/web.js';

const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><script type="module" src="/assets/a-1.js"></script>',
);
writeFileSync(path.join(dist, 'assets', 'a-1.js'), 'console.log(1);');
afterAll(() => rmSync(dist, { recursive: true, force: true }));

async function serve(distDir: string) {
  const app = Fastify();
  await app.register(webRoutes({ distDir }));
  return app;
}

describe('web workspace routes', () => {
  it('serves index.html at / with the strict CSP and no inline script allowed', async () => {
    const app = await serve(dist);
    const res = await app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(WEB_CSP);
    expect(WEB_CSP).toContain("script-src 'self'");
    expect(WEB_CSP).not.toContain('unsafe-inline');
    expect(WEB_CSP).not.toContain("'unsafe-eval'");
    expect(WEB_CSP).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; " +
        "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.body).toBe('<!doctype html><script type="module" src="/assets/a-1.js"></script>');
  });

  it('serves a built asset by exact name and 404s anything else', async () => {
    const app = await serve(dist);
    const js = await app.inject('/assets/a-1.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log(1);');
    for (const url of ['/assets/missing.js', '/assets/..%2Findex.html']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('Not found.\n');
    }
  });

  it('redirects compact /apps/<app>/<skill> paths to the hash route, hyphens to underscores', async () => {
    const app = await serve(dist);
    const res = await app.inject('/apps/hosting/search-domains');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/#apps/hosting/search_domains');
    const bad = await app.inject('/apps/Hosting/%3Cscript%3E');
    expect(bad.statusCode).toBe(404);
    expect(bad.body).toBe('Not found.\n');
  });

  it('says clearly that the workspace is not built when web/dist is missing', async () => {
    const app = await serve(path.join(dist, 'nope'));
    const res = await app.inject('/');
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(
      'The web workspace is not built. Run `npm run web:build`, then restart the server.\n',
    );
    expect((await app.inject('/assets/a-1.js')).statusCode).toBe(404);
  });
});
