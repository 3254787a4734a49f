/** The API's services, built from its dependencies (stateless wrappers over the store and Temporal). */
import { catalogFromRegistry } from '../../activities/registry/catalog.js';
import { UsageRecords } from '../../lib/usage/usage-records.js';
import type { ApiDeps } from '../deps.js';
import { DefinitionsService } from './definitions.js';
import { EncyclopediaRoutes } from './encyclopedia.js';
import { OwnerQuotas, ownerLimitsFromConfig } from './owner-quotas.js';
import { RunsService } from './runs.js';
import { SkillCallsService } from './skill-calls.js';
import { TeamsService } from './teams.js';
import { TasksService } from './tasks.js';
import { WorkflowEngine } from './workflow-engine.js';

export interface Services {
  engine: WorkflowEngine;
  tasks: TasksService;
  skillCalls: SkillCallsService;
  teams: TeamsService;
  usage: UsageRecords;
  quotas: OwnerQuotas;
  encyclopedia: EncyclopediaRoutes;
}

export function createServices(deps: ApiDeps): Services {
  const definitions = new DefinitionsService(deps.store, deps.keyring, catalogFromRegistry(deps.registry));
  const runs = new RunsService(deps.temporal, deps.config, deps.registry);
  const usage = new UsageRecords(deps.store);
  return {
    engine: new WorkflowEngine(definitions, runs, deps.logger),
    tasks: new TasksService(deps.temporal, deps.config.TEMPORAL_UI_URL, usage),
    skillCalls: new SkillCallsService(
      deps.temporal,
      deps.config,
      deps.store,
      usage,
      deps.config.SKILL_CALL_WAIT_MS,
    ),
    teams: new TeamsService(deps.store),
    usage,
    quotas: new OwnerQuotas(deps.temporal, definitions, ownerLimitsFromConfig(deps.config)),
    encyclopedia: new EncyclopediaRoutes(deps.config, deps.store, deps.keyring, usage),
  };
}
