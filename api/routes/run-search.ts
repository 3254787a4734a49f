/**
 * GET /v1/runs: the caller's workflow runs across definitions, from Temporal visibility,
 * filtered and paged with a cursor. Needs the `workflows` scope, as a definition's run history
 * does; only the caller's owner's runs are ever listed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NAME_PATTERN } from '../../definitions/runtime/names.js';
import { authenticate, BEARER, principalOf } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses, RunListItemSchema } from '../schemas.js';
import type { RunSearchService } from '../services/run-search.js';
import {
  MAX_PAGE_TOKEN_CHARS,
  RUN_STATUS_FILTERS,
  RUN_TRIGGERS,
  type RunStatusFilter,
} from '../services/run-search-query.js';

const STATUSES = Object.keys(RUN_STATUS_FILTERS) as [RunStatusFilter, ...RunStatusFilter[]];
const instant = (what: string) =>
  z.iso
    .datetime({ offset: true, message: 'must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z' })
    .optional()
    .describe(what);

const RunsQuery = z
  .object({
    workflow_id: z
      .string()
      .regex(/^wf_[a-z0-9_]{1,80}$/, 'must be a workflow id (wf_...)')
      .optional()
      .describe('Only runs of this definition.'),
    status: z
      .enum(STATUSES)
      .optional()
      .describe(
        '`running`: open runs (listed as `queued` or `running`); `failed`: every run listed as `failed` (failed, terminated or timed out); `timed_out`: only those that timed out.',
      ),
    failed_step: z
      .string()
      .regex(NAME_PATTERN, 'must be a step id (lower_snake, at most 64 characters)')
      .optional()
      .describe('Only failed runs whose top-level step of this id failed.'),
    trigger: z
      .enum(RUN_TRIGGERS)
      .optional()
      .describe(
        'Only runs started this way: `manual` (by hand or the API), `schedule`, `event`, `webhook`, `workflow` (a `use_workflow` child) or `rerun`.',
      ),
    started_after: instant('Only runs started after this instant.'),
    started_before: instant('Only runs started before this instant.'),
    page_token: z
      .string()
      .min(1)
      .max(MAX_PAGE_TOKEN_CHARS)
      .optional()
      .describe('`next_page_token` of the previous page, with the same filters.'),
    limit: z.coerce.number().int().min(1).max(100).default(20).describe('Runs per page (1-100).'),
  })
  .strict();

export const runSearchRoutes =
  (deps: ApiDeps, search: RunSearchService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    app.get(
      '/v1/runs',
      {
        schema: {
          tags: ['workflows'],
          security: BEARER,
          summary: 'Search your runs (from Temporal visibility)',
          description:
            'Your workflow runs across definitions, newest first (open runs before closed ones), one page at a time: pass `next_page_token` back as `page_token` for the next page; it is null on the last. Visibility trails a start or an end by a moment. A page token used with other filters is 400.',
          querystring: RunsQuery,
          response: {
            200: z.object({
              runs: z.array(RunListItemSchema),
              next_page_token: z.string().nullable(),
            }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (req) => {
        const q = req.query;
        return search.search(
          principalOf(req),
          {
            workflowId: q.workflow_id,
            status: q.status,
            failedStep: q.failed_step,
            trigger: q.trigger,
            startedAfter: q.started_after ? new Date(q.started_after) : undefined,
            startedBefore: q.started_before ? new Date(q.started_before) : undefined,
          },
          { limit: q.limit, pageToken: q.page_token },
        );
      },
    );
  };
