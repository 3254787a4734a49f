/**
 * Valid workflow definitions for the compiler's property tests: titles, `start_when` triggers
 * (manual with typed run inputs, cron and interval schedules with their policies) and steps of every kind, with
 * skill inputs drawn from the catalog's own input schemas, templates, `if` conditions and
 * references to earlier steps and declared inputs. A definition is generated as plain data;
 * {@link toSource} writes it as YAML or JSON.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { SkillCatalog } from '../catalog.js';
import { decideOutputShape } from '../compiler/compile-decide.js';
import type { DecideSource } from '../schema/definition-schema.js';
import { SCHEDULE_OVERLAPS } from '../runtime/plan.js';
import { arbitraryOf, jsonSchemaOf, markedText, outputPaths, type JsonSchema } from './schema-arbitrary.js';
import {
  conditionPart,
  renderConditionSource,
  renderTemplateSource,
  templateParts,
  type ConditionPart,
  type Readable,
  type TemplatePart,
} from './template-arbitraries.js';

/** A definition as plain data, before it is written as text. */
export type DefinitionData = Record<string, unknown>;

const RUN_INPUT_VALUES = {
  string: markedText(0, 20),
  number: fc.integer({ min: -10_000, max: 10_000 }).map((n) => n / 4),
  integer: fc.integer({ min: -1000, max: 1000 }),
  boolean: fc.boolean(),
  array: fc.array(markedText(1, 8), { maxLength: 3 }),
  object: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer(), { maxKeys: 3 }),
} as const;
type RunInputType = keyof typeof RUN_INPUT_VALUES;
const RUN_INPUT_TYPES = Object.keys(RUN_INPUT_VALUES) as RunInputType[];

const runInput = fc.constantFrom(...RUN_INPUT_TYPES).chain((type) =>
  fc.record(
    {
      type: fc.constant(type),
      required: fc.boolean(),
      default: RUN_INPUT_VALUES[type] as fc.Arbitrary<unknown>,
      description: markedText(1, 40),
    },
    { requiredKeys: ['type'] },
  ),
);

const inputName = fc.stringMatching(/^qz[a-z0-9_]{0,10}$/);
const stepId = fc.stringMatching(/^qz[a-z0-9_]{0,10}$/);

const cronField = (min: number, max: number) =>
  fc.oneof(
    fc.constant('*'),
    fc.integer({ min, max }).map(String),
    fc.integer({ min: 1, max: Math.max(1, max - min) }).map((n) => `*/${n}`),
    fc
      .tuple(fc.integer({ min, max }), fc.integer({ min, max }))
      .map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
  );
const cron = fc
  .tuple(
    cronField(0, 59),
    cronField(0, 23),
    cronField(1, 28),
    cronField(1, 12),
    fc.oneof(cronField(0, 6), fc.constant('MON-FRI')),
  )
  .map((fields) => fields.join(' '));
const duration = (minMinutes: number, maxMinutes: number) =>
  fc.integer({ min: minMinutes, max: maxMinutes }).map((total) => {
    const [d, h, m] = [Math.floor(total / 1440), Math.floor((total % 1440) / 60), total % 60];
    return `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}`;
  });
const timezone = fc.constantFrom('UTC', ...Intl.supportedValuesOf('timeZone'));

/** A schedule's fields besides cron or every: sometimes an overlap policy and a catch-up window. */
const schedulePolicy = {
  timezone,
  overlap: fc.constantFrom(...SCHEDULE_OVERLAPS),
  catchup_window: duration(1, 7 * 1440),
};

const trigger = fc.oneof(
  fc.record({
    manual: fc.option(fc.record({ inputs: fc.dictionary(inputName, runInput, { maxKeys: 4 }) }), {
      nil: null,
    }),
  }),
  fc.record({
    schedule: fc.record({ cron, ...schedulePolicy }, { requiredKeys: ['cron', 'timezone'] }),
  }),
  fc.record({
    schedule: fc.record(
      { every: duration(1, 366 * 1440), ...schedulePolicy },
      { requiredKeys: ['every', 'timezone'] },
    ),
  }),
);

/** The abstract part of one step: what it does, with references as indices. */
interface StepSeed {
  id: string;
  action: 'skill' | 'chat' | 'decide' | 'wait' | 'fail';
  skill: { index: number; input: unknown };
  /** Which string leaves of the skill input become templates (index → template). */
  inputTemplates: Array<{ leaf: number; parts: TemplatePart[]; whole: boolean; pick: number }>;
  title: TemplatePart[];
  message: TemplatePart[];
  chatId: TemplatePart[] | null;
  decide: {
    type: 'choice' | 'noul' | 'score';
    options: string[];
    pick: number;
    probability: number | null;
    minConfidence: number | null;
  };
  context: TemplatePart[] | null;
  condition: ConditionPart | null;
  continueOnError: boolean | null;
  timeoutSeconds: number | null;
  /** `wait`: a duration, or an instant written out (a template may render it at run time). */
  wait: { duration: string } | { until: string };
  /** `fail`: an author code (never a platform one: they hold no `QZ`). */
  failCode: string;
  /** `retry` within every policy profile's bounds (decision: 2 attempts, local: 5 s). */
  retry: { max_attempts?: number; initial_interval?: string; backoff?: number } | null;
}

