/**
 * App and skill discovery and authenticated skill calls. Every loaded skill
 * gets its own POST route with its zod input schema (so the OpenAPI document describes each
 * skill's body); a parametric route behind them resolves hyphenated ids
 * (`search-domains` → `search_domains`) and answers unknown or unloadable skills with 404.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Registry } from '../../activities/registry/registry.js';
import type { LoadedSkill, SkillImplementation } from '../../activities/registry/types.js';
import { policyDeadlineMs } from '../../activities/runtime/run-skill.js';
import { errors } from '../../lib/errors/errors.js';
import { parseOrThrow } from '../../lib/errors/skillflow-error.js';
import { refuseUngranted } from '../../activities/registry/restricted-options.js';
import { restrictedScopesOf } from '../../lib/keys.js';
import { authenticate, BEARER, chargeDeferredTier, requireSkillScope, takeDeferredTier } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { claimSeed } from '../idempotency.js';
import { errorResponses } from '../schemas.js';
import type { SkillCallsService } from '../services/skill-calls.js';
import type { TeamsService } from '../services/teams.js';
import {
  appView,
  skillDetails,
  skillView,
  AppViewSchema,
  SkillDetailsSchema,
  SkillViewSchema,
} from './skill-views.js';

/** The shortest lease of a call's Idempotency-Key claim. */
export const CALL_START_LEASE_MS = 30_000;

const AppParams = z.object({ app_id: z.string().min(1).max(64) });
const SkillParams = AppParams.extend({ skill_id: z.string().min(1).max(64) });
const CallQuery = z.object({
  team_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});

function findSkill(
  registry: Registry,
  appId: string,
  skillId: string,
): LoadedSkill & { impl: SkillImplementation } {
  const skill = registry.available(appId, skillId);
  if (!skill) throw errors.skillNotFound();
  return skill;
}

/**
 * How long an unanswered Idempotency-Key claim of a call holds before a retry may take it over:
 * the call's ids derive from the claim, so a retry finds the task the first attempt started and
 * bills once. A quick call answers within its policy deadline; a long-running call's request only
 * starts its task.
 */
export function callLeaseMs(
  skill: Pick<LoadedSkill, 'policy'> & { manifest: Pick<LoadedSkill['manifest'], 'capabilities'> },
): number {
  const answersWithin = skill.manifest.capabilities.mode === 'async' ? 0 : policyDeadlineMs(skill);
  return CALL_START_LEASE_MS + answersWithin;
}

export const skillRoutes =
  (deps: ApiDeps, calls: SkillCallsService, teams: TeamsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.addHook('onSend', chargeDeferredTier);
    const tags = ['skills'];

    app.get(
      '/v1/apps/:app_id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Describe an app and its skills',
          params: AppParams,
          response: { 200: AppViewSchema, ...errorResponses(401, 404) },
        },
      },
      async (req) => {
        const manifest = deps.registry.app(req.params.app_id);
        if (!manifest) throw errors.skillNotFound('No such app.');
        return appView(deps.registry, manifest);
      },
    );

    app.get(
      '/v1/apps/:app_id/skills/:skill_id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Describe a skill',
          params: SkillParams,
          response: { 200: SkillViewSchema, ...errorResponses(401, 404) },
        },
      },
      async (req) => skillView(findSkill(deps.registry, req.params.app_id, req.params.skill_id)),
    );

    app.get(
      '/v1/apps/:app_id/skills/:skill_id/details',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Request schema, defaults, pricing, providers and availability',
          params: SkillParams,
          response: { 200: SkillDetailsSchema, ...errorResponses(401, 404) },
        },
      },
      async (req) => skillDetails(findSkill(deps.registry, req.params.app_id, req.params.skill_id)),
    );

    // `input` is the body as the skill's zod schema parsed it, once, at this edge.
    const handle = async (
      req: FastifyRequest,
      reply: FastifyReply,
      skill: LoadedSkill & { impl: SkillImplementation },
      input: unknown,
      teamId?: string,
    ) => {
      const principal = requireSkillScope(req, skill.manifest.appId, skill.manifest.id);
      refuseUngranted(skill.manifest, input, restrictedScopesOf(principal));
      if (teamId) await teams.requireSpender(principal, teamId);
      const outcome = await calls.call(principal, skill, input, {
        payer: teamId ? { type: 'team', id: teamId } : { type: 'owner', id: principal.ownerId },
        tierHeaders: takeDeferredTier(req, reply),
        seed: claimSeed(req),
      });
      if (outcome.kind === 'started')
        return reply.status(202).send({ task_id: outcome.taskId, embed_id: outcome.embedId });
      if (outcome.kind === 'queued') {
        // When to poll: the reset time of the limit that queued it.
        if (outcome.retryAfterMs > 0) reply.header('retry-after', Math.ceil(outcome.retryAfterMs / 1000));
        return reply.status(202).send({ task_id: outcome.taskId, status: 'queued' });
      }
      // `previews` and `call_id` first, then the skill's output (an output field of either name
      // gives way). Built here from typed values, so written as it is: the zod serializer would
      // only copy it to check the two fields set here.
      const {
        previews: _previews,
        call_id: _callId,
        ...output
      } = outcome.result.output as Record<string, unknown>;
      const body = { previews: outcome.result.previews, call_id: outcome.callId, ...output };
      return reply.status(200).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
    };

    for (const skill of deps.registry.all()) {
      if (!skill.impl) continue;
      const loaded = skill as LoadedSkill & { impl: SkillImplementation };
      app.post(
        `/v1/apps/${skill.manifest.appId}/skills/${skill.manifest.id}`,
        {
          config: { queueWhenLimited: true, idempotent: { leaseMs: callLeaseMs(loaded) } },
          schema: {
            tags,
            security: BEARER,
            summary: skill.manifest.title,
            description: skill.manifest.description,
            querystring: CallQuery,
            body: loaded.impl.input,
            response: {
              200: z
                .looseObject({
                  previews: z.array(z.unknown()),
                  call_id: z
                    .string()
                    .describe(
                      "This call's id, the task_id of its usage record (answered inline: no task to poll).",
                    ),
                })
                .describe('The skill output (see the skill details) plus previews and call_id.'),
              202: z.object({
                task_id: z.string(),
                embed_id: z.string().optional(),
                status: z.literal('queued').optional(),
              }),
              ...errorResponses(400, 401, 403, 404, 429, 503),
            },
          },
        },
        (req, reply) => handle(req, reply, loaded, req.body, req.query.team_id),
      );
    }

    // Hyphenated ids and unknown skills: hidden from the OpenAPI document; no body schema, so
    // the body is parsed here.
    app.post(
      '/v1/apps/:app_id/skills/:skill_id',
      {
        config: {
          queueWhenLimited: true,
          idempotent: {
            leaseMs: (req) => {
              const { app_id, skill_id } = req.params as z.infer<typeof SkillParams>;
              const skill = deps.registry.available(app_id, skill_id);
              return skill && callLeaseMs(skill);
            },
          },
        },
        schema: { hide: true, params: SkillParams, querystring: CallQuery },
      },
      (req, reply) => {
        const skill = findSkill(deps.registry, req.params.app_id, req.params.skill_id);
        return handle(req, reply, skill, parseOrThrow(skill.impl.input, req.body), req.query.team_id);
      },
    );
  };
