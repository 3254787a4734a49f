/**
 * `npm run bench:icons`: the icon SVG route over real HTTP on 127.0.0.1.
 * - warm cache: the route (per-IP limit, validation, cache hit, headers) against a bare Fastify
 *   route serving the same bytes (ratio of sustained throughput at 20 in flight; goal ≥ 0.8);
 * - cold cache: render + sanitise per request (a distinct height each time);
 * - offline search p50 over a fixed query list, and the index build time.
 */
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { request } from 'undici';
import { designConfig, iconRoutes, offlineIndex, searchOffline } from '../activities/apps/design/index.js';
import { registerErrorHandling } from '../api/errors.js';
import { trackAllowedMethods } from '../api/allowed-methods.js';
import { clientKey } from '../api/client-limits.js';
import { errorResponses } from '../api/schemas.js';
import { loadConfig } from '../lib/config.js';
import type { Limits } from '../lib/limits/index.js';
import { best, measure, percentile, printTable, type Figures } from './stats.js';

const QUERIES = [
  'home',
  'arrow left',
  'user',
  'settings',
  'github',
  'bell',
  'search',
  'trash',
  'cloud upload',
  'heart',
];

async function main(): Promise<void> {
  const t0 = performance.now();
  const idx = offlineIndex();
  const buildMs = performance.now() - t0;

  const config = loadConfig({ ICON_SVG_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent' });
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, trackAllowedMethods(app));
  // The route charges nothing here (ICON_SVG_RATE_LIMIT_PER_MINUTE=0 turns the limit off).
  const limits = { charge: () => Promise.resolve(undefined) } as unknown as Pick<Limits, 'charge'>;
  await app.register(iconRoutes({ config: designConfig(config), clientKey, errorResponses, limits }));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const warm = await request(`${base}/v1/apps/design/icons/upstream/mdi/home.svg`);
  const bytes = await warm.body.text();

  const bare = Fastify();
  bare.get('/x.svg', (_req, reply) =>
    reply.header('content-type', 'image/svg+xml; charset=utf-8').send(bytes),
  );
  const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

  const statuses = new Map<number, number>();
  const hit = (url: string) => async () => {
    const res = await request(url);
    await res.body.text();
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  };
  // Latency: 300 sequential requests; throughput: 5,000 with 20 in flight (sustained); three
  // interleaved rounds, best of each side.
  const round = (url: string) => measure(hit(url), 300, 20, 5000);
  let route: Figures | undefined;
  let plain: Figures | undefined;
  for (let r = 0; r < 3; r++) {
    const x = await round(`${base}/v1/apps/design/icons/upstream/mdi/home.svg`);
    const y = await round(`${bareBase}/x.svg`);
    route = route ? best(route, x) : x;
    plain = plain ? best(plain, y) : y;
  }
  if (!route || !plain) throw new Error('no round ran');

  const cold: number[] = [];
  const names = [...(idx.sets.get('mdi')!.icons ? Object.keys(idx.sets.get('mdi')!.icons) : [])].slice(
    0,
    200,
  );
  for (const [i, name] of names.entries()) {
    const started = performance.now();
    await hit(`${base}/v1/apps/design/icons/upstream/mdi/${name}.svg?height=${8 + (i % 500)}`)();
    cold.push(performance.now() - started);
  }

  const search: number[] = [];
  for (let r = 0; r < 5; r++)
    for (const q of QUERIES) {
      const started = performance.now();
      searchOffline(idx, q);
      search.push(performance.now() - started);
    }

  await app.close();
  await bare.close();
  process.stdout.write(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
  const f = (n: number) => n.toFixed(2);
  printTable([
    ['measure', 'p50 ms', 'p95 ms', 'req/s'],
    ['SVG route, warm cache', f(route.median), f(route.p95), route.throughput.toFixed(0)],
    ['bare Fastify, same bytes', f(plain.median), f(plain.p95), plain.throughput.toFixed(0)],
    ['SVG route, cold cache (200 mdi icons)', f(percentile(cold, 50)), f(percentile(cold, 95)), '-'],
    [
      `offline search (${QUERIES.length} queries x5)`,
      f(percentile(search, 50)),
      f(percentile(search, 95)),
      '-',
    ],
  ]);
  process.stdout.write(
    `warm route / bare throughput ratio at 20 in flight: ${(route.throughput / plain.throughput).toFixed(2)} (goal ≥ 0.8: ${route.throughput / plain.throughput >= 0.8 ? 'met' : 'MISSED'})\n` +
      `offline index: ${idx.entries.length} icons in ${idx.collections ? Object.keys(idx.collections).length : 0} sets, built in ${buildMs.toFixed(0)} ms\n`,
  );
}

await main();
