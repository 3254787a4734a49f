/**
 * `POST /v1/hooks/{hook_id}`: a webhook trigger's URL. No API key: the request is signed with the
 * hook's secret (`X-Skillflow-Signature`, lib/webhooks/hook-signature.ts) and the rules of
 * api/services/webhooks.ts decide whether it starts a run. The body is read as raw bytes (the
 * signature covers them exactly), at most 256 KiB, and must be JSON.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SIGNATURE_HEADER } from '../../lib/webhooks/hook-signature.js';
import { clientKey } from '../client-limits.js';
import { errorResponses } from '../schemas.js';
import type { OpenedWebhook, WebhooksService } from '../services/webhooks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bytes of a hook request's body, as signed. */
    rawBody?: Buffer;
    /** The hook a signed request names, once verified. */
    hook?: OpenedWebhook;
  }
}

/** The largest hook request body. */
export const MAX_HOOK_BODY_BYTES = 256 * 1024;

const HookParams = z.object({
  hook_id: z.string().max(64).describe('The id in the hook URL a definition answer shows (`hook.url`).'),
});

const HookHeaders = z.looseObject({
  [SIGNATURE_HEADER]: z
    .string()
    .optional()
    .describe(
      '`t=<unix seconds>,v1=<hex HMAC-SHA256(signing secret, "<t>.<raw body>")>`; docs/triggers.md shows how to compute it.',
    ),
});

export const hookRoutes =
  (hooks: WebhooksService): FastifyPluginAsyncZod =>
  async (app) => {
    // Encapsulated: this route reads only JSON, as the raw bytes the signature covers.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
      const raw = body as Buffer;
      req.rawBody = raw;
      done(null, raw.toString('utf8'));
    });
    const verify = async (req: FastifyRequest<{ Params: { hook_id: string } }>) => {
      const header = req.headers[SIGNATURE_HEADER];
      req.hook = await hooks.verify(
        req.params.hook_id,
        typeof header === 'string' ? header : undefined,
        req.rawBody ?? Buffer.alloc(0),
        clientKey(req),
      );
    };
    app.post(
      '/v1/hooks/:hook_id',
      {
        bodyLimit: MAX_HOOK_BODY_BYTES,
        // After the signature: a repeated delivery with the same key starts nothing new.
        config: { idempotent: { ownerOf: (req) => req.hook?.ownerId } },
        preHandler: verify,
        schema: {
          tags: ['workflows'],
          summary: 'Start a run through a webhook trigger',
          description:
            "No API key: the request is signed with the hook's secret. A missing, wrong, stale (more than 5 minutes from now) or replayed signature, or an unknown hook, is 401 `HOOK_SIGNATURE_INVALID` and starts nothing. The JSON body's fields the trigger declares are the run inputs (checked like a manual run's, 400 at `body.<input>`); other fields are ignored. Limited per hook (`HOOK_RATE_LIMIT_PER_MINUTE`).",
          params: HookParams,
          headers: HookHeaders,
          // Read as text (the parser above); documented as what the sender posts.
          body: z.unknown().meta({ type: 'object', description: 'Any JSON object, up to 256 KiB.' }),
          response: {
            202: z.object({ task_id: z.string(), links: z.object({ task: z.string() }) }),
            ...errorResponses(400, 401, 413, 415, 429),
          },
        },
      },
      async (req, reply) => {
        const taskId = await hooks.start(req.hook!, typeof req.body === 'string' ? req.body : '');
        return reply.status(202).send({ task_id: taskId, links: { task: `/v1/tasks/${taskId}` } });
      },
    );
  };
