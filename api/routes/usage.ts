/**
 * GET /v1/usage: the usage records of authenticated skill calls (who called, who pays, which
 * skill, request items, credits, queued or not), newest first. Without `team_id` the records
 * billed to the caller's account; with it those billed to that team (any member may read them).
 * A key with the `keys` scope (account administration) sees every key's records; any other key
 * sees only the records it made itself.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UsageRecordSchema } from '../../lib/usage/usage-record.js';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { UsageService } from '../services/usage.js';

const UsageQuery = z
  .object({
    team_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional()
      .describe(
        'List the records billed to this team (membership required; a team the caller is not in is 404).',
      ),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    before: z.iso.datetime().optional().describe('Only records created before this time (paging).'),
  })
  .strict();

export const usageRoutes =
  (deps: ApiDeps, usage: UsageService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.get(
      '/v1/usage',
      {
        schema: {
          tags: ['account'],
          security: BEARER,
          summary: 'Usage records of skill calls, newest first',
          querystring: UsageQuery,
          response: {
            200: z.object({ records: z.array(UsageRecordSchema) }),
            ...errorResponses(400, 401, 403, 404, 429),
          },
        },
      },
      async (req) => {
        const { team_id: teamId, limit, before } = req.query;
        const records = await usage.list(principalOf(req), {
          teamId,
          limit,
          before: before ? new Date(before) : undefined,
        });
        return { records };
      },
    );
  };
