/**
 * /v1/tasks: poll and cancel long-running work (workflow runs and skill calls alike). Needs the
 * scope of what the task is (see services/tasks.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses, TaskIdParams, TaskSchema } from '../schemas.js';
import type { TasksService } from '../services/tasks.js';

export const taskRoutes =
  (deps: ApiDeps, tasks: TasksService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    const tags = ['tasks'];
    app.get(
      '/v1/tasks/:task_id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Poll a task',
          params: TaskIdParams,
          response: { 200: TaskSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (req) => tasks.get(principalOf(req), req.params.task_id),
    );

    app.post(
      '/v1/tasks/:task_id/cancel',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Cancel a task (stops at its current step)',
          params: TaskIdParams,
          response: { 202: TaskSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (req, reply) => reply.status(202).send(await tasks.cancel(principalOf(req), req.params.task_id)),
    );
  };
