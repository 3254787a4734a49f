/**
 * `GET /v1/apps/design/icons/upstream/{prefix}/{name}.svg`: a sanitised
 * icon SVG. Public (so `<img src>` works) under its own per-IP limit
 * (ICON_SVG_RATE_LIMIT_PER_MINUTE, shared by every replica through leases of a few tokens,
 * lib/limits/leased-ip-limit.ts); `prefix` and `name` are checked by
 * pattern, `height` and `color` validated. Answers carry a script-blocking CSP, `nosniff`,
 * `Cache-Control` (a year and `immutable` for a versioned URL with the current token,
 * icon-version.ts; else a day) and a strong `ETag` (If-None-Match → 304). The sanitised bytes
 * are made once per icon, size and colour and kept as a Buffer.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppRouteContext, AppRoutes } from '../../registry/routes.js';
import type { DesignAppConfig } from './config.js';
import { IconSvgService } from './icon-svgs.js';
import { ICON_IMMUTABLE_CACHE_CONTROL, ICON_VERSION_PATTERN } from './icon-version.js';
import { ICON_PART } from './upstream/index.js';

export const ICON_SVG_PATH = '/v1/apps/design/icons/upstream/:prefix/:file';
export const ICON_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
export const ICON_CACHE_CONTROL = 'public, max-age=86400';
export const DEFAULT_SVG_HEIGHT = 24;

const IconParams = z.object({
  prefix: z.string().max(64).regex(ICON_PART, 'must be a collection prefix: a-z, 0-9 and single hyphens'),
  file: z
    .string()
    .max(132)
    .regex(
      /^[a-z0-9]+(?:-[a-z0-9]+)*\.svg$/u,
      'must be an icon name (a-z, 0-9, single hyphens) followed by .svg',
    )
    .describe('`<name>.svg`'),
});

const IconQuery = z.object({
  height: z.coerce
    .number()
    .int('must be an integer from 8 to 512')
    .min(8, 'must be an integer from 8 to 512')
    .max(512, 'must be an integer from 8 to 512')
    .default(DEFAULT_SVG_HEIGHT)
    .describe('Rendered height in pixels; width keeps the aspect ratio. Default 24.'),
  color: z
    .string()
    .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/u, 'must be a hex colour such as #1a2b3c')
    .optional()
    .describe('Replaces currentColor; #rgb or #rrggbb (URL-encode the # as %23).'),
  v: z
    .string()
    .regex(ICON_VERSION_PATTERN, "must be the version token of a search result's svg_url")
    .optional()
    .describe(
      "The collection's version token, as in a search result's `svg_url`: when it is the current one the answer may be kept for a year (`immutable`).",
    ),
});

/** The design app's routes: the sanitised icon SVG. */
export const designRoutes: AppRoutes<DesignAppConfig> = { plugin: (ctx) => iconRoutes(ctx) };

/** The icon SVG route; it needs only these parts of the context. */
export const iconRoutes =
  (
    ctx: Pick<AppRouteContext<DesignAppConfig>, 'config' | 'clientKey' | 'errorResponses' | 'limits'> &
      Partial<Pick<AppRouteContext<DesignAppConfig>, 'store'>>,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new IconSvgService(ctx.config, undefined, ctx.store);
    app.addHook('onRequest', async (req) => ctx.limits.charge('icon_svg_ip', ctx.clientKey(req)));
    app.get(
      ICON_SVG_PATH,
      {
        schema: {
          tags: ['skills'],
          summary: 'A sanitised icon SVG (public; for <img src>)',
          params: IconParams,
          querystring: IconQuery,
          response: {
            200: z
              .string()
              .meta({ contentMediaType: 'image/svg+xml' })
              .describe('The sanitised SVG (image/svg+xml).'),
            304: z.null().describe('Not modified (If-None-Match matched the ETag).'),
            ...ctx.errorResponses(404, 429, 502, 503),
          },
        },
      },
      async (req, reply) => {
        const name = req.params.file.slice(0, -'.svg'.length);
        const svg = await service.get(req.params.prefix, name, {
          height: req.query.height,
          color: req.query.color,
        });
        const current = svg.version !== undefined && req.query.v === svg.version;
        reply
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', ICON_CSP)
          .header('cache-control', current ? ICON_IMMUTABLE_CACHE_CONTROL : ICON_CACHE_CONTROL)
          .header('etag', svg.etag);
        if (req.headers['if-none-match'] === svg.etag) return reply.status(304).send(null);
        // The schema documents the body as SVG text; the bytes go out as they are (no encoding).
        return (reply as FastifyReply).header('content-type', 'image/svg+xml; charset=utf-8').send(svg.body);
      },
    );
  };
