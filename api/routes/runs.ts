/**
 * /v1/runs/{run_id}/steps/{step_id}: one step of a run, its call's input and output
 * (services/run-steps.ts); needs the `workflows` scope, on the caller's own run.
 *
 * /v1/runs/{run_id}/rerun: re-runs a closed workflow run from a step (services/reruns.ts). Needs
 * the `workflows` scope (checked on the caller's own run, so another owner's run is 404 for any
 * key) and a scope for every skill the run's plan snapshot calls, as starting a run does; the
 * owner's running-runs quota counts it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIMITS } from '../../definitions/limits.js';
import { NAME_PATTERN } from '../../definitions/runtime/names.js';
import type { Limits } from '../../lib/limits/index.js';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses, RunStepSchema } from '../schemas.js';
import { optionRulesOf, requirePlanScopes } from '../scopes.js';
import type { RerunsService } from '../services/reruns.js';
import { RUN_STEP_ID, type RunStepsService } from '../services/run-steps.js';
import { jsonBodiesAsText, optionalJsonBody, parseJsonBody } from './json-body.js';

const RunParams = z.object({ run_id: z.string().min(1).max(220) });
const RunStepParams = RunParams.extend({
  step_id: z.string().max(400).regex(RUN_STEP_ID, 'must be a step id (in a loop element: loop[2].inner)'),
});

const RerunBody = z
  .object({
    from_step: z.string().regex(NAME_PATTERN, 'must be a step id').optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
    step_inputs: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .refine((edits) => Object.keys(edits).length <= LIMITS.maxSteps, {
        message: `edits at most ${LIMITS.maxSteps} steps`,
      })
      .optional(),
  })
  .strict();

export const RerunAnswerSchema = z.object({
  task_id: z.string().describe('The re-run (GET /v1/tasks/{task_id}).'),
  rerun_of: z.string().describe('The run it re-runs.'),
  from_step: z.string().describe('The first top-level step that runs again.'),
  reused_steps: z
    .array(z.string())
    .describe('Top-level steps whose recorded outputs it takes over (they make no call and cost nothing).'),
  reused_elements: z
    .number()
    .int()
    .describe('Elements of the `from_step` loop whose outputs it takes over (only the others run).'),
  links: z.object({ task: z.string(), rerun_of: z.string() }),
});

export const runRoutes =
  (
    deps: ApiDeps,
    reruns: RerunsService,
    steps: RunStepsService,
    limits: Pick<Limits, 'charge'>,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    // Encapsulated: only these routes read JSON bodies as text (an empty body is `{}`).
    jsonBodiesAsText(app, ['application/json'], 256 * 1024);
    // The scope is checked on the run, as for GET /v1/tasks/{task_id}: another owner's run is a
    // 404 whatever the key's scopes.
    app.addHook('onRequest', authenticate(deps.store));
    app.get(
      '/v1/runs/:run_id/steps/:step_id',
      {
        schema: {
          tags: ['workflows'],
          security: BEARER,
          summary: "A run's step: its call's input and output",
          description:
            "Read from the run's history while it runs and after it ended: a skill step's resolved input and its answer, a decision's question and answer, a chat message's chat id and delivery. A step that calls nothing, or has not been called yet, has `call: null`. A step id the run's plan lacks is 404.",
          params: RunStepParams,
          response: { 200: RunStepSchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
      },
      async (req) => steps.get(principalOf(req), req.params.run_id, req.params.step_id),
    );
    app.post(
      '/v1/runs/:run_id/rerun',
      {
        config: { idempotent: true },
        schema: {
          tags: ['workflows'],
          security: BEARER,
          summary: 'Re-run a run from a step',
          description:
            "Starts a new run of the run's plan snapshot that takes over the recorded outputs of the steps before `from_step` (default: the first step that failed) and runs the rest. A step whose inputs changed (an edited run input it reads, an edited step input, or a step it reads that runs again) runs again. A run that is still open is 409; a `from_step`, input or step input that does not fit is 422 `INVALID_RERUN` with `details.issues`.",
          params: RunParams,
          body: optionalJsonBody(
            {
              from_step: {
                type: 'string',
                pattern: NAME_PATTERN.source,
                description:
                  'A top-level step id; default: the first step that failed (a completed run: the first step).',
              },
              inputs: {
                type: 'object',
                propertyNames: { pattern: NAME_PATTERN.source },
                maxProperties: LIMITS.maxRunInputs,
                description: "Run inputs to change, by name (the others keep the run's values).",
              },
              step_inputs: {
                type: 'object',
                propertyNames: { pattern: NAME_PATTERN.source },
                maxProperties: LIMITS.maxSteps,
                additionalProperties: { type: 'object' },
                description:
                  "A skill step's whole new input, by step id (a top-level step or one in a parallel group), checked against the skill's input schema.",
              },
            },
            'JSON `{ "from_step"?, "inputs"?, "step_inputs"? }`; may be empty.',
          ),
          response: {
            202: RerunAnswerSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429),
          },
        },
      },
      async (req, reply) => {
        const body = parseJsonBody(RerunBody, req.body);
        const principal = principalOf(req);
        const started = await reruns.rerun(principal, req.params.run_id, body, async (decided) => {
          requirePlanScopes(principal, decided.plan, decided.children, optionRulesOf(deps.registry));
          await limits.charge('owner_quota', { ownerId: decided.ownerId, quota: 'running_runs' });
        });
        return reply.status(202).send({
          task_id: started.taskId,
          rerun_of: req.params.run_id,
          from_step: started.fromStep,
          reused_steps: started.reusedSteps,
          reused_elements: started.reusedElements,
          links: { task: `/v1/tasks/${started.taskId}`, rerun_of: `/v1/tasks/${req.params.run_id}` },
        });
      },
    );
  };
