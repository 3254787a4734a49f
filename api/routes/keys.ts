/**
 * /v1/keys: API keys for the CLI (`skillflow keys create`). Needs the `keys` scope. A new key
 * belongs to the caller's owner, may not carry scopes the caller lacks nor a higher tier, and
 * its token is shown once, in the 201 answer. Only SHA-256 hashes are stored; a revoked key
 * answers 401 from then on.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KeyNameSchema, ScopeSchema, TIERS } from '../../lib/keys.js';
import { authenticate, BEARER, requireScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { KeysService } from '../services/keys.js';

const CreateKeyBody = z
  .object({
    name: KeyNameSchema.describe('A label for people, e.g. "ci"; no control characters.'),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(20)
      .refine((s) => new Set(s).size === s.length, 'scopes must not repeat')
      .meta({ uniqueItems: true })
      .describe(
        '`*`, `workflows`, `keys`, `admin`, `app:<app_id>` or `skill:<app_id>.<skill_id>`; never broader than the caller.',
      ),
    tier: z.enum(TIERS).optional().describe("Rate-limit tier; default and maximum: the caller's tier."),
  })
  .strict();

const KeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  tier: z.enum(TIERS),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
const CreatedKeySchema = z.object({
  id: z.string(),
  token: z.string().describe('The API token. Shown only in this answer; store it now.'),
  name: z.string(),
  scopes: z.array(z.string()),
  tier: z.enum(TIERS),
  created_at: z.string(),
});
const KeyParams = z.object({ key_id: z.string().min(1).max(64) });

const iso = (v: Date | null): string | null => v?.toISOString() ?? null;

export const keyRoutes =
  (deps: ApiDeps, keys: KeysService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    const tags = ['keys'];

    app.post(
      '/v1/keys',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Create an API key (the token is shown once)',
          body: CreateKeyBody,
          response: { 201: CreatedKeySchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (req, reply) => {
        const key = await keys.create(requireScope(req, 'keys'), req.body);
        return reply.status(201).send({
          id: key.id,
          token: key.token,
          name: key.name,
          scopes: key.scopes,
          tier: key.tier,
          created_at: key.createdAt.toISOString(),
        });
      },
    );

    app.get(
      '/v1/keys',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "List the owner's API keys (never tokens or hashes)",
          response: { 200: z.object({ keys: z.array(KeySchema) }), ...errorResponses(401, 403, 429) },
        },
      },
      async (req) => {
        const rows = await keys.list(requireScope(req, 'keys').ownerId);
        return {
          keys: rows.map((r) => ({
            id: r.id,
            name: r.name,
            scopes: r.scopes,
            tier: r.tier,
            created_at: r.createdAt.toISOString(),
            last_used_at: iso(r.lastUsedAt),
            revoked_at: iso(r.revokedAt),
          })),
        };
      },
    );

    app.delete(
      '/v1/keys/:key_id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Revoke an API key',
          params: KeyParams,
          response: { 204: z.null().describe('Revoked.'), ...errorResponses(401, 403, 404, 429) },
        },
      },
      async (req, reply) => {
        await keys.revoke(requireScope(req, 'keys').ownerId, req.params.key_id);
        return reply.status(204).send(null);
      },
    );
  };
