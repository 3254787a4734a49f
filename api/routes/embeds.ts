/**
 * GET /v1/embeds/{embed_id}/file?format=preview|full|original: the sealed result of a
 * long-running skill call, for its owner only (anyone else gets the same 404 as for a missing
 * embed). All three formats are JSON:
 *   - `preview`: `{ embed_id, skill, previews }`, the short previews (inline);
 *   - `full`: `{ embed_id, skill, created_at, output, previews }`, the whole result (attachment);
 *   - `original`: the skill's raw output, exactly as it returned it (attachment).
 * An embed whose task has not finished answers 409 EMBED_PENDING with Retry-After.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FullSkillResult } from '../../activities/skill-activity.js';
import { openJson } from '../../lib/crypto/sealed-value.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { authenticate, BEARER, principalOf, requireSkillScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';

export const EMBED_FORMATS = ['preview', 'full', 'original'] as const;
type EmbedFormat = (typeof EMBED_FORMATS)[number];

const EmbedParams = z.object({ embed_id: z.string().min(1).max(64) });
const FileQuery = z.object({
  format: z.string().max(64).optional().describe('`preview`, `full` (default) or `original`.'),
});

/** Seconds a client should wait before asking again for a pending embed. */
const PENDING_RETRY_MS = 2000;

function badFormat(format: string, valid: readonly string[]): SkillflowError {
  return new SkillflowError(
    'INVALID_PARAMETER',
    `Unknown or unavailable format "${format.slice(0, 64)}"; use one of: ${valid.join(', ')}.`,
    {
      issues: [{ path: 'format', message: `must be one of ${valid.join(', ')}`, location: 'querystring' }],
      valid_formats: [...valid],
    },
  );
}

export const embedRoutes =
  (deps: ApiDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));

    app.get(
      '/v1/embeds/:embed_id/file',
      {
        schema: {
          tags: ['tasks'],
          security: BEARER,
          summary: 'Download an embed (the result of a long-running skill call)',
          params: EmbedParams,
          querystring: FileQuery,
          response: {
            200: z.unknown().describe('JSON in the chosen format.'),
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (req, reply) => {
        const owner = principalOf(req).ownerId;
        const row = await deps.store.db
          .selectFrom('embeds')
          .select(['id', 'owner_id', 'task_id', 'skill', 'status', 'content_sealed', 'created_at'])
          .where('id', '=', req.params.embed_id)
          .executeTakeFirst();
        if (!row || row.owner_id !== owner) throw new SkillflowError('NOT_FOUND', 'No embed with this id.');
        const [appId, skillId] = row.skill.split('.') as [string, string];
        requireSkillScope(req, appId, skillId);
        const format = req.query.format ?? 'full';
        if (!(EMBED_FORMATS as readonly string[]).includes(format)) throw badFormat(format, EMBED_FORMATS);
        if (row.status === 'failed') {
          throw new SkillflowError('EMBED_FAILED', undefined, {
            embed_id: row.id,
            task_id: row.task_id,
            status: row.status,
          });
        }
        if (row.status !== 'ready' || !row.content_sealed) {
          throw new SkillflowError(
            'EMBED_PENDING',
            undefined,
            { embed_id: row.id, task_id: row.task_id, status: row.status },
            PENDING_RETRY_MS,
          );
        }
        const result = openJson<FullSkillResult>(
          deps.keyring,
          row.content_sealed,
          sealedCell.embed(row.id, row.owner_id),
        );
        const available = EMBED_FORMATS.filter((f) => f !== 'preview' || result.previews.length > 0);
        if (!available.includes(format as EmbedFormat)) throw badFormat(format, available);
        reply.header('cache-control', 'private, no-store').type('application/json; charset=utf-8');
        if (format === 'preview')
          return reply.send(
            JSON.stringify({ embed_id: row.id, skill: row.skill, previews: result.previews }),
          );
        reply.header('content-disposition', `attachment; filename="${row.id}.${format}.json"`);
        if (format === 'original') return reply.send(JSON.stringify(result.output));
        return reply.send(
          JSON.stringify({
            embed_id: row.id,
            skill: row.skill,
            created_at: new Date(row.created_at).toISOString(),
            output: result.output,
            previews: result.previews,
          }),
        );
      },
    );
  };
