/**
 * Generated-asset download links:
 *   - `POST /v1/assets/download-links` (Bearer, the scope of the embed's skill, as the embed
 *     route): `{ url, expires_at }`, a fresh signed URL to one asset of the caller's own embed,
 *     valid DOWNLOAD_LINK_TTL_SECONDS (at most 5 minutes);
 *   - `GET /v1/assets/download/{token}` (no key: the URL is the credential; per-IP limited):
 *     the file, as an attachment that is never cached.
 * The token is never logged: the request log and traces name the route pattern only
 * (api/request-log.ts, api/request-trace.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ASSET_NAMES, MAX_DOWNLOAD_TOKEN_CHARS } from '../../lib/crypto/download-link.js';
import { authenticate, BEARER, principalOf } from '../auth.js';
import { limitPerIp } from '../client-limits.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import { MAX_DESIGN_INDEX, type AssetsService } from '../services/assets.js';

const tags = ['tasks'];

const LinkBody = z
  .object({
    embed_id: z.string().min(1).max(64),
    asset: z
      .enum(ASSET_NAMES)
      .default('original')
      .describe(
        '`original` (default): the skill’s raw output as JSON; `schematic`: a power design’s sanitised SVG; `parts`: a power design’s parts list as JSON.',
      ),
    design: z
      .number()
      .int()
      .min(0)
      .max(MAX_DESIGN_INDEX)
      .default(0)
      .describe('Which design of a `get_power_design` call (its index in the request), default 0.'),
  })
  .strict();

const LinkSchema = z.object({
  url: z.string().describe('The download URL; it is the credential, so keep it private.'),
  expires_at: z.string().describe('When the URL stops working (ISO 8601).'),
});

const DownloadParams = z.object({ token: z.string().min(1).max(MAX_DOWNLOAD_TOKEN_CHARS) });

/** The API's base URL for links: PUBLIC_URL, else the origin the caller reached. */
function originOf(deps: ApiDeps, req: { protocol: string; host: string }): string {
  return deps.config.api.PUBLIC_URL?.replace(/\/+$/, '') ?? `${req.protocol}://${req.host}`;
}

export const assetRoutes =
  (deps: ApiDeps, assets: AssetsService): FastifyPluginAsyncZod =>
  async (root) => {
    await root.register(linkRoute(deps, assets));
    await root.register(downloadRoute(assets));
  };

const linkRoute =
  (deps: ApiDeps, assets: AssetsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.post(
      '/v1/assets/download-links',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'A short-lived download link for a generated asset of an embed',
          description:
            'Needs the scope of the embed’s skill. Another owner’s or a missing embed is 404 (as on the embed route); an asset the embed does not have is 400; a pending or failed embed is 409.',
          body: LinkBody,
          response: { 200: LinkSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
        },
      },
      async (req) => {
        const { embed_id: embedId, asset, design } = req.body;
        return assets.createLink(principalOf(req), { embedId, asset, design }, originOf(deps, req));
      },
    );
  };

const downloadRoute =
  (assets: AssetsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', limitPerIp(app.limits));
    app.get(
      '/v1/assets/download/:token',
      {
        schema: {
          tags,
          summary: 'Download a generated asset through its link',
          description:
            'No API key: the link is the credential. An expired link is 403 `DOWNLOAD_LINK_EXPIRED`; an altered or malformed one, or one asked for with a key since revoked, 403 `DOWNLOAD_LINK_INVALID`.',
          params: DownloadParams,
          response: {
            200: z
              .string()
              .meta({ contentMediaType: 'application/octet-stream' })
              .describe('The file: `image/svg+xml` for a schematic, JSON otherwise.'),
            ...errorResponses(400, 403, 404, 409, 429),
          },
        },
      },
      async (req, reply) => {
        const file = await assets.download(req.params.token);
        return reply
          .header('cache-control', 'private, no-store')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .header('referrer-policy', 'no-referrer')
          .type(file.contentType)
          .send(file.body);
      },
    );
  };
