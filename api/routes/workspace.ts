/**
 * POST /v1/apps/workspace/results: browser-encrypted results of a chatless root and its
 * children. The server never sees plaintext: every content field is opaque
 * ciphertext with strict size bounds. `expected_user_id` binds the upload to the submitting
 * user; any other owner id is a 409. Posting the same `root_id` again replaces the upload
 * (200); the first post answers 201. Needs `*`, `app:workspace` or `skill:workspace.results`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate, BEARER, requireSkillScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import type { WorkspaceService } from '../services/workspace.js';

const Id = z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, _ or -');
const b64 = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, 'must be base64 or base64url');

const Sealed = (max: number) =>
  z
    .object({
      iv: b64(24).describe('AES-GCM nonce (12 bytes, base64).'),
      ciphertext: b64(max).describe('Ciphertext with the GCM tag appended (base64).'),
    })
    .strict();

/** Bounds keep one upload under the route's 2 MiB body limit: 256 KiB root + 50 × 24 KiB. */
export const ROOT_MAX = 256 * 1024;
export const CHILD_MAX = 24 * 1024;
export const MAX_CHILDREN = 50;

const ResultsBody = z
  .object({
    expected_user_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .describe('Owner id the browser encrypted for; must be the caller.'),
    root_id: Id.describe('Client id of the chatless root.'),
    key_id: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
      .describe("Id of the browser's key (opaque to the server)."),
    algorithm: z.literal('AES-256-GCM'),
    root: Sealed(ROOT_MAX),
    children: z
      .array(Sealed(CHILD_MAX).extend({ child_id: Id }).strict())
      .max(MAX_CHILDREN)
      .refine((c) => new Set(c.map((x) => x.child_id)).size === c.length, 'child_id values must be unique')
      .meta({ uniqueItems: true })
      .default([])
      .describe(
        `At most ${MAX_CHILDREN} children per post, each with its own \`child_id\`: two children with the same \`child_id\` are 400 INVALID_PARAMETER.`,
      ),
  })
  .strict();

const StoredSchema = z.object({
  result_id: z.string(),
  root_id: z.string(),
  child_count: z.number().int(),
  stored_at: z.string(),
});

export const workspaceRoutes =
  (deps: ApiDeps, workspace: WorkspaceService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));

    app.post(
      '/v1/apps/workspace/results',
      {
        bodyLimit: 2 * 1024 * 1024,
        schema: {
          tags: ['skills'],
          security: BEARER,
          summary: 'Store browser-encrypted workspace results',
          body: ResultsBody,
          response: { 200: StoredSchema, 201: StoredSchema, ...errorResponses(400, 401, 403, 409, 413, 429) },
        },
      },
      async (req, reply) => {
        const p = requireSkillScope(req, 'workspace', 'results');
        const body = req.body;
        const stored = await workspace.saveResults(p.ownerId, {
          expectedUserId: body.expected_user_id,
          rootId: body.root_id,
          childCount: body.children.length,
          payload: {
            key_id: body.key_id,
            algorithm: body.algorithm,
            root: body.root,
            children: body.children,
          },
        });
        return reply.status(stored.created ? 201 : 200).send({
          result_id: stored.resultId,
          root_id: body.root_id,
          child_count: body.children.length,
          stored_at: stored.storedAt.toISOString(),
        });
      },
    );
  };
