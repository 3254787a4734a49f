/**
 * /v1/workflows: definitions (YAML or JSON bodies), runs, run history and schedule control.
 * Bodies are taken as raw text so diagnostics can point at the caller's own lines and columns.
 * Every route needs the `workflows` scope; saving a definition, starting a run and triggering
 * a schedule also need a scope for the skill of every `use_app_skill` step. A schedule's own
 * runs are authorised by the save: the key that saved the version held those scopes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { catalogFromRegistry } from '../../activities/registry/catalog.js';
import {
  LIMITS,
  OutlineSchema,
  planGraph,
  sortDiagnostics,
  type Plan,
  type SourceFormat,
} from '../../definitions/index.js';
import { NAME_PATTERN } from '../../definitions/runtime/names.js';
import { SCHEDULE_OVERLAPS, triggerInputs } from '../../definitions/runtime/plan.js';
import { MAX_BACKFILL_TICKS } from '../services/schedule-backfill.js';
import { parseSource } from '../../definitions/source/parse-source.js';
import { errors } from '../../lib/errors/errors.js';
import { authenticate, BEARER, principalOf, requireScope } from '../auth.js';
import { optionRulesOf, requirePlanScopes } from '../scopes.js';
import type { ApiDeps } from '../deps.js';
import { definitionJsonSchema } from './definition-body.js';
import { jsonBodiesAsText, jsonBody, optionalJsonBody, parseJsonBody } from './json-body.js';
import {
  DefinitionSchema,
  DefinitionSummarySchema,
  DiagnosticSchema,
  errorResponses,
  HookSchema,
  RunSummarySchema,
  ScheduleStateSchema,
} from '../schemas.js';
import type { StoredDefinition } from '../services/definitions.js';
import type { Limits } from '../../lib/limits/index.js';
import { MAX_KEEP_PREVIOUS_S, type HookView } from '../services/webhooks.js';
import type { WorkflowEngine } from '../services/workflow-engine.js';
import { claimedTaskId } from '../idempotency.js';

/**
 * How long an unanswered run start holds its Idempotency-Key: a retry after it (the first API
 * died, or its store write failed) claims the key again and finds the same run, since the task
 * id comes from the key.
 */
export const RUN_START_LEASE_MS = 30_000;

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];
const EXAMPLE_DEFINITION = {
  title: 'Contract example',
  start_when: { manual: {} },
  steps: [
    { id: 'search', use_app_skill: 'hosting.search_domains', input: { requests: [{ query: 'cedar' }] } },
  ],
};
/**
 * A definition body, read as raw text (for diagnostics with lines and columns) and documented as
 * what a JSON body is: `schema` is the definition's JSON Schema (create, update) or any mapping
 * (validate, which reports every problem of a mapping in its diagnostics).
 */
const definitionBody = (schema: Record<string, unknown>, description: string) =>
  z
    .string()
    .meta({ ...schema, examples: [EXAMPLE_DEFINITION] })
    .describe(
      `${description} JSON (application/json) or YAML (application/yaml); see docs/workflow-language.md.`,
    );
const IdParams = z.object({ id: z.string().regex(/^wf_[a-z0-9_]{1,80}$/, 'must be a workflow id (wf_...)') });

function formatOf(contentType: string | undefined): SourceFormat {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return YAML_TYPES.includes(type) ? 'yaml' : 'json';
}

/**
 * The source text of a definition body, after the checks every definition route makes before
 * compiling: a JSON body must be JSON (else 400 INVALID_BODY, with the syntax diagnostics and
 * their positions in `details.diagnostics`), and a body that parses must be a mapping (else 400
 * INVALID_PARAMETER at the body's root). YAML syntax errors are the compiler's diagnostics, as
 * an editor validating while typing needs them.
 */
