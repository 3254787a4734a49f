/**
 * The SVG sanitiser judged in Chromium: every public vector of test/fixtures/svg (DOMPurify's
 * and the HTML5 Security Cheatsheet's), as-is and inside an `<svg>`, goes through sanitizeSvg;
 * every SVG it serves is then rendered three ways, many to a page:
 * - inline in an HTML page, as the HTML parser reads markup;
 * - as `<img src="data:image/svg+xml;base64,…">`, as a page shows the icon route's answer;
 * - as a top-level `image/svg+xml` document, as the route's URL opens on its own (here without
 *   the route's CSP, so the sanitised markup alone is judged).
 * Every page reports script execution through hooks installed before any of its script runs
 * (`alert`, `confirm`, `prompt`, `print`, `open`, `console.*`, `document.write`, uncaught
 * errors, dialogs); every request is intercepted and counted (the pages' own URL excepted), and
 * a crashed page is counted. A control page of raw vectors proves the judge sees both.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { sanitizeSvg, UnsafeSvgError } from '../../lib/sanitize/svg.js';
import { SVG_XSS_CORPUS } from '../helpers/svg-xss-corpus.js';
import { CHROMIUM, hasChromium, SKIP_REASON } from './chromium.js';

const ORIGIN = 'http://judge.invalid';
const NS = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
/** Sanitised SVGs per page. */
const BATCH = 200;
/** How long each page is left to run animations and timers after it loaded. */
const SETTLE_MS = 1500;

interface Vector {
  payload: string;
}

const vectors = (file: string): Vector[] =>
  (
    JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/svg', file), 'utf8')) as {
      vectors: Vector[];
    }
  ).vectors;

/** The icons of test/fixtures/svg/animated-icons.json as whole SVG documents. */
function animatedIcons(): string[] {
  const { sets } = JSON.parse(
    readFileSync(path.join(PROJECT_ROOT, 'test/fixtures/svg/animated-icons.json'), 'utf8'),
  ) as { sets: Record<string, { width: number; height: number; icons: Record<string, string> }> };
  return Object.values(sets).flatMap((set) =>
    Object.values(set.icons).map(
      (body) =>
        `<svg xmlns="${NS}" width="24" height="24" viewBox="0 0 ${set.width} ${set.height}">${body}</svg>`,
    ),
  );
}

interface Verdict {
  executions: string[];
  requests: string[];
  crashes: number;
  brokenImages: number;
  activeNodes: number;
  notSvgDocuments: number;
}

