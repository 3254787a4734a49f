/**
 * `npm run bench:web`: the web workspace's first render in Debian's chromium (playwright-core), on
 * the local stack over loopback, against a baseline page in the same run:
 * - workspace: `/#apps` served by the real API (real apps, PGlite, a signed-in tab): first
 *   contentful paint, and the time until the app list is on screen (the catalogue fetched from
 *   the API and rendered);
 * - baseline: a static HTML page of the same shape (a heading and a list, no script) from a bare
 *   Fastify route on loopback with the same CSP: what the browser needs to show any page here.
 * Interleaved, BENCH_WEB_RUNS (default 15) fresh browser contexts each; medians and ratios.
 * Also prints the bundle's size (raw and gzip). Loopback only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { PROJECT_ROOT } from '../lib/config.js';
import { ensureWebBuild } from '../scripts/build-web.mjs';
import { startEngine } from '../test/helpers/engine.js';
import { CHROMIUM } from '../test/web/chromium.js';
import { percentile, printTable } from './stats.js';
import { APPS } from '../activities/apps/index.js';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 15);
const DIST = path.join(PROJECT_ROOT, 'web/dist');
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; base-uri 'none'";

const BASELINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title></head>
<body><header><nav><a href="#apps">Apps</a></nav></header><main><h1>Apps</h1><ul>
${['design', 'electronics', 'encyclopedia', 'hosting'].map((a) => `<li class="app"><h2>${a}</h2></li>`).join('')}
</ul></main></body></html>`;

interface Sample {
  fcp: number;
  ready: number;
}

async function sample(browser: Browser, url: string, token: string | undefined): Promise<Sample> {
  const context = await browser.newContext();
  if (token) await context.addInitScript((t) => sessionStorage.setItem('skillflow.api_key', t), token);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('li.app').first().waitFor();
  const ready = await page.evaluate(() => performance.now());
  const fcp = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  await context.close();
  return { fcp, ready };
}

function bundleSizes(): { raw: number; gzip: number } {
  const files = [
    path.join(DIST, 'index.html'),
    ...readdirSync(path.join(DIST, 'assets')).map((f) => path.join(DIST, 'assets', f)),
  ];
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

async function main(): Promise<void> {
  await ensureWebBuild({ log: (m) => process.stderr.write(`${m}\n`) });
  const engine = await startEngine({
    worker: false,
    apps: APPS,
    config: { PUBLIC_RATE_LIMIT_PER_MINUTE: 0, LOG_LEVEL: 'silent' },
  });
  const base = (await engine.api.app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const bare = Fastify();
  bare.get('/', (_req, reply) =>
    reply.header('content-security-policy', CSP).type('text/html; charset=utf-8').send(BASELINE_HTML),
  );
  const bareBase = (await bare.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    // Warm-up: the first context of a browser pays for its own start.
    await sample(browser, `${bareBase}/`, undefined);
    await sample(browser, `${base}/#apps`, engine.token);
    const ws: Sample[] = [];
    const baseline: Sample[] = [];
    for (let i = 0; i < RUNS; i++) {
      baseline.push(await sample(browser, `${bareBase}/`, undefined));
      ws.push(await sample(browser, `${base}/#apps`, engine.token));
    }
    const med = (xs: Sample[], k: keyof Sample) =>
      percentile(
        xs.map((x) => x[k]),
        50,
      );
    const f = (n: number) => n.toFixed(1);
    printTable([
      ['first render (ms, median)', 'workspace', 'baseline', 'ratio'],
      [
        'first contentful paint',
        f(med(ws, 'fcp')),
        f(med(baseline, 'fcp')),
        (med(ws, 'fcp') / med(baseline, 'fcp')).toFixed(2),
      ],
      [
        'app list on screen',
        f(med(ws, 'ready')),
        f(med(baseline, 'ready')),
        (med(ws, 'ready') / med(baseline, 'ready')).toFixed(2),
      ],
      [
        'app list on screen, p95',
        f(
          percentile(
            ws.map((x) => x.ready),
            95,
          ),
        ),
        f(
          percentile(
            baseline.map((x) => x.ready),
            95,
          ),
        ),
        '',
      ],
    ]);
    const size = bundleSizes();
    process.stdout.write(
      `bundle (index.html + assets): ${(size.raw / 1024).toFixed(1)} KiB raw, ${(size.gzip / 1024).toFixed(1)} KiB gzip\n`,
    );
  } finally {
    await browser.close();
    await bare.close();
    await engine.close();
  }
}

await main();
