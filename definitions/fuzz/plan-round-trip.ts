/**
 * The journey of a plan from the compiler to the worker, for the property tests: stored sealed
 * in `definition_versions.plan_sealed` by the definitions owner, read back, and handed to the
 * interpreter workflow as its argument through Temporal's payload converter and the encrypting
 * payload codec. And what the workflow does with a plan's templates: every `if`, every step input
 * and every chat and decide template, rendered against one run scope.
 */
import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { AesGcmPayloadCodec } from '../../lib/crypto/codec.js';
import type { Store } from '../../lib/store/db.js';
import { findDefinition, insertDefinition } from '../../lib/store/owners/definitions.js';
import {
  evaluateCondition,
  renderTemplate,
  resolveInput,
  type Plan,
  type RunScope,
  type TemplateNode,
} from '../runtime/index.js';

/** Stores the plan as the API does and reads it back as a run start does. */
export async function storeAndLoad(
  store: Store,
  keyring: Keyring,
  source: string,
  plan: Plan,
): Promise<Plan> {
  const id = randomUUID();
  const ownerId = `owner-${randomUUID()}`;
  await insertDefinition(store, keyring, { id, ownerId, source, plan });
  const stored = await findDefinition(store, keyring, ownerId, id);
  if (!stored) throw new Error('the stored definition was not found');
  return stored.plan;
}

/** Passes the plan to the workflow as its argument: payload converter, then codec, and back. */
export async function throughWorkflowArgument(keyring: Keyring, plan: Plan): Promise<Plan> {
  const codec = new AesGcmPayloadCodec(keyring);
  const encoded = await codec.encode([defaultPayloadConverter.toPayload({ plan })]);
  const [decoded] = await codec.decode(encoded);
  return defaultPayloadConverter.fromPayload<{ plan: Plan }>(decoded!).plan;
}

/** What rendering one template, input or condition gave: a value, or the error's code. */
export type Outcome = { value: unknown } | { error: string };

function attempt(work: () => unknown): Outcome {
  try {
    return { value: work() };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { error: typeof code === 'string' ? code : (err as Error).name };
  }
}

/** Renders every template, input and condition of a plan against `scope`, keyed by location. */
export function renderPlan(plan: Plan, scope: RunScope): Record<string, Outcome> {
  const out: Record<string, Outcome> = {};
  const template = (key: string, nodes: TemplateNode[] | undefined) => {
    if (nodes) out[key] = attempt(() => renderTemplate(nodes, scope));
  };
  for (const [i, step] of plan.steps.entries()) {
    const at = `steps[${i}]`;
    const condition = step.if;
    if (condition) out[`${at}.if`] = attempt(() => evaluateCondition(condition, scope));
    switch (step.kind) {
      case 'skill':
        // The activity receives the input as JSON, so compare it as JSON.
        out[`${at}.input`] = attempt(() => JSON.stringify(resolveInput(step.input, scope)));
        break;
      case 'chat':
        template(`${at}.title`, step.title);
        template(`${at}.message`, step.message);
        template(`${at}.chat_id`, step.chatId);
        break;
      case 'decide':
        template(`${at}.question`, step.question);
        template(`${at}.context`, step.context);
        break;
    }
  }
  return out;
}
