/**
 * The run search's visibility query and page token, pure. Every value enters the query through
 * `literal` (quoted and escaped), the owner first, so no filter can widen it past the caller's
 * own runs. A page token is Temporal's next-page token bound to the query that made it: a token
 * used with other filters, another owner or altered is refused.
 */
import { createHash } from 'node:crypto';
import { literal } from '../../lib/temporal/visibility.js';

/** The statuses a search filters on, and the Temporal execution statuses each one matches. */
export const RUN_STATUS_FILTERS = {
  /** Open: listed as `queued` or `running`. */
  running: ['Running'],
  completed: ['Completed'],
  /** Everything listed as `failed`: failed, terminated or timed out. */
  failed: ['Failed', 'Terminated', 'TimedOut'],
  cancelled: ['Canceled'],
  timed_out: ['TimedOut'],
} as const;
export type RunStatusFilter = keyof typeof RUN_STATUS_FILTERS;

/**
 * How a run started, as its `TriggerType` search attribute says: by hand, on its schedule, by an
 * event, by a webhook, as a `use_workflow` child or as a re-run.
 */
export const RUN_TRIGGERS = ['manual', 'schedule', 'event', 'webhook', 'workflow', 'rerun'] as const;
export type RunTriggerFilter = (typeof RUN_TRIGGERS)[number];

/** What a run search filters on (each optional but the owner). */
export interface RunFilters {
  ownerId: string;
  workflowId?: string | undefined;
  status?: RunStatusFilter | undefined;
  failedStep?: string | undefined;
  trigger?: RunTriggerFilter | undefined;
  startedAfter?: Date | undefined;
  startedBefore?: Date | undefined;
}

/** The visibility query of a search: the owner's workflow runs, narrowed by each filter. */
export function runSearchQuery(f: RunFilters): string {
  const terms = [`OwnerId = ${literal(f.ownerId)}`, `TaskKind = ${literal('workflow_run')}`];
  if (f.workflowId !== undefined) terms.push(`DefinitionId = ${literal(f.workflowId)}`);
  if (f.status !== undefined) {
    const statuses = RUN_STATUS_FILTERS[f.status].map(literal);
    terms.push(
      statuses.length === 1
        ? `ExecutionStatus = ${statuses[0]}`
        : `ExecutionStatus IN (${statuses.join(', ')})`,
    );
  }
  if (f.failedStep !== undefined) terms.push(`FailedStep = ${literal(f.failedStep)}`);
  if (f.trigger !== undefined) terms.push(`TriggerType = ${literal(f.trigger)}`);
  if (f.startedAfter) terms.push(`StartTime > ${literal(f.startedAfter.toISOString())}`);
  if (f.startedBefore) terms.push(`StartTime < ${literal(f.startedBefore.toISOString())}`);
  return terms.join(' AND ');
}

/** The longest page token accepted (Temporal's own tokens are far shorter). */
export const MAX_PAGE_TOKEN_CHARS = 2048;

function bindingOf(query: string, token: string): string {
  return createHash('sha256').update(query).update('\n').update(token).digest('base64url').slice(0, 22);
}

/** An opaque page token: `<base64url Temporal token>.<binding to the query>`. */
export function encodePageToken(query: string, next: Uint8Array): string {
  const token = Buffer.from(next).toString('base64url');
  return `${token}.${bindingOf(query, token)}`;
}

/** Temporal's next-page token of `encoded`, or undefined when it was not made for `query`. */
export function decodePageToken(query: string, encoded: string): Buffer | undefined {
  const [token = '', binding, extra] = encoded.split('.');
  if (extra !== undefined || !token || binding !== bindingOf(query, token)) return undefined;
  return Buffer.from(token, 'base64url');
}
