/**
 * Workflow definitions in the platform store: each save compiles the source and stores a new
 * version. Source and plan are sealed (AES-256-GCM); only ids, versions, trigger type and
 * timestamps are plaintext. Owners see only their own definitions (others' are 404).
 */
import { randomBytes } from 'node:crypto';
import {
  compileDefinition,
  type Diagnostic,
  type Plan,
  type SkillCatalog,
  type SourceFormat,
} from '../../definitions/index.js';
import { openJson, sealJson } from '../../lib/crypto/sealed-value.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import type { DefinitionSummary } from '../schemas.js';

export interface StoredDefinition {
  id: string;
  ownerId: string;
  version: number;
  source: string;
  plan: Plan;
  triggerType: 'manual' | 'schedule';
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Called with the compiled plan (and, on an update, the current version) before it is stored;
 * throws to refuse the save (scopes, owner limits).
 */
export type PlanCheck = (plan: Plan, current?: StoredDefinition) => void | Promise<void>;

export type CompileOutcome = { ok: true; plan: Plan } | { ok: false; diagnostics: Diagnostic[] };

export class DefinitionsService {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly catalog: SkillCatalog,
  ) {}

  compile(source: string, format: SourceFormat = 'auto', fileName?: string): CompileOutcome {
    const res = compileDefinition(source, {
      catalog: this.catalog,
      format,
      ...(fileName ? { fileName } : {}),
    });
    return res.ok ? { ok: true, plan: res.plan } : { ok: false, diagnostics: res.diagnostics };
  }

  private async compileOrThrow(
    source: string,
    format: SourceFormat,
    check?: PlanCheck,
    current?: StoredDefinition,
  ): Promise<Plan> {
    const res = this.compile(source, format);
    if (!res.ok) throw new SkillflowError('INVALID_DEFINITION', undefined, { diagnostics: res.diagnostics });
    await check?.(res.plan, current);
    return res.plan;
  }

  async create(
    ownerId: string,
    source: string,
    format: SourceFormat,
    id?: string,
    check?: PlanCheck,
  ): Promise<StoredDefinition> {
    const plan = await this.compileOrThrow(source, format, check);
    const defId = id ?? `wf_${randomBytes(10).toString('hex')}`;
    await this.store.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('definitions')
        .values({ id: defId, owner_id: ownerId, current_version: 1, trigger_type: plan.trigger.type })
        .execute();
      await tx
        .insertInto('definition_versions')
        .values({
          definition_id: defId,
          version: 1,
          source_sealed: sealJson(this.keyring, source, sealedCell.definitionSource(defId, 1, ownerId)),
          plan_sealed: sealJson(this.keyring, plan, sealedCell.definitionPlan(defId, 1, ownerId)),
        })
        .execute();
    });
    return this.get(ownerId, defId);
  }

  /** Saves a new version; returns it, or the current one unchanged when the source is identical. */
  async update(
    ownerId: string,
    id: string,
    source: string,
    format: SourceFormat,
    check?: PlanCheck,
  ): Promise<{ definition: StoredDefinition; changed: boolean }> {
    const current = await this.get(ownerId, id);
    if (current.source === source) {
      await check?.(current.plan, current);
      return { definition: current, changed: false };
    }
    const plan = await this.compileOrThrow(source, format, check, current);
    const version = current.version + 1;
    await this.store.db.transaction().execute(async (tx) => {
      const res = await tx
        .updateTable('definitions')
        .set({ current_version: version, trigger_type: plan.trigger.type, updated_at: new Date() })
        .where('id', '=', id)
        .where('current_version', '=', current.version)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1)
        throw new SkillflowError('CONFLICT', 'The definition changed meanwhile; retry.');
      await tx
        .insertInto('definition_versions')
        .values({
          definition_id: id,
          version,
          source_sealed: sealJson(this.keyring, source, sealedCell.definitionSource(id, version, ownerId)),
          plan_sealed: sealJson(this.keyring, plan, sealedCell.definitionPlan(id, version, ownerId)),
        })
        .execute();
    });
    return { definition: await this.get(ownerId, id), changed: true };
  }

  async get(ownerId: string, id: string, version?: number): Promise<StoredDefinition> {
    const row = await this.store.db
      .selectFrom('definitions')
      .innerJoin('definition_versions', 'definition_versions.definition_id', 'definitions.id')
      .select([
        'definitions.id',
        'definitions.owner_id',
        'definitions.trigger_type',
        'definitions.created_at',
        'definitions.updated_at',
        'definition_versions.version',
        'definition_versions.source_sealed',
        'definition_versions.plan_sealed',
      ])
      .where('definitions.id', '=', id)
      .where('definitions.owner_id', '=', ownerId)
      .where((eb) =>
        version === undefined
          ? eb('definition_versions.version', '=', eb.ref('definitions.current_version'))
          : eb('definition_versions.version', '=', version),
      )
      .executeTakeFirst();
    if (!row) throw new SkillflowError('NOT_FOUND', 'No workflow definition with this id.');
    return {
      id: row.id,
      ownerId: row.owner_id,
      version: row.version,
      source: openJson<string>(
        this.keyring,
        row.source_sealed,
        sealedCell.definitionSource(row.id, row.version, row.owner_id),
      ),
      plan: openJson<Plan>(
        this.keyring,
        row.plan_sealed,
        sealedCell.definitionPlan(row.id, row.version, row.owner_id),
      ),
      triggerType: row.trigger_type === 'schedule' ? 'schedule' : 'manual',
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    };
  }

  async list(ownerId: string): Promise<DefinitionSummary[]> {
    const rows = await this.store.db
      .selectFrom('definitions')
      .innerJoin('definition_versions', (j) =>
        j
          .onRef('definition_versions.definition_id', '=', 'definitions.id')
          .onRef('definition_versions.version', '=', 'definitions.current_version'),
      )
      .select([
        'definitions.id',
        'definitions.current_version',
        'definitions.owner_id',
        'definitions.trigger_type',
        'definitions.created_at',
        'definitions.updated_at',
        'definition_versions.plan_sealed',
      ])
      .where('definitions.owner_id', '=', ownerId)
      .orderBy('definitions.created_at')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      title: openJson<Plan>(
        this.keyring,
        r.plan_sealed,
        sealedCell.definitionPlan(r.id, r.current_version, r.owner_id),
      ).title,
      version: r.current_version,
      trigger_type: r.trigger_type === 'schedule' ? 'schedule' : 'manual',
      created_at: new Date(r.created_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }));
  }

  /** How many definitions the owner has (only those with a schedule trigger, if asked). */
  async count(ownerId: string, triggerType?: 'schedule'): Promise<number> {
    let q = this.store.db
      .selectFrom('definitions')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('owner_id', '=', ownerId);
    if (triggerType) q = q.where('trigger_type', '=', triggerType);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async delete(ownerId: string, id: string): Promise<void> {
    const res = await this.store.db
      .deleteFrom('definitions')
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1)
      throw new SkillflowError('NOT_FOUND', 'No workflow definition with this id.');
  }
}
