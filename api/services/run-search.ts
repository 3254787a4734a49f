/**
 * Searching the caller's workflow runs across definitions, from Temporal visibility: one page
 * per call, newest first (open runs before closed ones, as Temporal orders them), with an
 * opaque cursor for the next. Only the caller's owner's runs are ever read (run-search-query.ts).
 * Each item has the shape of a definition's run history plus the definition id and the failed
 * step; no title or other user text (search attributes hold ids only).
 */
import { isGrpcServiceError, type WorkflowExecutionInfo } from '@temporalio/client';
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers.js';
import { errors } from '../../lib/errors/errors.js';
import type { Principal } from '../../lib/keys.js';
import type { TemporalClient } from '../../lib/temporal/client.js';
import {
  DefinitionId,
  DefinitionVersion,
  FailedStep,
  TriggerType,
} from '../../lib/temporal/search-attributes.js';
import type { RunListItem } from '../schemas.js';
import { requireNamedScope } from '../scopes.js';
import { decodePageToken, encodePageToken, runSearchQuery, type RunFilters } from './run-search-query.js';
import { memoSteps, RunProgressReader } from './run-progress.js';
import { taskStatus } from './tasks.js';

/** gRPC INVALID_ARGUMENT: Temporal refusing a page token it did not make. */
const GRPC_INVALID_ARGUMENT = 3;

/** One page of a search. */
export interface RunPage {
  runs: RunListItem[];
  next_page_token: string | null;
}

const badPageToken = () =>
  errors.invalidRequest('querystring', [
    { path: 'page_token', message: 'must be a page token from an earlier answer with the same filters' },
  ]);

export class RunSearchService {
  private readonly progress: RunProgressReader;

  constructor(private readonly temporal: TemporalClient) {
    this.progress = new RunProgressReader(temporal);
  }

  /** One page of the owner's runs matching `filters`, after the `workflows` scope check. */
  async search(
    principal: Principal,
    filters: Omit<RunFilters, 'ownerId'>,
    page: { limit: number; pageToken?: string | undefined },
  ): Promise<RunPage> {
    requireNamedScope(principal, 'workflows');
    const query = runSearchQuery({ ...filters, ownerId: principal.ownerId });
    const nextPageToken = page.pageToken === undefined ? undefined : decodePageToken(query, page.pageToken);
    if (page.pageToken !== undefined && !nextPageToken) throw badPageToken();
    let res;
    try {
      res = await this.temporal.client.workflowService.listWorkflowExecutions({
        namespace: this.temporal.namespace,
        query,
        pageSize: page.limit,
        ...(nextPageToken && { nextPageToken }),
      });
    } catch (err) {
      if (isGrpcServiceError(err) && Number(err.code) === GRPC_INVALID_ARGUMENT && nextPageToken)
        throw badPageToken();
      throw err;
    }
    const converter = this.temporal.client.options.loadedDataConverter;
    const listed: WorkflowExecutionInfo[] = await Promise.all(
      res.executions.map((raw) => executionInfoFromRaw(raw, converter, raw, this.temporal.namespace)),
    );
    const started = await this.progress.startedOf(listed);
    const next = res.nextPageToken?.length ? encodePageToken(query, res.nextPageToken) : null;
    return {
      runs: listed.map((wf, i) => ({
        task_id: wf.workflowId,
        workflow_id: wf.typedSearchAttributes.get(DefinitionId) ?? null,
        status: taskStatus(wf.status.name, memoSteps(wf.memo), started[i]),
        trigger: wf.typedSearchAttributes.get(TriggerType) ?? null,
        definition_version: wf.typedSearchAttributes.get(DefinitionVersion) ?? null,
        failed_step: wf.typedSearchAttributes.get(FailedStep) ?? null,
        started_at: wf.startTime.toISOString(),
        finished_at: wf.closeTime?.toISOString() ?? null,
      })),
      next_page_token: next,
    };
  }
}
