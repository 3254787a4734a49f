/**
 * The workflow routes the workspace calls (definitions, validation, runs, schedules, webhook
 * hooks, messages, approvals).
 */
import type {
  ApprovalDecided,
  ApprovalLinkView,
  ApprovalList,
  ChatList,
  ChatMessageList,
  RotatedHook,
  RunList,
  RunStep,
  RunSearchPage,
  RunStarted,
  ScheduleState,
  ValidationResult,
  WorkflowDefinition,
  WorkflowList,
} from '../../../sdk/generated.js';
import { ApiError, request } from '../api.js';

const YAML = 'application/yaml';
const wf = (id: string) => `/v1/workflows/${encodeURIComponent(id)}`;

/** GET /v1/workflows. */
export const listWorkflows = (auth: string) => request<WorkflowList>('GET', '/v1/workflows', { auth });

/** GET /v1/workflows/{id}: with source, declared inputs and schedule state. */
export const getWorkflow = (auth: string, id: string) => request<WorkflowDefinition>('GET', wf(id), { auth });

/** POST /v1/workflows/validate with a YAML body; nothing is saved. */
export const validateSource = (auth: string, source: string, signal?: AbortSignal) =>
  request<ValidationResult>('POST', '/v1/workflows/validate', {
    auth,
    body: source,
    contentType: YAML,
    ...(signal ? { signal } : {}),
  });

/** POST /v1/workflows (YAML): a new definition, version 1. */
export const createWorkflow = (auth: string, source: string) =>
  request<WorkflowDefinition>('POST', '/v1/workflows', { auth, body: source, contentType: YAML });

/** PUT /v1/workflows/{id} (YAML): a new version. */
export const saveWorkflow = (auth: string, id: string, source: string) =>
  request<WorkflowDefinition>('PUT', wf(id), { auth, body: source, contentType: YAML });

/** POST /v1/workflows/{id}/runs. */
export const startRun = (auth: string, id: string, inputs: Record<string, unknown>) =>
  request<RunStarted>('POST', `${wf(id)}/runs`, { auth, body: { inputs } });

/** GET /v1/workflows/{id}/runs. */
export const listRuns = (auth: string, id: string) => request<RunList>('GET', `${wf(id)}/runs`, { auth });

/** What the runs page filters on: GET /v1/runs query parameters, by name. */
export interface RunSearch {
  workflow_id?: string;
  status?: string;
  trigger?: string;
  failed_step?: string;
  started_after?: string;
  started_before?: string;
}

/** GET /v1/runs: one page of the caller's runs across definitions (`pageToken`: the next one). */
export function searchRuns(auth: string, filters: RunSearch, limit: number, pageToken?: string) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value as string);
  query.set('limit', String(limit));
  if (pageToken) query.set('page_token', pageToken);
  return request<RunSearchPage>('GET', `/v1/runs?${query.toString()}`, { auth });
}

/** POST /v1/workflows/{id}/schedule/{pause|resume|trigger}. */
export const scheduleAction = (auth: string, id: string, action: 'pause' | 'resume' | 'trigger') =>
  request<ScheduleState>('POST', `${wf(id)}/schedule/${action}`, { auth });

/** POST /v1/workflows/{id}/hook/rotate: a new signing secret, shown this once. */
export const rotateHook = (auth: string, id: string, keepPreviousSeconds: number) =>
  request<RotatedHook>('POST', `${wf(id)}/hook/rotate`, {
    auth,
    body: { keep_previous_seconds: keepPreviousSeconds },
  });

/** GET /v1/chats: the caller's chats, most recently active first. */
export const listChats = (auth: string) => request<ChatList>('GET', '/v1/chats', { auth });

/**
 * The messages delivered to a chat (a definition's runs: `workflow:<id>`), newest first. A chat
 * no run has written to yet is 404 on the API: here, no messages.
 */
export async function deliveredMessages(auth: string, chatId: string): Promise<ChatMessageList['messages']> {
  try {
    const list = await request<ChatMessageList>('POST', '/v1/chats/messages', {
      auth,
      body: { chat_id: chatId },
    });
    return list.messages;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return [];
    throw e;
  }
}

/** GET /v1/approvals: the approvals the caller's runs wait for. */
export const listApprovals = (auth: string) => request<ApprovalList>('GET', '/v1/approvals', { auth });

/** GET /v1/runs/{run_id}/steps/{step_id}: a step's call, its input and output. */
export const getRunStep = (auth: string, runId: string, stepId: string) =>
  request<RunStep>('GET', `/v1/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(stepId)}`, {
    auth,
  });

/** POST /v1/runs/{run_id}/approvals/{step_id}. */
export const decideApproval = (
  auth: string,
  runId: string,
  stepId: string,
  decision: 'approved' | 'rejected',
  payload: Record<string, unknown>,
) =>
  request<ApprovalDecided>(
    'POST',
    `/v1/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(stepId)}`,
    { auth, body: { decision, payload } },
  );

/** POST /v1/approval-links/view: what an approval link asks (no key: the link is the right). */
export const viewApprovalLink = (token: string) =>
  request<ApprovalLinkView>('POST', '/v1/approval-links/view', { body: { token } });

/** POST /v1/approval-links/decide: decides through the link, once. */
export const decideApprovalLink = (
  token: string,
  decision: 'approved' | 'rejected',
  payload: Record<string, unknown>,
) => request<ApprovalDecided>('POST', '/v1/approval-links/decide', { body: { token, decision, payload } });