/** Generators bound to one skill catalog. */
export interface DefinitionArbitraries {
  /** A valid definition as data. */
  definition: fc.Arbitrary<DefinitionData>;
}

/** Builds the generators for a catalog (inputs from each skill's own input schema). */
export function definitionArbitraries(catalog: SkillCatalog): DefinitionArbitraries {
  const skills = catalog.list().map((ref) => {
    const entry = catalog.get(ref)!;
    return {
      ref,
      unattended: entry.unattended,
      maxTimeoutSeconds: Math.floor(entry.maxTimeoutMs / 1000),
      input: arbitraryOf(jsonSchemaOf(entry.input, 'input')),
      output: jsonSchemaOf(entry.workflowOutput, 'output'),
    };
  });
  const seed: fc.Arbitrary<StepSeed> = fc.record({
    id: stepId,
    action: fc.constantFrom(
      'skill' as const,
      'chat' as const,
      'decide' as const,
      'wait' as const,
      'fail' as const,
    ),
    skill: fc
      .nat({ max: skills.length - 1 })
      .chain((index) => skills[index]!.input.map((input) => ({ index, input }))),
    inputTemplates: fc.array(
      fc.record({ leaf: fc.nat(), parts: templateParts, whole: fc.boolean(), pick: fc.nat() }),
      { maxLength: 2 },
    ),
    title: templateParts,
    message: templateParts,
    chatId: fc.option(templateParts, { nil: null }),
    decide: fc.record({
      type: fc.constantFrom('choice' as const, 'noul' as const, 'score' as const),
      options: fc.uniqueArray(markedText(1, 20), { minLength: 2, maxLength: 5 }),
      pick: fc.nat(),
      probability: fc.option(
        fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
        { nil: null },
      ),
      minConfidence: fc.option(
        fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
        { nil: null },
      ),
    }),
    context: fc.option(templateParts, { nil: null }),
    condition: fc.option(conditionPart, { nil: null }),
    continueOnError: fc.option(fc.boolean(), { nil: null }),
    timeoutSeconds: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
    wait: fc.oneof(
      duration(1, 366 * 1440).map((d) => ({ duration: d })),
      fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => ({ until: new Date(ms).toISOString() })),
    ),
    failCode: fc.stringMatching(/^QZ[A-Z0-9_]{1,20}$/),
    retry: fc.option(
      fc.record(
        {
          max_attempts: fc.integer({ min: 1, max: 2 }),
          initial_interval: fc.integer({ min: 1, max: 5 }).map((s) => `${s}s`),
          backoff: fc.integer({ min: 4, max: 16 }).map((n) => n / 4),
        },
        { requiredKeys: [] },
      ),
      { nil: null },
    ),
  });
  const definition = fc
    .record({
      title: markedText(1, 200),
      description: fc.option(markedText(0, 4000), { nil: null }),
      start_when: trigger,
      steps: fc.uniqueArray(seed, { minLength: 1, maxLength: 6, selector: (s) => s.id }),
    })
    .map(({ title, description, start_when, steps }) =>
      buildDefinition({ title, description, start_when, steps }, skills),
    );
  return { definition };
}

/** A wait step's output, as later steps may read it. */
const WAIT_OUTPUT: JsonSchema = {
  type: 'object',
  properties: { until: { type: 'string' }, waited_ms: { type: 'integer' } },
  required: ['until', 'waited_ms'],
};

type Skill = {
  ref: string;
  unattended: boolean;
  maxTimeoutSeconds: number;
  input: fc.Arbitrary<unknown>;
  output: JsonSchema;
};

function buildDefinition(
  seed: { title: string; description: string | null; start_when: Record<string, unknown>; steps: StepSeed[] },
  skills: Skill[],
): DefinitionData {
  const scheduled = 'schedule' in seed.start_when;
  const manual = seed.start_when.manual as { inputs: Record<string, { type: string }> } | null | undefined;
  const readable: Readable[] = Object.entries(manual?.inputs ?? {}).map(([name, spec]) => ({
    template: `inputs.${name}`,
    condition: `inputs.${name}`,
    plain: `inputs.${name}`,
    schema: spec.type === 'array' ? { type: 'array', items: { type: 'string' } } : { type: spec.type },
    projected: false,
  }));
  const steps = seed.steps.map((step) => {
    const built = buildStep(step, skills, readable, scheduled);
    readable.push(...readableOf(step.id, built.output));
    return built.data;
  });
  return {
    title: seed.title,
    ...(seed.description !== null && { description: seed.description }),
    start_when: seed.start_when,
    steps,
  };
}