function definitionSource(req: { body: string; headers: { 'content-type'?: string } }): {
  source: string;
  format: SourceFormat;
} {
  const format = formatOf(req.headers['content-type']);
  const parsed = parseSource(req.body, format);
  const value = parsed.value;
  const mapping = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (parsed.fatal && format === 'json' && parsed.diagnostics.every((d) => d.code === 'JSON_SYNTAX'))
    throw errors.invalidBody({ diagnostics: sortDiagnostics(parsed.diagnostics) });
  if (!parsed.fatal && !mapping) {
    const message = 'must be a definition (a JSON object or YAML mapping)';
    throw errors.invalidRequest('body', [{ path: '', message }]);
  }
  return { source: req.body, format };
}

async function view(
  engine: WorkflowEngine,
  def: StoredDefinition,
  hook?: HookView | null,
): Promise<z.infer<typeof DefinitionSchema>> {
  return {
    id: def.id,
    title: def.plan.title,
    version: def.version,
    trigger_type: def.triggerType,
    created_at: def.createdAt.toISOString(),
    updated_at: def.updatedAt.toISOString(),
    source: def.source,
    inputs: triggerInputs(def.plan.trigger),
    schedule: await engine.scheduleOf(def),
    hook: hook === undefined ? await engine.hooks.of(def) : hook,
    graph: planGraph(def.plan),
  };
}

