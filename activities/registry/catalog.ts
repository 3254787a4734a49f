/** The definitions compiler's view of the registry: loaded skills only, with policy limits. */
import type { SkillCatalog } from '../../definitions/catalog.js';
import { retryBounds } from '../policy.js';
import type { Registry } from './registry.js';

export function catalogFromRegistry(registry: Registry): SkillCatalog {
  const refs = () =>
    registry
      .all()
      .filter((s) => s.impl)
      .map((s) => `${s.manifest.appId}.${s.manifest.id}`)
      .sort();
  return {
    list: refs,
    get(ref) {
      const [app, skill, extra] = ref.split('.');
      if (!app || !skill || extra !== undefined) return undefined;
      const loaded = registry.available(app, skill);
      if (!loaded || `${loaded.manifest.appId}.${loaded.manifest.id}` !== ref) return undefined;
      return {
        unattended: loaded.manifest.capabilities.unattended,
        input: loaded.impl.input,
        workflowOutput: loaded.impl.workflowOutput,
        maxTimeoutMs: loaded.policy.maxStepTimeoutMs,
        maxRetry: retryBounds(loaded.policy.name),
      };
    },
  };
}
