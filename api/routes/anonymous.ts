/**
 * Guest routes: the anonymous skill call, its quote ("availability") pre-check
 * and the free-usage status, plus the public catalogue the web workspace shows guests (the apps
 * and a skill's details with its request schema: product metadata, no tenant data). No token; the guest is `X-Skillflow-Anonymous-ID`. These routes are
 * left out of the authenticated developer OpenAPI document (`hide: true`). Each request first
 * counts against the per-IP limit; the IP allowances use the same client key (TRUST_PROXY
 * decides the address, IPv6 counts per /64).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientKey, limitPerIp } from '../client-limits.js';
import type { ApiDeps } from '../deps.js';
import { AnonymousCallsService, GUEST_ID } from '../services/anonymous-calls.js';
import { errors } from '../../lib/errors/errors.js';
import { invalidParameter } from '../../lib/errors/skillflow-error.js';
import { FreeUsageStatusSchema } from '../../lib/limits/anonymous-credits.js';
import type { Limits } from '../../lib/limits/index.js';
import { appView, AppViewSchema, skillDetails, SkillDetailsSchema } from './skill-views.js';

export const GUEST_HEADER = 'x-skillflow-anonymous-id';

const SkillParams = z.object({ app_id: z.string().min(1).max(64), skill_id: z.string().min(1).max(64) });
const StatusQuery = z.object({ anonymous_id: z.string().max(256).optional() });

/** `GET /v1/anonymous/apps`: every app and its skills, as `GET /v1/apps/{app_id}` shows one. */
export const AnonymousAppListSchema = z
  .object({ apps: z.array(AppViewSchema) })
  .describe('The catalogue as a guest sees it.');

/** Response types of the guest routes, for the SDK's generated types (sdk/codegen/generate.ts). */
export const ANONYMOUS_RESPONSE_SCHEMAS = {
  AnonymousAppList: AnonymousAppListSchema,
  FreeUsageStatus: FreeUsageStatusSchema,
} as const;

export const anonymousRoutes =
  (deps: ApiDeps, limits: Limits): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new AnonymousCallsService(deps, limits);
    app.addHook('onRequest', limitPerIp(app.limits));

    app.get(
      '/v1/anonymous/apps',
      { schema: { hide: true, response: { 200: AnonymousAppListSchema } } },
      async () => {
        const ids = [...new Set(deps.registry.all().map((s) => s.manifest.appId))].sort();
        return {
          apps: ids.flatMap((id) => deps.registry.app(id) ?? []).map((m) => appView(deps.registry, m)),
        };
      },
    );

    app.get(
      '/v1/anonymous/apps/:app_id/skills/:skill_id/details',
      { schema: { hide: true, params: SkillParams, response: { 200: SkillDetailsSchema } } },
      async (req) => {
        const skill = deps.registry.available(req.params.app_id, req.params.skill_id);
        if (!skill) throw errors.skillNotFound();
        return skillDetails(skill);
      },
    );

    app.post(
      '/v1/anonymous/apps/:app_id/skills/:skill_id',
      { schema: { hide: true, params: SkillParams } },
      async (req, reply) => {
        const skill = service.eligible(req.params.app_id, req.params.skill_id);
        const guestId = service.guestId(req.headers[GUEST_HEADER]);
        const input = service.parse(skill, req.body);
        const result = await service.call(skill, input, guestId, clientKey(req));
        return reply
          .status(200)
          .send({ ...(result.output as Record<string, unknown>), previews: result.previews });
      },
    );

    app.post(
      '/v1/anonymous/apps/:app_id/skills/:skill_id/quote',
      { schema: { hide: true, params: SkillParams } },
      async (req) => {
        const skill = service.eligible(req.params.app_id, req.params.skill_id);
        const guestId = service.guestId(req.headers[GUEST_HEADER]);
        const input = service.parse(skill, req.body);
        return service.quote(skill, input, guestId, clientKey(req));
      },
    );

    app.get(
      '/v1/anonymous/free-usage/status',
      { schema: { hide: true, querystring: StatusQuery, response: { 200: FreeUsageStatusSchema } } },
      async (req) => {
        const id = req.query.anonymous_id;
        if (id !== undefined && !GUEST_ID.test(id)) {
          throw invalidParameter([
            { path: 'anonymous_id', message: 'must be 16 to 128 letters, digits, _ or -' },
          ]);
        }
        return limits.anonymous.status(limits.anonymous.keysFor(id, clientKey(req)));
      },
    );
  };
