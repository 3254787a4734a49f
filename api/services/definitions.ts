/**
 * Workflow definitions: each save compiles the source and stores a new version through the
 * tables' owner (lib/store/owners/definitions.ts, which seals source and plan). Owners see only
 * their own definitions (others' are 404).
 */
import { randomBytes } from 'node:crypto';
import {
  compileDefinition,
  type Diagnostic,
  type Outline,
  type Plan,
  type SkillCatalog,
  type SourceFormat,
} from '../../definitions/index.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { definitionCacheOf, type DefinitionCache } from '../../lib/definition-cache.js';
import { errors } from '../../lib/errors/errors.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import {
  countDefinitions,
  deleteDefinition,
  eventDefinitionIds,
  findDefinition,
  insertDefinition,
  insertDefinitionVersion,
  listDefinitions,
  type StoredDefinition,
} from '../../lib/store/owners/definitions.js';
import type { DefinitionSummary } from '../schemas.js';
import { ChildDefinitions } from './child-definitions.js';

export type { StoredDefinition };

/**
 * Called with the compiled plan (and, on an update, the current version) before it is stored;
 * throws to refuse the save (scopes, owner limits).
 */
export type PlanCheck = (plan: Plan, current?: StoredDefinition) => void | Promise<void>;

export type CompileOutcome =
  { ok: true; plan: Plan; outline: Outline } | { ok: false; diagnostics: Diagnostic[]; outline: Outline };

export class DefinitionsService {
  /** The owner's other definitions, for `use_workflow` steps. */
  readonly children: ChildDefinitions;

  /** Opened current versions, shared by every service over this store (lib/definition-cache.ts). */
  private readonly cache: DefinitionCache;

  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly catalog: SkillCatalog,
  ) {
    this.children = new ChildDefinitions(store, keyring);
    this.cache = definitionCacheOf(store);
  }

  compile(source: string, format: SourceFormat = 'auto', fileName?: string): CompileOutcome {
    const res = compileDefinition(source, {
      catalog: this.catalog,
      format,
      ...(fileName ? { fileName } : {}),
    });
    return res.ok
      ? { ok: true, plan: res.plan, outline: res.outline }
      : { ok: false, diagnostics: res.diagnostics, outline: res.outline };
  }

  /**
   * Compiles for an owner: `use_workflow` steps are checked against the owner's definitions
   * (`self`: the definition being saved and its next version, for the cycle check).
   */
  async compileFor(
    ownerId: string,
    source: string,
    format: SourceFormat = 'auto',
    self?: { id: string; version: number },
  ): Promise<CompileOutcome> {
    const res = await this.children.compile(ownerId, source, { catalog: this.catalog, format }, self);
    return res.ok
      ? { ok: true, plan: res.plan, outline: res.outline }
      : { ok: false, diagnostics: res.diagnostics, outline: res.outline };
  }

  private async compileOrThrow(
    ownerId: string,
    source: string,
    format: SourceFormat,
    check?: PlanCheck,
    current?: StoredDefinition,
  ): Promise<Plan> {
    const self = current && { id: current.id, version: current.version + 1 };
    const res = await this.compileFor(ownerId, source, format, self);
    if (!res.ok) throw new SkillflowError('INVALID_DEFINITION', undefined, { diagnostics: res.diagnostics });
    await check?.(res.plan, current);
    return res.plan;
  }

  /**
   * Saves a new definition (with `id` when given). Saving one with an id that exists is a
   * CONFLICT, unless it holds this very source: then the save is already done.
   */
  async create(
    ownerId: string,
    source: string,
    format: SourceFormat,
    id?: string,
    check?: PlanCheck,
  ): Promise<StoredDefinition> {
    const plan = await this.compileOrThrow(ownerId, source, format, check);
    const defId = id ?? `wf_${randomBytes(10).toString('hex')}`;
    if (await insertDefinition(this.store, this.keyring, { id: defId, ownerId, source, plan }))
      return this.fresh(ownerId, defId);
    // Saved meanwhile (another API replica loading the same folder): the same save is done.
    const existing = await findDefinition(this.store, this.keyring, ownerId, defId);
    if (existing?.source === source) return existing;
    throw errors.conflict('A workflow definition with this id exists already.');
  }

  /** Saves a new version; returns it, or the current one unchanged when the source is identical. */
  async update(
    ownerId: string,
    id: string,
    source: string,
    format: SourceFormat,
    check?: PlanCheck,
  ): Promise<{ definition: StoredDefinition; changed: boolean }> {
    // A save compares with the store's current version, never a cached copy.
    const current = await this.fresh(ownerId, id);
    if (current.source === source) {
      await check?.(current.plan, current);
      return { definition: current, changed: false };
    }
    const plan = await this.compileOrThrow(ownerId, source, format, check, current);
    const version = current.version + 1;
    const saved = await insertDefinitionVersion(this.store, this.keyring, {
      id,
      ownerId,
      version,
      source,
      plan,
    });
    this.cache.forget(id);
    if (saved) return { definition: await this.fresh(ownerId, id), changed: true };
    // Another save came first; if it saved this very source, this save is done.
    const now = await this.fresh(ownerId, id);
    if (now.source === source) return { definition: now, changed: false };
    throw errors.conflict('The definition changed meanwhile; retry.');
  }

  /** The current version of the owner's definition; NOT_FOUND otherwise. */
  async get(ownerId: string, id: string): Promise<StoredDefinition> {
    const def = await this.cache.get(ownerId, id, () =>
      findDefinition(this.store, this.keyring, ownerId, id),
    );
    if (!def) throw errors.notFound('No workflow definition with this id.');
    return def;
  }

  /** As {@link get}, read from the store (for a save, which must compare with what is stored). */
  private async fresh(ownerId: string, id: string): Promise<StoredDefinition> {
    const def = await findDefinition(this.store, this.keyring, ownerId, id);
    if (!def) throw errors.notFound('No workflow definition with this id.');
    return def;
  }

  /** The owner's definitions whose current version starts on events named `name`. */
  async startedByEvent(ownerId: string, name: string): Promise<StoredDefinition[]> {
    const ids = await eventDefinitionIds(this.store, this.keyring, ownerId, name);
    const defs = await Promise.all(ids.map((id) => findDefinition(this.store, this.keyring, ownerId, id)));
    return defs.filter((d): d is StoredDefinition => d !== undefined);
  }

  async list(ownerId: string): Promise<DefinitionSummary[]> {
    return (await listDefinitions(this.store, this.keyring, ownerId)).map((d) => ({
      id: d.id,
      title: d.plan.title,
      version: d.version,
      trigger_type: d.triggerType,
      created_at: d.createdAt.toISOString(),
      updated_at: d.updatedAt.toISOString(),
    }));
  }

  /** How many definitions the owner has (only those with a schedule trigger, if asked). */
  async count(ownerId: string, triggerType?: 'schedule'): Promise<number> {
    return countDefinitions(this.store, ownerId, triggerType);
  }

  async delete(ownerId: string, id: string): Promise<void> {
    const deleted = await deleteDefinition(this.store, ownerId, id);
    this.cache.forget(id);
    if (!deleted) throw errors.notFound('No workflow definition with this id.');
  }
}
