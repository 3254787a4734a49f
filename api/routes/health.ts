/**
 * Health of the API, the store, the Temporal connection and whether a worker polls.
 * - GET /v1/health is public and says only `up` (200) or `down` (503), under the per-IP limit;
 * - GET /v1/health/details names each part and why it is down, for an `admin` key only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, BEARER, requireScope } from '../auth.js';
import { limitPerIp } from '../client-limits.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';

const Check = z.object({
  status: z.enum(['up', 'down']),
  detail: z.string().optional(),
});

const PublicHealth = z.object({ status: z.enum(['up', 'down']) });

const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  checks: z.object({
    api: Check,
    store: Check.extend({ engine: z.enum(['pglite', 'postgres']) }),
    temporal: Check.extend({ namespace: z.string() }),
    worker: Check.extend({ task_queue: z.string(), pollers: z.number().int() }),
  }),
});

/** A worker counts as polling if the server saw it within this window. */
const POLLER_FRESH_MS = 2 * 60_000;

async function timed<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : 'failed';
}

export const healthRoutes =
  (deps: ApiDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const check = async (): Promise<z.infer<typeof HealthResponse>> => {
      const { store, temporal, config } = deps;
      const [storeCheck, temporalCheck, workerCheck] = await Promise.all([
        timed(2000, store.ping()).then(
          () => ({ status: 'up' as const }),
          (e: unknown) => ({ status: 'down' as const, detail: reason(e) }),
        ),
        timed(2000, temporal.connection.workflowService.getSystemInfo({})).then(
          () => ({ status: 'up' as const }),
          (e: unknown) => ({ status: 'down' as const, detail: reason(e) }),
        ),
        timed(
          2000,
          temporal.connection.workflowService.describeTaskQueue({
            namespace: temporal.namespace,
            taskQueue: { name: config.temporal.TEMPORAL_TASK_QUEUE },
            taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
          }),
        ).then(
          (res) => {
            const now = Date.now();
            const fresh = (res.pollers ?? []).filter((p) => {
              const seconds = Number(p.lastAccessTime?.seconds ?? 0);
              return now - seconds * 1000 < POLLER_FRESH_MS;
            });
            return fresh.length > 0
              ? { status: 'up' as const, pollers: fresh.length }
              : { status: 'down' as const, pollers: 0, detail: 'no worker is polling the task queue' };
          },
          (e: unknown) => ({ status: 'down' as const, pollers: 0, detail: reason(e) }),
        ),
      ]);
      const checks = {
        api: { status: 'up' as const },
        store: { ...storeCheck, engine: store.engine },
        temporal: { ...temporalCheck, namespace: temporal.namespace },
        worker: { ...workerCheck, task_queue: config.temporal.TEMPORAL_TASK_QUEUE },
      };
      const ok = [storeCheck, temporalCheck, workerCheck].every((c) => c.status === 'up');
      return { status: ok ? 'ok' : 'degraded', checks };
    };

    await app.register(async (open) => {
      open.addHook('onRequest', limitPerIp(app.limits));
      open.get(
        '/v1/health',
        {
          schema: {
            tags: ['operations'],
            summary: 'Up or down (public; details need an admin key)',
            response: { 200: PublicHealth, 503: PublicHealth, ...errorResponses(429) },
          },
        },
        async (_req, reply) => {
          const ok = (await check()).status === 'ok';
          return reply.status(ok ? 200 : 503).send({ status: ok ? 'up' : 'down' });
        },
      );
    });

    await app.register(async (admin) => {
      admin.addHook('onRequest', authenticate(deps.store));
      admin.get(
        '/v1/health/details',
        {
          schema: {
            tags: ['operations'],
            security: BEARER,
            summary: 'Health of the API, store, Temporal connection and workers (admin scope)',
            response: { 200: HealthResponse, 503: HealthResponse, ...errorResponses(401, 403, 429) },
          },
        },
        async (req, reply) => {
          requireScope(req, 'admin');
          const health = await check();
          return reply.status(health.status === 'ok' ? 200 : 503).send(health);
        },
      );
    });
  };
