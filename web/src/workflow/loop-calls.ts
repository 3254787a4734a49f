/** Which steps of a run's graph have a call of their own to show (pure). */
import type { DefinitionGraph } from './graph-layout.js';

/** The step kinds that call an activity, and so have an input and an output of their own. */
export const CALLING: ReadonlySet<string> = new Set(['skill', 'chat', 'decide']);

/**
 * The steps of a loop's element that call something: its inner steps, those of parallel groups
 * and handlers inside it, not those of a loop inside it (named per element of that loop).
 */
export function loopCalls(graph: DefinitionGraph, loopId: string): DefinitionGraph['nodes'] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const inLoop = (n: DefinitionGraph['nodes'][number]): boolean => {
    const parent = n.parent === undefined ? undefined : byId.get(n.parent);
    if (!parent) return false;
    if (parent.id === loopId) return true;
    return parent.kind !== 'for_each' && inLoop(parent);
  };
  return graph.nodes.filter((n) => CALLING.has(n.kind) && inLoop(n));
}
