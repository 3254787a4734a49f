/**
 * Webhook triggers. A definition whose current version has `start_when.webhook` has a hook: the
 * URL `POST /v1/hooks/{hook_id}` and a signing secret, shown once when the hook is made (the save
 * that gives the definition its webhook trigger) and when it is rotated. Later saves keep both.
 *
 * A request starts one run when, in this order: the hook exists (else 401), its per-hook rate
 * limit has room (429), the signature header is valid for one of the hook's secrets and within
 * five minutes of now (401), and that signature was never accepted before (401). Every 401 is the
 * same answer, so a caller learns nothing from which check refused. Then the body must be a JSON
 * object (400); the fields the trigger declares are its run inputs, checked as a manual run's
 * (400 at `body.<input>`, 413 past the run inputs' size); other fields are ignored, never stored.
 *
 * A hook's runs have no caller: they are authorised by the save, like a schedule's. The key that
 * saved the version held every scope its skills need, and its `use_workflow` children are pinned
 * at that save (stored sealed with the hook) and checked against the same key. Rotating the
 * secret, which lets whoever holds it start runs, needs the same scopes as saving.
 */
import type { Keyring } from '../../lib/crypto/keyring.js';
import { errors } from '../../lib/errors/errors.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Limits } from '../../lib/limits/index.js';
import type { Store } from '../../lib/store/db.js';
import {
  ensureWebhook,
  openWebhook,
  recordSignature,
  removeWebhook,
  rotateWebhookSecret,
  webhookOf,
  type OpenedWebhook,
  type WebhookInfo,
} from '../../lib/store/owners/webhooks.js';
import {
  checkSignature,
  HOOK_ID_PATTERN,
  newHookId,
  newSigningSecret,
  SIGNATURE_TOLERANCE_S,
} from '../../lib/webhooks/hook-signature.js';
import type { ResolvedChildren } from './child-definitions.js';
import type { DefinitionsService, StoredDefinition } from './definitions.js';
import { checkedRunInputs, declaredFields } from './run-inputs.js';
import type { RunsService } from './runs.js';

export type { OpenedWebhook };

/** The longest a rotated-out secret stays accepted. */
export const MAX_KEEP_PREVIOUS_S = 86_400;

/** A hook as the definition's answers show it; `signing_secret` only when just made. */
export interface HookView {
  id: string;
  url: string;
  rotated_at: string;
  previous_secret_expires_at: string | null;
  signing_secret?: string;
}

export class WebhooksService {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly definitions: DefinitionsService,
    private readonly runs: RunsService,
    private readonly limits: Pick<Limits, 'charge'>,
    /** The origin hook URLs start with (`PUBLIC_URL`, else the API's own address). */
    private readonly origin: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private view(info: WebhookInfo, secret?: string): HookView {
    return {
      id: info.hookId,
      url: `${this.origin}/v1/hooks/${info.hookId}`,
      rotated_at: info.rotatedAt.toISOString(),
      previous_secret_expires_at: info.previousExpiresAt?.toISOString() ?? null,
      ...(secret !== undefined && { signing_secret: secret }),
    };
  }

  /**
   * After a save: gives a webhook definition its hook (a new one shows its secret) with its
   * children pinned now, and removes the hook of a definition that no longer has the trigger.
   */
  async sync(def: StoredDefinition): Promise<HookView | null> {
    if (def.plan.trigger.type !== 'webhook') {
      await removeWebhook(this.store, def.ownerId, def.id);
      return null;
    }
    const children = await this.runs.resolveChildren(def.ownerId, def.plan, def.id);
    const fresh = { hookId: newHookId(), secret: newSigningSecret() };
    const { created } = await ensureWebhook(this.store, this.keyring, {
      ownerId: def.ownerId,
      definitionId: def.id,
      children: children.children === undefined ? undefined : children,
      fresh,
    });
    const info = await webhookOf(this.store, def.ownerId, def.id);
    if (!info) throw new SkillflowError('CONFLICT', 'The definition changed meanwhile; retry.');
    return this.view(info, created ? fresh.secret : undefined);
  }

