/**
 * The workflow engine's operations as the API and the startup loader use them: definitions
 * plus their schedules and webhook hooks kept in step. A schedule change that fails leaves the
 * saved version in place and reports SERVICE_UNAVAILABLE; the next save or start re-syncs it.
 * Saves through several API processes may sync out of order: the schedule only ever moves to a
 * newer version (schedule-sync.ts), and ends on the newest stored one.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { SourceFormat } from '../../definitions/index.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Logger } from '../../lib/logger.js';
import type { DefinitionsService, PlanCheck, StoredDefinition } from './definitions.js';
import type { ScheduleState } from '../schemas.js';
import type { RunsService } from './runs.js';
import type { HookView, WebhooksService } from './webhooks.js';

/** A saved definition and its hook (with its secret when the save made it). */
export interface SavedDefinition {
  definition: StoredDefinition;
  hook: HookView | null;
}

export class WorkflowEngine {
  constructor(
    readonly definitions: DefinitionsService,
    readonly runs: RunsService,
    readonly hooks: WebhooksService,
    private readonly logger: Logger,
  ) {}

  async create(
    ownerId: string,
    source: string,
    format: SourceFormat,
    id?: string,
    check?: PlanCheck,
  ): Promise<SavedDefinition> {
    const def = await this.definitions.create(ownerId, source, format, id, check);
    return this.synced(def);
  }

  private async synced(definition: StoredDefinition): Promise<SavedDefinition> {
    await this.runs.syncSchedule(definition);
    await this.resyncIfNewer(definition);
    return { definition, hook: await this.hooks.sync(definition) };
  }

  /**
   * Another API process may have saved a newer version while this one synced: the schedule then
   * follows the newest stored version (a sync of an older one never overwrites a newer one, but
   * creating and removing a schedule are no compare-and-set, so the newest is synced again).
   */
  private async resyncIfNewer(synced: StoredDefinition): Promise<void> {
    const latest = await this.definitions.get(synced.ownerId, synced.id).catch((err: unknown) => {
      if (err instanceof SkillflowError && err.code === 'NOT_FOUND') return undefined;
      throw err;
    });
    if (latest && latest.version > synced.version) await this.runs.syncSchedule(latest);
  }

  async update(
    ownerId: string,
    id: string,
    source: string,
    format: SourceFormat,
    check?: PlanCheck,
  ): Promise<SavedDefinition> {
    const { definition } = await this.definitions.update(ownerId, id, source, format, check);
    return this.synced(definition);
  }

  async delete(ownerId: string, id: string): Promise<void> {
    await this.definitions.get(ownerId, id); // 404 before touching the schedule
    await this.runs.deleteSchedule(id);
    await this.definitions.delete(ownerId, id);
  }

  async scheduleOf(def: StoredDefinition): Promise<ScheduleState | null> {
    return def.plan.trigger.type === 'schedule' ? this.runs.scheduleState(def.id) : null;
  }

  /**
   * Loads `*.yaml`, `*.yml` and `*.json` from a folder as definitions of `ownerId`, with stable
   * ids (`wf_file_<name>`): a changed file becomes a new version, an unchanged one is left alone.
   * A file with diagnostics is reported and skipped; the others still load.
   */
  async loadFolder(dir: string, ownerId: string): Promise<{ loaded: string[]; failed: string[] }> {
    const loaded: string[] = [];
    const failed: string[] = [];
    if (!existsSync(dir)) return { loaded, failed };
    for (const file of readdirSync(dir)
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort()) {
      const id = `wf_file_${file
        .replace(/\.(ya?ml|json)$/, '')
        .replace(/[^a-z0-9_]/gi, '_')
        .toLowerCase()}`;
      const source = readFileSync(path.join(dir, file), 'utf8');
      const format: SourceFormat = file.endsWith('.json') ? 'json' : 'yaml';
      try {
        const exists = await this.definitions.get(ownerId, id).then(
          () => true,
          () => false,
        );
        if (exists) await this.update(ownerId, id, source, format);
        else await this.create(ownerId, source, format, id);
        loaded.push(id);
      } catch (err) {
        failed.push(file);
        const diagnostics = (
          err as { details?: { diagnostics?: { code: string; line: number; column: number }[] } }
        ).details?.diagnostics;
        this.logger.error(
          { file, diagnostics: diagnostics?.map((d) => `${d.line}:${d.column} ${d.code}`) },
          'workflow definition file not loaded',
        );
      }
    }
    return { loaded, failed };
  }
}
