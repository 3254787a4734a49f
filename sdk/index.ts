/**
 * The skillflow JavaScript SDK.
 *
 * ```ts
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token: process.env.SKILLFLOW_API_KEY });
 * const res = await client.apps.hosting.searchDomains({ requests: [{ query: 'cedar', tlds: ['com'] }] });
 * if (isCompleted(res)) console.log(res.results[0]?.results.map((r) => r.domain));
 * else console.log(await client.tasks.wait(res.task_id));
 * ```
 *
 * Every method returns exactly the REST route's JSON body; errors throw
 * {@link SkillflowApiError} (an API error envelope) or {@link SkillflowClientError}.
 */
import { createAnonymousClient, type AnonymousClient } from './anonymous.js';
import { createAppProxy, createAppsProxy, createSkillsClient, type SkillsClient } from './apps.js';
import { createApprovalsClient, type ApprovalsClient } from './approvals.js';
import { createAssetsClient, type AssetsClient } from './assets.js';
import { createChatsClient, type ChatsClient } from './chats.js';
import { createEventsClient, type EventsClient } from './events.js';
import { createEncyclopediaClient, type EncyclopediaClient } from './encyclopedia.js';
import { createKeysClient, type KeysClient } from './keys.js';
import { createTransport, type TransportOptions } from './http.js';
import { createTasksClient, type TasksClient } from './tasks.js';
import { createRunsClient, type RunsClient } from './runs.js';
import type { TypedApps, UntypedApp } from './types.js';
import { createWorkflowsClient, type WorkflowsClient } from './workflows.js';

/** Options of {@link createClient}. */
export type ClientOptions = TransportOptions;

/** A skillflow API client. */
export interface SkillflowClient {
  /** The normalised API origin (without `/v1`). */
  readonly baseUrl: string;
  /** `client.apps.<app>.<camelCaseSkill>(input)`, typed for the skills in sdk/generated.ts. */
  readonly apps: TypedApps;
  /** Any app, typed loosely: `client.app('hosting').search_domains({ requests: [...] })`. */
  app(appId: string): UntypedApp;
  /** Discovery and explicit calls: `client.skills.call('hosting', 'search_domains', input)`. */
  readonly skills: SkillsClient;
  readonly tasks: TasksClient;
  readonly workflows: WorkflowsClient;
  /** Approvals of `wait_for_approval` steps: list the pending ones, approve or reject. */
  readonly approvals: ApprovalsClient;
  /** Your runs across definitions: filtered, one page at a time (`iterate` walks them all); `rerun` re-runs one from a step. */
  readonly runs: RunsClient;
  /** Events: resume runs waiting for one (`wait_for_event`), start definitions it triggers. */
  readonly events: EventsClient;
  readonly keys: KeysClient;
  /** The chats `send_chat_message` steps deliver to, and their messages. */
  readonly chats: ChatsClient;
  /** Encyclopedia title search and summaries (GET /v1/encyclopedia/*). */
  readonly encyclopedia: EncyclopediaClient;
  /** Guest calls without a token: quote first (price, free allowance), then call. */
  readonly anonymous: AnonymousClient;
  /** Short-lived download links to generated assets of your embeds, and their bytes. */
  readonly assets: AssetsClient;
}

/** Creates a client. */
export function createClient(options: ClientOptions): SkillflowClient {
  const http = createTransport(options);
  const skills = createSkillsClient(http);
  return {
    baseUrl: http.baseUrl,
    apps: createAppsProxy(skills),
    app: (appId) => createAppProxy(skills, appId),
    skills,
    tasks: createTasksClient(http),
    workflows: createWorkflowsClient(http),
    approvals: createApprovalsClient(http),
    runs: createRunsClient(http),
    events: createEventsClient(http),
    keys: createKeysClient(http),
    chats: createChatsClient(http),
    encyclopedia: createEncyclopediaClient(http),
    anonymous: createAnonymousClient(http),
    assets: createAssetsClient(http),
  };
}

export { snakeCase, type SkillsClient } from './apps.js';
export {
  GuestQuoteError,
  type AnonymousClient,
  type GuestCallOptions,
  type GuestQuote,
} from './anonymous.js';
export type { ApprovalsClient, PendingApproval } from './approvals.js';
export type { AssetName, AssetRequest, AssetsClient } from './assets.js';
export type { RerunOptions, RunFilters, RunListItem, RunsClient } from './runs.js';
export type { EventsClient } from './events.js';
export { SkillflowApiError, SkillflowClientError, type ApiIssue, type ClientErrorCode } from './errors.js';
export type * from './generated.js';
export { KNOWN_SKILLS, API_VERSION } from './generated.js';
export { normaliseBaseUrl, type TransportOptions } from './http.js';
export type { KeysClient } from './keys.js';
export type { ChatPage, ChatsClient } from './chats.js';
export {
  chatPublicKeyOf,
  generateChatKeyPair,
  openChatMessages,
  type ChatKeyPair,
  type ReadChatMessage,
} from './chat-keys.js';
export { chatKeyFilePath, readChatKeyFile, writeChatKeyFile } from './chat-key-file.js';
export type { EncyclopediaClient, EncyclopediaSearchResult, EncyclopediaSummary } from './encyclopedia.js';
export { isTerminal, type TasksClient, type WaitOptions } from './tasks.js';
export * from './types.js';
export {
  detectSourceFormat,
  type RunOptions,
  type HookClient,
  type BackfillWindow,
  type ScheduleClient,
  type WorkflowsClient,
} from './workflows.js';
export { signWebhook, WEBHOOK_SIGNATURE_HEADER } from './webhooks.js';
