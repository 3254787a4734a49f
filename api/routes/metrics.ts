/**
 * GET /metrics: Prometheus text of this process's upstream health (the rates of
 * 4xx and 5xx answers are monitored), per provider: request counts by status class, latency
 * histograms, and cache hits and misses (lib/metrics/upstream.ts). An operator route: an
 * `admin` key, like /v1/health/details. Scrape each API and worker process that serves calls.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { metricsRegistry } from '../../lib/metrics/upstream.js';
import { authenticate, BEARER, requireScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';

export const metricsRoutes =
  (deps: ApiDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.get(
      '/metrics',
      {
        schema: {
          tags: ['operations'],
          security: BEARER,
          summary: 'Upstream request, latency and cache metrics in Prometheus text format (admin scope)',
          response: {
            200: z
              .string()
              .meta({ contentMediaType: 'text/plain' })
              .describe('Prometheus text exposition format 0.0.4.'),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (req, reply) => {
        requireScope(req, 'admin');
        const text = await metricsRegistry.metrics();
        return reply.header('cache-control', 'no-store').type(metricsRegistry.contentType).send(text);
      },
    );
  };