export const workflowRoutes =
  (deps: ApiDeps, engine: WorkflowEngine, limits: Pick<Limits, 'charge'>): FastifyPluginAsyncZod =>
  async (app) => {
    // Encapsulated: only these routes read JSON and YAML bodies as text.
    jsonBodiesAsText(app, ['application/json', ...YAML_TYPES], 256 * 1024);
    app.addHook('onRequest', authenticate(deps.store));
    app.addHook('onRequest', async (req) => {
      requireScope(req, 'workflows');
    });
    const tags = ['workflows'];
    const definitionSchema = definitionJsonSchema(catalogFromRegistry(deps.registry).list());
    const rules = optionRulesOf(deps.registry);
    const owner = (req: { principal?: { ownerId: string } }) => req.principal!.ownerId;
    /**
     * The save-time check: the saving key must be scoped to every skill the plan uses, and the
     * owner's definition and schedule caps must have room.
     */
    const scopedTo = (req: FastifyRequest) => async (plan: Plan, current?: StoredDefinition) => {
      // A schedule's and a webhook's runs have no caller: the children they run (pinned) are
      // checked now.
      const children =
        plan.trigger.type === 'schedule' || plan.trigger.type === 'webhook'
          ? await engine.runs.resolveChildren(owner(req), plan, current?.id)
          : undefined;
      const p = requirePlanScopes(principalOf(req), plan, children, rules);
      await limits.charge('owner_quota', { ownerId: p.ownerId, quota: 'definitions', plan, current });
    };

    app.post(
      '/v1/workflows',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Create a workflow definition',
          body: definitionBody(definitionSchema, 'The definition:'),
          response: { 201: DefinitionSchema, ...errorResponses(400, 401, 403, 422, 429) },
        },
      },
      async (req, reply) => {
        const { source, format } = definitionSource(req);
        const saved = await engine.create(owner(req), source, format, undefined, scopedTo(req));
        return reply.status(201).send(await view(engine, saved.definition, saved.hook));
      },
    );

    app.post(
      '/v1/workflows/validate',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Validate a definition without saving it',
          body: definitionBody(
            { type: 'object' },
            'Any mapping: every structural and semantic problem of it is reported in `diagnostics` with its line and column; a body that is not a mapping is 400.',
          ),
          response: {
            200: z.object({
              valid: z.boolean(),
              diagnostics: z.array(DiagnosticSchema),
              steps: z.number().int().nullable(),
              outline: OutlineSchema,
            }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (req) => {
        const { source, format } = definitionSource(req);
        const res = await engine.definitions.compileFor(owner(req), source, format);
        return res.ok
          ? { valid: true, diagnostics: [], steps: res.plan.steps.length, outline: res.outline }
          : { valid: false, diagnostics: res.diagnostics, steps: null, outline: res.outline };
      },
    );

    app.get(
      '/v1/workflows',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'List workflow definitions',
          response: {
            200: z.object({ workflows: z.array(DefinitionSummarySchema) }),
            ...errorResponses(401, 403),
          },
        },
      },
      async (req) => ({ workflows: await engine.definitions.list(owner(req)) }),
    );

    app.get(
      '/v1/workflows/:id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Read a workflow definition',
          params: IdParams,
          response: { 200: DefinitionSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req) => view(engine, await engine.definitions.get(owner(req), req.params.id)),
    );

    app.put(
      '/v1/workflows/:id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Save a new version',
          params: IdParams,
          body: definitionBody(definitionSchema, 'The new version:'),
          response: { 200: DefinitionSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
        },
      },
      async (req) => {
        const { source, format } = definitionSource(req);
        const saved = await engine.update(owner(req), req.params.id, source, format, scopedTo(req));
        return view(engine, saved.definition, saved.hook);
      },
    );

    app.delete(
      '/v1/workflows/:id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Delete a definition and its schedule',
          params: IdParams,
          response: { 204: z.null().describe('Deleted.'), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        await engine.delete(owner(req), req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/v1/workflows/:id/runs',
      {
        config: { idempotent: { leaseMs: RUN_START_LEASE_MS } },
        schema: {
          tags,
          security: BEARER,
          summary: 'Start a run',
          params: IdParams,
          body: optionalJsonBody(
            {
              inputs: {
                type: 'object',
                propertyNames: { pattern: NAME_PATTERN.source },
                maxProperties: LIMITS.maxRunInputs,
                description:
                  'The run inputs the definition declares (`inputs` of GET /v1/workflows/{id}), by name; any other name is 400.',
              },
            },
            'JSON `{ "inputs": { ... } }`; may be empty.',
          ),
          response: {
            202: z.object({ task_id: z.string(), links: z.object({ task: z.string() }) }),
            ...errorResponses(400, 401, 403, 404, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const { inputs } = parseJsonBody(RunBody, req.body);
        const def = await engine.definitions.get(owner(req), req.params.id);
        const children = await engine.runs.resolveChildren(def.ownerId, def.plan, def.id);
        requirePlanScopes(principalOf(req), def.plan, children, rules);
        await limits.charge('owner_quota', { ownerId: def.ownerId, quota: 'running_runs' });
        const taskId = await engine.runs.startRun(
          def,
          inputs,
          children,
          'manual',
          claimedTaskId(req),
          principalOf(req),
        );
        return reply.status(202).send({ task_id: taskId, links: { task: `/v1/tasks/${taskId}` } });
      },
    );

    app.get(
      '/v1/workflows/:id/runs',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Run history (from Temporal visibility)',
          params: IdParams,
          response: {
            200: z.object({ runs: z.array(RunSummarySchema) }),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (req) => ({
        runs: await engine.runs.listRuns(await engine.definitions.get(owner(req), req.params.id)),
      }),
    );

    app.post(
      '/v1/workflows/:id/hook/rotate',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "Rotate a webhook trigger's signing secret",
          description:
            'Answers a new `signing_secret`, shown this once. The old secret stops being accepted at once, or after `keep_previous_seconds` (at most one day) so senders can switch. Needs the scopes of the skills the definition calls, as saving it does: whoever holds the secret starts its runs. A definition without a webhook trigger is 409.',
          params: IdParams,
          body: optionalJsonBody(
            {
              keep_previous_seconds: {
                type: 'integer',
                minimum: 0,
                maximum: MAX_KEEP_PREVIOUS_S,
                description: 'How long the old secret is still accepted (default 0: not at all).',
              },
            },
            'JSON `{ "keep_previous_seconds": 3600 }`; may be empty.',
          ),
          response: {
            200: HookSchema.required({ signing_secret: true }),
            ...errorResponses(400, 401, 403, 404, 409, 422, 429),
          },
        },
      },
      async (req) => {
        const { keep_previous_seconds } = parseJsonBody(RotateBody, req.body);
        const def = await engine.definitions.get(owner(req), req.params.id);
        engine.hooks.requireWebhook(def);
        const children = await engine.runs.resolveChildren(def.ownerId, def.plan, def.id);
        requirePlanScopes(principalOf(req), def.plan, children, rules);
        const hook = await engine.hooks.rotate(def, keep_previous_seconds);
        return { ...hook, signing_secret: hook.signing_secret! };
      },
    );

    for (const op of ['pause', 'resume', 'trigger'] as const) {
      app.post(
        `/v1/workflows/:id/schedule/${op}`,
        {
          schema: {
            tags,
            security: BEARER,
            summary: `${op[0]!.toUpperCase()}${op.slice(1)} the schedule`,
            params: IdParams,
            response: { 200: ScheduleStateSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
          },
        },
        async (req) => {
          const def = await engine.definitions.get(owner(req), req.params.id);
          if (op === 'trigger') {
            const children = await engine.runs.resolveChildren(def.ownerId, def.plan, def.id);
            requirePlanScopes(principalOf(req), def.plan, children, rules);
            await limits.charge('owner_quota', { ownerId: def.ownerId, quota: 'running_runs' });
          }
          return engine.runs.controlSchedule(def, op);
        },
      );
    }

    app.post(
      '/v1/workflows/:id/schedule/backfill',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "Run the schedule's ticks of a past window",
          description: `Starts now one run per tick of the schedule in [start, end] (both included), as the schedule would have at those times, through Temporal's schedule backfill, also while the schedule is paused. The window must end by now and hold at most ${MAX_BACKFILL_TICKS} ticks; otherwise 422 INVALID_BACKFILL_WINDOW. \`overlap\` (default: the schedule's) decides what a tick does while an earlier run is still going: with \`skip\` the ticks of a backfill mostly coincide and only the first runs; \`buffer_all\` runs them one after another, \`allow_all\` at once. Needs the scopes of the skills the definition calls, as a trigger does. A definition without a schedule is 409.`,
          params: IdParams,
          body: jsonBody(
            BackfillBody,
            'JSON `{ "start": "2026-11-01T00:00:00Z", "end": "2026-11-02T00:00:00Z" }`.',
          ),
          response: {
            202: z.object({
              workflow_id: z.string(),
              ticks: z
                .number()
                .int()
                .describe('Ticks of the window (runs start for them as the overlap policy allows).'),
              start: z.string(),
              end: z.string(),
              overlap: z.enum(SCHEDULE_OVERLAPS),
            }),
            ...errorResponses(400, 401, 403, 404, 409, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const body = parseJsonBody(BackfillBody, req.body);
        const def = await engine.definitions.get(owner(req), req.params.id);
        const children = await engine.runs.resolveChildren(def.ownerId, def.plan, def.id);
        requirePlanScopes(principalOf(req), def.plan, children, rules);
        await limits.charge('owner_quota', { ownerId: def.ownerId, quota: 'running_runs' });
        const start = new Date(body.start);
        const end = new Date(body.end);
        const done = await engine.runs.backfillSchedule(def, { start, end, overlap: body.overlap });
        return reply.status(202).send({
          workflow_id: def.id,
          ticks: done.ticks,
          start: start.toISOString(),
          end: end.toISOString(),
          overlap: done.overlap,
        });
      },
    );
  };

const Instant = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 instant with Z or an offset' })
  .describe('An RFC 3339 instant with Z or an offset, such as 2026-11-01T09:00:00Z.');
const BackfillBody = z
  .object({
    start: Instant,
    end: Instant,
    overlap: z.enum(SCHEDULE_OVERLAPS).optional(),
  })
  .strict();
const RunBody = z.object({ inputs: z.record(z.string(), z.unknown()).default({}) }).strict();
const RotateBody = z
  .object({ keep_previous_seconds: z.number().int().min(0).max(MAX_KEEP_PREVIOUS_S).default(0) })
  .strict();
