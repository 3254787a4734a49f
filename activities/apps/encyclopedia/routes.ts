/**
 * Encyclopedia routes: title search and article summary for API keys scoped
 * to the encyclopedia app (`app:encyclopedia`, or the skill), and the public thumbnail proxy
 * that every returned thumbnail URL points at. Query strings are never logged (api/request-log.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LanguageSchema } from '../../../lib/encyclopedia/languages.js';
import type { AppRouteContext, AppRoutes } from '../../registry/routes.js';
import type { EncyclopediaAppConfig } from './config.js';
import { EncyclopediaRoutes } from './route-service.js';
import { MAX_QUERY_CHARS, MAX_SEARCH_LIMIT } from './skills/schemas.js';
import { ArticleSummarySchema, SearchResultSchema } from './upstream/articles.js';
import type { EncyclopediaService } from './upstream/service.js';

const language = LanguageSchema.default('en');
const SearchQuery = z.object({
  query: z.string().trim().min(1).max(MAX_QUERY_CHARS).describe('Title text, partial or run-together.'),
  language,
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(5).describe('1 to 10 titles.'),
});
const SummaryQuery = z.object({
  title: z.string().trim().min(1).max(255).describe('The canonical title.'),
  language,
});
const ThumbnailQuery = z.object({
  src: z
    .string()
    .min(1)
    .max(1024)
    .describe('An image URL from a search or summary thumbnail (at most 1,024 characters).'),
});
const cached = z.boolean().describe('True when the cache answered (no credit charged).');

/** The encyclopedia's routes, with the OpenAPI tag they use. */
export const encyclopediaRoutes: AppRoutes<EncyclopediaAppConfig, EncyclopediaService> = {
  tags: [{ name: 'encyclopedia', description: 'Article title search, summaries and thumbnails' }],
  plugin: (ctx) => routes(ctx, new EncyclopediaRoutes(ctx.services, ctx.limits, ctx.usage)),
};

const routes =
  (
    ctx: AppRouteContext<EncyclopediaAppConfig, EncyclopediaService>,
    service: EncyclopediaRoutes,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['encyclopedia'];

    await app.register(authedRoutes(ctx, service));

    app.get(
      '/v1/encyclopedia/thumbnail',
      {
        schema: {
          tags,
          summary: 'Thumbnail bytes through the image proxy',
          description:
            'Only images on ENCYCLOPEDIA_IMAGE_HOSTS, raster image types (image/png, image/jpeg, image/gif, image/webp, image/avif), size-capped, no cross-host redirects. Public; limited per address.',
          querystring: ThumbnailQuery,
          response: {
            200: z.unknown().describe('The image bytes.'),
            ...ctx.errorResponses(400, 403, 404, 429, 503),
          },
        },
      },
      async (req, reply) => {
        const image = await service.thumbnail(ctx.clientKey(req), req.query.src, abortOnClose(req.raw));
        return reply
          .header('content-type', image.contentType)
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'")
          .send(image.bytes);
      },
    );
  };

const authedRoutes =
  (
    ctx: AppRouteContext<EncyclopediaAppConfig, EncyclopediaService>,
    service: EncyclopediaRoutes,
  ): FastifyPluginAsyncZod =>
  async (authed) => {
    const tags = ['encyclopedia'];
    authed.addHook('onRequest', ctx.authenticate);
    authed.get(
      '/v1/encyclopedia/search',
      {
        schema: {
          tags,
          security: ctx.bearer,
          summary: 'Search article titles',
          description:
            'Ordered public title metadata, best match first, disambiguation pages marked. One credit on a cache miss, none on a hit.',
          querystring: SearchQuery,
          response: {
            200: SearchResultSchema.extend({ cached }),
            ...ctx.errorResponses(400, 401, 403, 429, 503),
          },
        },
      },
      async (req) => {
        const principal = ctx.requireSkillScope(req, 'encyclopedia', 'search_articles');
        return service.search({ principal, ipKey: ctx.clientKey(req) }, req.query, abortOnClose(req.raw));
      },
    );
    authed.get(
      '/v1/encyclopedia/summary',
      {
        schema: {
          tags,
          security: ctx.bearer,
          summary: 'Summary of one article',
          description:
            'Selected public metadata of an article; the extract is sanitised plain text. One credit on a cache miss, none on a hit.',
          querystring: SummaryQuery,
          response: {
            200: ArticleSummarySchema.extend({ cached }),
            ...ctx.errorResponses(400, 401, 403, 404, 429, 502, 503),
          },
        },
      },
      async (req) => {
        const principal = ctx.requireSkillScope(req, 'encyclopedia', 'get_summary');
        return service.summary({ principal, ipKey: ctx.clientKey(req) }, req.query, abortOnClose(req.raw));
      },
    );
  };

/** Aborts the lookup when the client goes away. */
function abortOnClose(raw: IncomingMessage): AbortSignal {
  const controller = new AbortController();
  raw.once('close', () => {
    if (!raw.complete) controller.abort(new Error('client closed'));
  });
  return controller.signal;
}
