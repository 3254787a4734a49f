/** A child run's search attributes use the same keys as the API's (lib/temporal/search-attributes.ts). */
import { describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../lib/temporal/search-attributes.js';
import { childSearchAttributes } from './child-run.js';
import type { ChildRunSnapshot } from './run-definition.js';

describe('childSearchAttributes', () => {
  it('sets every key the API sets for a run, with its type, and the child trigger', () => {
    const child = { definitionId: 'wf_c', definitionVersion: 4 } as ChildRunSnapshot;
    const pairs = childSearchAttributes(child, 'owner_a');
    const known = new Map(SEARCH_ATTRIBUTES.map((k) => [k.name, k.type as string]));
    for (const { key } of pairs) expect([key.name, key.type]).toEqual([key.name, known.get(key.name)]);
    expect(pairs.map((p) => [p.key.name, p.value])).toEqual([
      ['DefinitionId', 'wf_c'],
      ['DefinitionVersion', 4],
      ['TriggerType', 'workflow'],
      ['TaskKind', 'workflow_run'],
      ['OwnerId', 'owner_a'],
    ]);
  });
});
