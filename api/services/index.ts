/** The API's services, built from its dependencies (stateless wrappers over the store and Temporal). */
import { catalogFromRegistry } from '../../activities/registry/catalog.js';
import type { PrincipalCache } from '../../lib/key-cache.js';
import { IdempotencyKeys } from '../../lib/store/owners/idempotency-keys.js';
import { UsageRecords } from '../../lib/store/owners/usage-records.js';
import type { ApiDeps } from '../deps.js';
import { ApprovalsService } from './approvals.js';
import { AssetsService } from './assets.js';
import { EventsService } from './events.js';
import { ChatsService } from './chats.js';
import { DefinitionsService } from './definitions.js';
import { EmbedsService } from './embeds.js';
import { KeysService } from './keys.js';
import { RunsService } from './runs.js';
import { RerunsService } from './reruns.js';
import { RunStepsService } from './run-steps.js';
import { RunSearchService } from './run-search.js';
import { SessionsService } from './sessions.js';
import { SkillCallsService } from './skill-calls.js';
import { TeamsService } from './teams.js';
import { TasksService } from './tasks.js';
import { UsageService } from './usage.js';
import { WebhooksService } from './webhooks.js';
import { WorkflowEngine } from './workflow-engine.js';
import { WorkspaceService } from './workspace.js';

export interface Services {
  engine: WorkflowEngine;
  tasks: TasksService;
  reruns: RerunsService;
  runSteps: RunStepsService;
  runSearch: RunSearchService;
  approvals: ApprovalsService;
  events: EventsService;
  skillCalls: SkillCallsService;
  teams: TeamsService;
  usage: UsageService;
  keys: KeysService;
  sessions: SessionsService;
  chats: ChatsService;
  embeds: EmbedsService;
  assets: AssetsService;
  workspace: WorkspaceService;
  /** Claimed Idempotency-Keys and their answers (api/idempotency.ts). */
  idempotencyKeys: IdempotencyKeys;
  /** The usage records owner: its deferred records must be flushed on close. */
  usageRecords: UsageRecords;
}

/** What the app shares with its services: the key cache. */
export interface AppShared {
  principals?: PrincipalCache;
}

/** `shared.principals`: the key cache revocation must reach. Skill calls charge `deps.limits`. */
export function createServices(deps: ApiDeps, shared: AppShared = {}): Services {
  const { limits } = deps;
  const definitions = new DefinitionsService(deps.store, deps.keyring, catalogFromRegistry(deps.registry));
  const runs = new RunsService(deps.temporal, deps.config, deps.registry, definitions.children);
  const usage = new UsageRecords(deps.store, (err) =>
    deps.logger.error({ err }, 'usage records: batch write failed; kept for the next flush'),
  );
  const teams = new TeamsService(deps.store);
  const embeds = new EmbedsService(deps.store, deps.keyring);
  const tasks = new TasksService(deps.temporal, deps.config.temporal.TEMPORAL_UI_URL, usage);
  const { PUBLIC_URL, HOST, PORT } = deps.config.api;
  const origin = PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${HOST}:${PORT}`;
  const hooks = new WebhooksService(deps.store, deps.keyring, definitions, runs, limits, origin);
  return {
    engine: new WorkflowEngine(definitions, runs, hooks, deps.logger),
    tasks,
    reruns: new RerunsService(deps.temporal, tasks, runs, deps.registry),
    runSteps: new RunStepsService(deps.temporal, tasks),
    runSearch: new RunSearchService(deps.temporal),
    events: new EventsService(deps.temporal, deps.store, deps.keyring, definitions, runs, limits),
    approvals: new ApprovalsService(
      deps.temporal,
      tasks,
      deps.keyring,
      deps.config.api.PUBLIC_URL?.replace(/\/+$/, '') ?? '',
    ),
    skillCalls: new SkillCallsService(deps.temporal, deps.config, deps.store, usage, limits),
    teams,
    usage: new UsageService(usage, teams),
    keys: new KeysService(deps.store, shared.principals),
    sessions: new SessionsService(deps.store, deps.keyring, deps.config.api, deps.config.process.NODE_ENV),
    chats: new ChatsService(deps),
    embeds,
    assets: new AssetsService(
      deps.store,
      deps.keyring,
      deps.registry,
      embeds,
      (taskId, ownerId) => usage.teamOfTask(taskId, ownerId),
      deps.config.api.DOWNLOAD_LINK_TTL_SECONDS,
    ),
    workspace: new WorkspaceService(deps.store, deps.keyring),
    idempotencyKeys: new IdempotencyKeys(deps.store, deps.keyring),
    usageRecords: usage,
  };
}