function readableOf(id: string, output: JsonSchema | undefined): Readable[] {
  if (!output) return [];
  return outputPaths(output, 3).map((p) => ({
    template: `steps.${id}.${p.path}`,
    condition: `$nodes.${id}.output.${p.path}`,
    plain: `steps.${id}.${p.path}`,
    schema: p.schema,
    projected: p.projected,
  }));
}

function buildStep(
  step: StepSeed,
  skills: Skill[],
  readable: Readable[],
  scheduled: boolean,
): { data: Record<string, unknown>; output?: JsonSchema } {
  const data: Record<string, unknown> = { id: step.id };
  const condition = step.condition && renderConditionSource(step.condition, readable);
  if (condition) data.if = condition;
  const template = (parts: TemplatePart[]) => renderTemplateSource(parts, readable) || 'qz';
  // Wait and fail steps call no activity: no timeout or retry; a fail step always fails.
  if (step.action === 'wait') {
    if (step.continueOnError !== null) data.continue_on_error = step.continueOnError;
    data.wait = step.wait;
    return { data, output: WAIT_OUTPUT };
  }
  if (step.action === 'fail') {
    data.fail = { code: step.failCode, message: template(step.message) };
    return { data };
  }
  if (step.continueOnError !== null) data.continue_on_error = step.continueOnError;
  if (step.timeoutSeconds !== null) data.timeout = `${step.timeoutSeconds}s`;
  if (step.retry !== null) data.retry = step.retry;
  const skill = skills[step.skill.index]!;
  if (step.action === 'skill' && (skill.unattended || !scheduled)) {
    data.use_app_skill = skill.ref;
    if (step.timeoutSeconds !== null)
      data.timeout = `${Math.min(step.timeoutSeconds, skill.maxTimeoutSeconds)}s`;
    data.input = withTemplates(structuredClone(step.skill.input), step.inputTemplates, readable);
    return { data, output: skill.output };
  }
  if (step.action === 'decide') {
    const d = step.decide;
    const decide: Record<string, unknown> = { type: d.type, question: template(step.title) };
    if (d.type === 'choice') {
      decide.options = d.options;
      decide.fallback = d.options[d.pick % d.options.length];
    } else if (d.type === 'score') decide.fallback = d.pick % 5;
    else decide.fallback = d.probability ?? d.pick % 2 === 0;
    if (step.context) decide.context = template(step.context);
    if (d.minConfidence !== null) decide.min_confidence = d.minConfidence;
    data.decide = decide;
    const [shape] = decideOutputShape(decide as DecideSource) as [Parameters<typeof jsonSchemaOf>[0]];
    return { data, output: jsonSchemaOf(shape, 'output') };
  }
  data.send_chat_message = {
    title: template(step.title),
    message: template(step.message),
    ...(step.chatId && { chat_id: template(step.chatId) }),
  };
  return { data };
}

/** Replaces some string leaves of a skill input with templates or whole references. */
function withTemplates(input: unknown, picks: StepSeed['inputTemplates'], readable: Readable[]): unknown {
  const leaves: Array<{ parent: Record<string | number, unknown>; key: string | number }> = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const k = Array.isArray(node) ? Number(key) : key;
      if (typeof value === 'string')
        leaves.push({ parent: node as Record<string | number, unknown>, key: k });
      else walk(value);
    }
  };
  walk(input);
  for (const pick of picks) {
    const leaf = leaves[pick.leaf % Math.max(1, leaves.length)];
    if (!leaf) break;
    const strings = readable.filter((r) => r.schema.type === 'string' && !r.projected);
    const whole = strings[pick.pick % Math.max(1, strings.length)];
    if (pick.whole && whole) {
      leaf.parent[leaf.key] = whole.condition.startsWith('$nodes.')
        ? whole.condition
        : `{{${whole.template}}}`;
    } else leaf.parent[leaf.key] = `qz ${renderTemplateSource(pick.parts, readable)}`;
  }
  return input;
}

/** Writes a definition as YAML or as (indented or compact) JSON. */
export function toSource(data: unknown, format: 'yaml' | 'json', indent = 2): string {
  if (format === 'json') return JSON.stringify(data, null, indent);
  return stringify(data, { aliasDuplicateObjects: false, lineWidth: 0, indent: Math.max(1, indent) });
}

/** Format and indentation of the written source. */
export const sourceStyle = fc.record({
  format: fc.constantFrom('yaml' as const, 'json' as const),
  indent: fc.integer({ min: 0, max: 4 }),
});