  /** The definition's hook without its secret; null when it has none. */
  async of(def: StoredDefinition): Promise<HookView | null> {
    if (def.plan.trigger.type !== 'webhook') return null;
    const info = await webhookOf(this.store, def.ownerId, def.id);
    return info ? this.view(info) : null;
  }

  /**
   * A new signing secret for the definition's hook (made now if a failed save left it without
   * one). `keepPreviousSeconds`: how long the old secret is still accepted (0: not at all).
   */
  /** 409 unless the definition's current version has a webhook trigger. */
  requireWebhook(def: StoredDefinition): void {
    if (def.plan.trigger.type !== 'webhook')
      throw errors.conflict('This definition has no webhook trigger; there is no hook to rotate.');
  }

  async rotate(def: StoredDefinition, keepPreviousSeconds = 0): Promise<HookView> {
    this.requireWebhook(def);
    const now = this.now();
    const secret = newSigningSecret();
    const info = await rotateWebhookSecret(this.store, this.keyring, {
      ownerId: def.ownerId,
      definitionId: def.id,
      secret,
      now,
      ...(keepPreviousSeconds > 0 && { previousUntil: new Date(now.getTime() + keepPreviousSeconds * 1000) }),
    });
    if (info) return this.view(info, secret);
    const made = await this.sync(def);
    if (!made?.signing_secret) return this.rotate(def, keepPreviousSeconds);
    return made;
  }

  /**
   * The hook a signed request names, once every check passed; otherwise the one 401 (or the
   * per-hook 429). `clientKey` is charged to the public per-address limit when no hook has the id.
   */
  async verify(
    hookId: string,
    header: string | undefined,
    body: Buffer,
    clientKey: string,
  ): Promise<OpenedWebhook> {
    const now = this.now();
    const hook = HOOK_ID_PATTERN.test(hookId)
      ? await openWebhook(this.store, this.keyring, hookId, now)
      : undefined;
    if (!hook) {
      await this.limits.charge('ip', clientKey);
      throw new SkillflowError('HOOK_SIGNATURE_INVALID');
    }
    await this.limits.charge('hook', hook.hookId);
    const check = checkSignature(header, body, hook.secrets, now.getTime());
    if (!check.ok) throw new SkillflowError('HOOK_SIGNATURE_INVALID');
    const fresh = await recordSignature(this.store, {
      hookId: hook.hookId,
      signatureHash: check.signatureHash,
      // Past this, the timestamp alone refuses it.
      expiresAt: new Date((check.t + SIGNATURE_TOLERANCE_S + 60) * 1000),
      now,
    });
    if (!fresh) throw new SkillflowError('HOOK_SIGNATURE_INVALID');
    return hook;
  }

  /** Starts the hook's definition with the request body's declared fields as run inputs. */
  async start(hook: OpenedWebhook, text: string): Promise<string> {
    const body = parseObject(text);
    const def = await this.definitions.get(hook.ownerId, hook.definitionId);
    if (def.plan.trigger.type !== 'webhook') throw new SkillflowError('HOOK_SIGNATURE_INVALID');
    const inputs = checkedRunInputs(def.plan, declaredFields(def.plan, body), { root: 'body' });
    await this.limits.charge('owner_quota', { ownerId: def.ownerId, quota: 'running_runs' });
    // The children pinned at the save; a plan without `use_workflow` steps pinned none.
    return this.runs.startRun(def, inputs, hook.children as ResolvedChildren | undefined, 'webhook');
  }
}

/** The body as a JSON object, or the 400 that says it is not one. */
function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw errors.invalidBody();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw errors.invalidRequest('body', [{ path: '', message: 'must be a JSON object' }]);
  return value as Record<string, unknown>;
}
