/**
 * GET /v1/embeds/{embed_id}/file?format=preview|full|original: the sealed result of a
 * long-running skill call, for its owner only (anyone else gets the same 404 as for a missing
 * embed). All three formats are JSON:
 *   - `preview`: `{ embed_id, skill, previews }`, the short previews (inline);
 *   - `full`: `{ embed_id, skill, created_at, output, previews }`, the whole result (attachment);
 *   - `original`: the skill's raw output, exactly as it returned it (attachment).
 * A skill may serve its own file for a format instead (`embedFile` of its implementation): the
 * electronics skills serve the sanitised schematic SVG as `preview` (docs/electronics.md).
 * An embed whose task has not finished answers 409 EMBED_PENDING with Retry-After.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import { authenticate, BEARER, principalOf, requireSkillScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { EmbedsService } from '../services/embeds.js';

export const EMBED_FORMATS = ['preview', 'full', 'original'] as const;
type EmbedFormat = (typeof EMBED_FORMATS)[number];

const EmbedParams = z.object({ embed_id: z.string().min(1).max(64) });
const FileQuery = z.object({
  format: z
    .enum(EMBED_FORMATS)
    .optional()
    .describe('`preview`, `full` (default) or `original`; `preview` only for an embed that has one.'),
});

/** A format this embed does not have (no preview); never quotes what the client sent. */
function unavailableFormat(valid: readonly string[]): SkillflowError {
  return new SkillflowError(
    'INVALID_PARAMETER',
    `This embed has no file in that format; use one of: ${valid.join(', ')}.`,
    {
      issues: [{ path: 'format', message: `must be one of ${valid.join(', ')}`, location: 'querystring' }],
      valid_formats: [...valid],
    },
  );
}

export const embedRoutes =
  (deps: ApiDeps, embeds: EmbedsService): FastifyPluginAsyncZod =>
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
            200: z
              .unknown()
              .describe(
                'JSON in the chosen format, or the skill’s own file (an SVG `preview` for electronics).',
              ),
            ...errorResponses(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (req, reply) => {
        const row = await embeds.find(principalOf(req).ownerId, req.params.embed_id);
        const [appId, skillId] = row.skill.split('.') as [string, string];
        requireSkillScope(req, appId, skillId);
        const format = req.query.format ?? 'full';
        const result = embeds.result(row);
        const own = deps.registry.available(appId, skillId)?.impl.embedFile;
        const file = (f: EmbedFormat) => own?.(f, result.output);
        const available = EMBED_FORMATS.filter(
          (f) => f !== 'preview' || result.previews.length > 0 || file(f) !== undefined,
        );
        if (!available.includes(format)) throw unavailableFormat(available);
        reply.header('cache-control', 'private, no-store');
        const custom = file(format);
        if (custom) {
          // A skill's own file (an SVG is already sanitised): never sniffed, never scripted.
          reply
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
          if (format !== 'preview')
            reply.header('content-disposition', `attachment; filename="${row.id}.${format}"`);
          return reply.type(custom.contentType).send(custom.body);
        }
        reply.type('application/json; charset=utf-8');
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
            created_at: row.createdAt.toISOString(),
            output: result.output,
            previews: result.previews,
          }),
        );
      },
    );
  };
