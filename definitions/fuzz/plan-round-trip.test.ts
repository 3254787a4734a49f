/**
 * A compiled plan survives the way to the worker unchanged: sealed into the store and read back,
 * then passed as the workflow's argument through the payload converter and codec. Every `if`,
 * step input and template of the plan renders the same before and after, for a generated run
 * scope (run inputs and the earlier steps' outputs, drawn from the skills' output schemas).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../lib/store/db.js';
import { TEST_KEYRING } from '../../test/helpers/fixtures.js';
import { decideOutputShape } from '../compiler/compile-decide.js';
import type { Plan, RunScope } from '../runtime/plan.js';
import { compileForTest, planOf, withSteps } from '../testing/compile.js';
import { createTestCatalog } from '../testing/test-catalog.js';
import { definitionArbitraries, sourceStyle, toSource } from './definition-arbitraries.js';
import { announce, fuzzParams } from './fuzz-run.js';
import { renderPlan, storeAndLoad, throughWorkflowArgument } from './plan-round-trip.js';
import { arbitraryOf, jsonSchemaOf } from './schema-arbitrary.js';

const catalog = createTestCatalog();
const { definition } = definitionArbitraries(catalog);

/** A run scope for a plan: values for its inputs, outputs for its steps (some missing). */
function scopeFor(plan: Plan): fc.Arbitrary<RunScope> {
  const inputs = plan.trigger.type === 'manual' ? Object.keys(plan.trigger.inputs) : [];
  const outputs: Record<string, fc.Arbitrary<unknown>> = {};
  for (const step of plan.steps) {
    const schema =
      step.kind === 'skill'
        ? catalog.get(step.skill)?.workflowOutput
        : step.kind === 'decide'
          ? decideOutputShape({ ...step.decision, question: '' })[0]
          : undefined;
    outputs[step.id] = schema
      ? arbitraryOf(jsonSchemaOf(schema as never, 'output'))
      : fc.jsonValue({ maxDepth: 2 });
  }
  return fc.record({
    inputs: fc.record(Object.fromEntries(inputs.map((name) => [name, fc.jsonValue({ maxDepth: 2 })])), {
      requiredKeys: [],
    }),
    steps: fc.record(outputs, { requiredKeys: [] }),
  });
}

/** Compiles, stores and loads, passes to the workflow, and renders before and after. */
async function roundTrip(store: Store, source: string, plan: Plan, scope: RunScope): Promise<void> {
  const stored = await storeAndLoad(store, TEST_KEYRING, source, plan);
  expect(stored).toStrictEqual(plan);
  const loaded = await throughWorkflowArgument(TEST_KEYRING, stored);
  expect(loaded).toStrictEqual(plan);
  expect(renderPlan(loaded, scope)).toStrictEqual(renderPlan(plan, scope));
}

describe('a plan survives store → load → render unchanged', () => {
  let store: Store;
  beforeAll(async () => {
    announce('plan-round-trip');
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    await store.close();
  });

  it('for generated definitions and run scopes', async () => {
    let compiled = 0;
    await fc.assert(
      fc.asyncProperty(definition, sourceStyle, fc.gen(), async (data, style, gen) => {
        const source = toSource(data, style.format, style.indent);
        const result = compileForTest(source, style.format);
        fc.pre(result.ok);
        if (!result.ok) return;
        compiled += 1;
        const scope = gen(() => scopeFor(result.plan));
        await roundTrip(store, source, result.plan, scope);
      }),
      { ...fuzzParams(60), maxSkipsPerRun: 10 },
    );
    expect(compiled).toBe(fuzzParams(60).numRuns);
  });

  it('a number literal past the safe-integer range is refused at compile time, never stored as null', () => {
    const source = withSteps(
      `  - id: n\n    send_chat_message: { title: t, message: "{{default inputs.x ${'9'.repeat(400)}}}" }\n`,
      '  manual: { inputs: { x: { type: string } } }',
    );
    const result = compileForTest(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostics.map((d) => d.code)).toEqual(['INVALID_VALUE']);
  });

  it('`.0` at the end of a template path compiles, and the plan round-trips', async () => {
    const source = withSteps(
      `  - id: n\n    send_chat_message: { title: t, message: "{{inputs.tags.0}}" }\n`,
      '  manual: { inputs: { tags: { type: array } } }',
    );
    await roundTrip(store, source, planOf(source), { inputs: { tags: ['a'] }, steps: {} });
  });
});
