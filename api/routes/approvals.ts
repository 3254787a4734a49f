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
import { limitPerIp } from '../client-limits.js';
import { MAX_TOKEN_CHARS } from '../../lib/crypto/approval-link.js';

export const approvalRoutes =
  (deps: ApiDeps, approvals: ApprovalsService): FastifyPluginAsyncZod =>
  async (root) => {
    await root.register(linkRoutes(approvals));
    await root.register(keyRoutes(deps, approvals));
  };

const tags = ['approvals'];
const LinkBody = z.object({ token: z.string().min(1).max(MAX_TOKEN_CHARS) }).strict();

/**
 * The approval link routes: no API key (the token, sent in the body so no URL carries it, is the
 * right to decide that one approval), limited per client address like every public route.
 */
const linkRoutes =
  (approvals: ApprovalsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', limitPerIp(app.limits));
    app.post(
      '/v1/approval-links/view',
      {
        // A token is at most 1,024 characters; room for any JSON escaping of a longer one, so it is
        // refused by its schema (400), not by its size.
        bodyLimit: 32 * 1024,
        schema: {
          tags,
          summary: 'What an approval link asks',
          description:
            'The title, payload fields and expiry of the approval the link names. An invalid or expired link is 403 `APPROVAL_LINK_INVALID`; an approval already decided is 409.',
          body: LinkBody,
          response: {
            200: PendingApprovalSchema.pick({ title: true, payload: true, expires_at: true }),
            ...errorResponses(400, 403, 409, 413, 429),
          },
        },
      },
      async (req) => approvals.viewLink(req.body.token),
    );
    app.post(
      '/v1/approval-links/decide',
      {
        bodyLimit: 80 * 1024,
        schema: {
          tags,
          summary: 'Decide an approval through its link',
          description:
            'The same decision as `POST /v1/runs/{run_id}/approvals/{step_id}`, with `decided_by: "link"`. A link decides once: after that it is 409.',
          body: ApprovalBody.extend({ token: LinkBody.shape.token }),
          response: { 200: ApprovalAnswerSchema, ...errorResponses(400, 403, 409, 413, 422, 429, 503) },
        },
      },
      async (req) => {
        const { token, ...decision } = req.body;
        return approvals.decideLink(token, decision);
      },
    );
  };

const keyRoutes =
  (deps: ApiDeps, approvals: ApprovalsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
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
