/**
 * Approvals of `wait_for_approval` steps: `GET /v1/approvals` lists the caller's pending ones;
 * `POST /v1/runs/{run_id}/approvals/{step_id}` decides one. Both need the `workflows` scope and
 * only ever reach the caller's own runs (another owner's run is 404).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import {
  ApprovalAnswerSchema,
  ApprovalBody,
  ApprovalParams,
  errorResponses,
  PendingApprovalSchema,
} from '../schemas.js';
import type { ApprovalsService } from '../services/approvals.js';

export const approvalRoutes =
  (deps: ApiDeps, approvals: ApprovalsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    const tags = ['approvals'];
    app.get(
      '/v1/approvals',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Approvals waiting for a decision',
          description: 'The approvals your runs wait for, soonest expiry first (at most 100).',
          response: {
            200: z.object({ approvals: z.array(PendingApprovalSchema) }),
            ...errorResponses(401, 403),
          },
        },
      },
      async (req) => ({ approvals: await approvals.list(principalOf(req)) }),
    );

    app.post(
      '/v1/runs/:run_id/approvals/:step_id',
      {
        // The payload is bounded like a run's inputs; the rest is two short fields.
        bodyLimit: 80 * 1024,
        schema: {
          tags,
          security: BEARER,
          summary: 'Approve or reject a waiting approval',
          description:
            'Delivered to the run at once. A payload that does not fit the declared fields is 422 with `details.issues`; a run that is not waiting for this step is 409 `APPROVAL_NOT_WAITING`. A rejection completes the step with `decision: rejected`.',
          params: ApprovalParams,
          body: ApprovalBody,
          response: { 200: ApprovalAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 422, 503) },
        },
      },
      async (req) => approvals.decide(principalOf(req), req.params.run_id, req.params.step_id, req.body),
    );
  };