/** A fresh context whose pages report executions and requests into `v`; `pages` are served. */
async function judgeContext(
  browser: Browser,
  pages: Map<string, { type: string; body: string }>,
  v: Verdict,
) {
  const context: BrowserContext = await browser.newContext();
  await context.exposeBinding('__judgeHit', (_source, what: string) => {
    v.executions.push(what);
  });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __judgeHit(what: string): void };
    const hit =
      (name: string) =>
      (...args: unknown[]) => {
        w.__judgeHit(`${name}(${args.map(String).join(',').slice(0, 80)})`);
      };
    for (const name of ['alert', 'confirm', 'prompt', 'print', 'open']) w[name] = hit(name);
    for (const name of ['log', 'info', 'warn', 'error', 'debug'])
      (console as unknown as Record<string, unknown>)[name] = hit(`console.${name}`);
    document.write = hit('document.write');
    document.writeln = hit('document.writeln');
    window.addEventListener('error', (e) => w.__judgeHit(`error(${e.message})`));
  });
  await context.route('**/*', (route) => {
    const page = pages.get(route.request().url());
    if (page) return route.fulfill({ status: 200, contentType: page.type, body: page.body });
    v.requests.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  return context;
}

/** Opens every page at once, lets them settle, and adds what each showed to `v`. */
async function judge(browser: Browser, pages: Map<string, { type: string; body: string }>, v: Verdict) {
  const context = await judgeContext(browser, pages, v);
  try {
    await Promise.all(
      [...pages.keys()].map(async (url) => {
        const page = await context.newPage();
        page.on('crash', () => (v.crashes += 1));
        page.on('dialog', (d) => {
          v.executions.push(`dialog(${d.message()})`);
          void d.dismiss();
        });
        page.on('pageerror', (e) => v.executions.push(`pageerror(${e.message})`));
        await page.goto(url, { waitUntil: 'load' });
        await page.waitForTimeout(SETTLE_MS);
        const seen = await page.evaluate(() => {
          const all = [...(document.body ?? document).querySelectorAll('*')];
          const active = all.filter(
            (el) =>
              /^(script|iframe|object|embed|foreignobject|image|feimage)$/iu.test(el.localName) ||
              [...el.attributes].some(
                (a) => /^on/iu.test(a.name) || (/href$/iu.test(a.name) && !a.value.startsWith('#')),
              ),
          );
          const imgs = [...document.images];
          return {
            active: active.length,
            broken: imgs.filter((i) => !i.complete || i.naturalWidth === 0).length,
            svgRoot: document.documentElement.localName === 'svg' || document.contentType === 'text/html',
          };
        });
        v.activeNodes += seen.active;
        v.brokenImages += seen.broken;
        if (!seen.svgRoot) v.notSvgDocuments += 1;
        await page.close();
      }),
    );
  } finally {
    await context.close();
  }
}

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${body}</body></html>`;

/** The three renderings of each batch of sanitised SVGs, by URL. */
function renderings(served: string[]): Map<string, { type: string; body: string }> {
  const pages = new Map<string, { type: string; body: string }>();
  for (let i = 0; i * BATCH < served.length; i += 1) {
    const batch = served.slice(i * BATCH, (i + 1) * BATCH);
    pages.set(`${ORIGIN}/inline-${i}.html`, {
      type: 'text/html',
      body: html(batch.map((s) => `<div>${s}</div>`).join('\n')),
    });
    pages.set(`${ORIGIN}/img-${i}.html`, {
      type: 'text/html',
      body: html(
        batch
          .map((s) => `<img alt="" src="data:image/svg+xml;base64,${Buffer.from(s).toString('base64')}">`)
          .join('\n'),
      ),
    });
    pages.set(`${ORIGIN}/document-${i}.svg`, {
      type: 'image/svg+xml',
      body: `<svg xmlns="${NS}" xmlns:xlink="${XLINK}">${batch.join('\n')}</svg>`,
    });
  }
  return pages;
}

/** How many of test/helpers/svg-xss-corpus.ts come back sanitised rather than refused. */
const SERVED_OF_OURS = 37;

const emptyVerdict = (): Verdict => ({
  executions: [],
  requests: [],
  crashes: 0,
  brokenImages: 0,
  activeNodes: 0,
  notSvgDocuments: 0,
});

describe.skipIf(!hasChromium)(`the SVG sanitiser judged in chromium (${SKIP_REASON})`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('the judge sees raw vectors execute and load', async () => {
    const v = emptyVerdict();
    await judge(
      browser,
      new Map([
        [
          `${ORIGIN}/control.html`,
          {
            type: 'text/html',
            body: html(
              `<img src="x" onerror="alert(1)"><svg xmlns="${NS}"><image href="${ORIGIN}/remote.png"/></svg>`,
            ),
          },
        ],
      ]),
      v,
    );
    expect(v.executions).toEqual(['alert(1)']);
    expect(v.requests.sort()).toEqual([`${ORIGIN}/remote.png`, `${ORIGIN}/x`]);
  });

  it('no vector runs script, loads anything or crashes the page once sanitised', async () => {
    const corpus = [...vectors('dompurify-vectors.json'), ...vectors('h5sc-vectors.json')];
    const variants = [
      ...corpus.flatMap((c) => [c.payload, `<svg xmlns="${NS}" xmlns:xlink="${XLINK}">${c.payload}</svg>`]),
      ...SVG_XSS_CORPUS.map((c) => c.body),
    ];
    const served = new Set<string>();
    let refused = 0;
    const exceptions: string[] = [];
    for (const input of variants) {
      try {
        served.add(sanitizeSvg(input));
      } catch (err) {
        if (err instanceof UnsafeSvgError) refused += 1;
        else exceptions.push(String(err));
      }
    }
    // The animated icons too: their animations run while the pages settle.
    const icons = animatedIcons().map(sanitizeSvg);
    const v = emptyVerdict();
    const pages = renderings([...served, ...icons]);
    await judge(browser, pages, v);
    console.info(
      `svg sanitiser in chromium: ${corpus.length} public vectors + ${SVG_XSS_CORPUS.length} of ours, ` +
        `${variants.length} variants, ` +
        `${variants.length - refused - exceptions.length} sanitised (${served.size} distinct), ${refused} refused, ` +
        `${icons.length} animated icons; ${pages.size} pages; ${v.executions.length} executions, ${v.requests.length} requests, ${v.crashes} crashes`,
    );
    expect(exceptions).toEqual([]);
    expect([corpus.length, SVG_XSS_CORPUS.length, variants.length]).toEqual([372, 40, 784]);
    expect(variants.length - refused).toBe(387 + SERVED_OF_OURS);
    expect(icons).toHaveLength(160);
    expect(v).toEqual(emptyVerdict());
  }, 120_000);
});
