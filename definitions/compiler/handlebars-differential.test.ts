/**
 * Differential test against Handlebars: the corpus renders with the same context in both, and
 * every difference must be one of the deliberate differences below, shown by its evidence: a
 * variant of the Handlebars render that removes exactly that difference gives the sandbox's
 * output, or the sandbox refuses the template with the code that names the rule.
 */
import Handlebars from 'handlebars';
import { describe, expect, it } from 'vitest';
import { compileDefinition } from './compile-definition.js';
import { bracketNumericSegments } from '../testing/numeric-segments.js';
import { renderTemplate } from '../runtime/render-template.js';
import type { ChatPlanStep } from '../runtime/plan.js';
import { createTestCatalog } from '../testing/test-catalog.js';
import {
  CORPUS_INPUT_TYPES,
  CORPUS_INPUTS,
  type Expected,
  generateTemplates,
  HAND_WRITTEN,
} from '../testing/template-corpus.js';

/** Every deliberate difference, with its reason. */
const DELIBERATE: Record<Exclude<Expected, 'same'>, string> = {
  'html-escaping': 'Output is chat text, not HTML: nothing is escaped.',
  'objects-as-json': 'Objects and lists render as compact JSON, not "[object Object]" or a comma list.',
  'run-scope-inside-each': 'steps. and inputs. always name the run scope, even inside #each.',
  'each-needs-a-list':
    '#each iterates lists only; over an object (or any non-list) it renders its else part.',
  'final-digit-segment':
    'A digit segment at the end of a path (.0) is a list index; Handlebars lexes it as a number and refuses the template.',
  'outside-the-sandbox':
    'Partials, decorators, raw blocks, ../, @root and other @data, block parameters, hash arguments, literal mustaches and helpers other than len, json, default are refused at compile time.',
  'checked-references':
    'References are checked at compile time: bare paths outside #each, undeclared inputs, paths below scalar inputs, non-index keys of lists and #each over a non-list are refused.',
  'number-literal-range':
    'A number literal past the safe integer range is refused at compile time instead of rendering Infinity or a rounded number.',
};

const SANDBOX_CODES = new Set(['TEMPLATE_NOT_ALLOWED', 'UNKNOWN_HELPER']);
const REFERENCE_CODES = new Set(['INVALID_REFERENCE', 'UNKNOWN_INPUT', 'NOT_A_LIST', 'FORBIDDEN_PROPERTY']);

type Outcome = { text: string } | { refused: string[] };

const catalog = createTestCatalog();
const declared = Object.fromEntries(
  Object.entries(CORPUS_INPUT_TYPES).map(([name, type]) => [name, { type }]),
);

function sandbox(template: string): Outcome {
  const source = JSON.stringify({
    title: 'Differential',
    start_when: { manual: { inputs: declared } },
    steps: [{ id: 'notify', send_chat_message: { title: 't', message: template } }],
  });
  const result = compileDefinition(source, { catalog, format: 'json' });
  if (!result.ok) return { refused: [...new Set(result.diagnostics.map((d) => d.code))] };
  const nodes = (result.plan.steps[0] as ChatPlanStep).message;
  return { text: renderTemplate(nodes, { inputs: structuredClone(CORPUS_INPUTS), steps: {} }) };
}

const helpers = {
  len: (x: unknown) =>
    Array.isArray(x) || typeof x === 'string'
      ? x.length
      : typeof x === 'object' && x !== null
        ? Object.keys(x).length
        : 0,
  json: (x: unknown) => (x === undefined ? 'null' : JSON.stringify(x)),
  default: (x: unknown, fallback: unknown) => (x === undefined || x === null || x === '' ? fallback : x),
};

/** Gives every object and list a hidden `toString` that returns its compact JSON. */
function jsonStrings<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const copy = (
    Array.isArray(value)
      ? value.map(jsonStrings)
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonStrings(v)]))
  ) as object;
  Object.defineProperty(copy, 'toString', { value: () => JSON.stringify(copy), enumerable: false });
  return copy as T;
}

interface Variant {
  noEscape?: boolean;
  jsonText?: boolean;
  rootScope?: boolean;
  listsOnly?: boolean;
  brackets?: boolean;
}

const SEGMENT = String.raw`(?:\w+|\[[^\]]*\])`;
const ROOT_REFERENCE = new RegExp(
  String.raw`(\{\{[{~]?)?(?<=[\s({~#]|\{\{)inputs\.(${SEGMENT}(?:\.${SEGMENT})*)`,
  'g',
);

/**
 * Writes every `inputs.<path>` as a call of the `root` helper, which reads the run scope
 * wherever it stands, as the sandbox does: `{{root "path"}}` as a mustache, `(root "path")` as an
 * argument. (Handlebars' `@root` misreads some paths inside nested `#each` blocks.)
 */
function rootReferences(template: string): string {
  return template.replace(ROOT_REFERENCE, (_all, open: string | undefined, path: string) =>
    open ? `${open}root "${path}"` : `(root "${path}")`,
  );
}

/** Follows a Handlebars path (`a.[0].b`) over own properties, as Handlebars' lookup does. */
function followRoot(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    const key = part.replace(/^\[(.*)\]$/, '$1');
    if (current === null || current === undefined || !Object.hasOwn(Object(current), key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function handlebars(template: string, variant: Variant = {}): Outcome {
  let text = template;
  if (variant.brackets) text = bracketNumericSegments(text).text;
  if (variant.rootScope) text = rootReferences(text);
  const inputs = variant.jsonText
    ? jsonStrings(structuredClone(CORPUS_INPUTS))
    : structuredClone(CORPUS_INPUTS);
  const root = (path: string) => followRoot(inputs, path);
  // Without escaping, but still one string per mustache: Handlebars' own noEscape option adds
  // adjacent numbers (`{{a}}{{b}}` with 3 and 2 gives 5).
  const escape = Handlebars.Utils.escapeExpression;
  if (variant.noEscape) Handlebars.Utils.escapeExpression = plainText;
  try {
    const render = Handlebars.compile(text);
    return {
      text: render(
        { inputs },
        { helpers: { ...helpers, root, ...(variant.listsOnly && { each: eachList }) } },
      ),
    };
  } catch (err) {
    return { refused: [err instanceof Error ? err.name : 'Error'] };
  } finally {
    Handlebars.Utils.escapeExpression = escape;
  }
}

/** Handlebars' text of a value, without HTML escaping. */
function plainText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const html = (value as { toHTML?: () => string }).toHTML;
  if (typeof html === 'function') return html.call(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- Handlebars' own conversion: objects use their toString
  return String(value);
}

/** Handlebars' own #each, limited to lists as the sandbox's is. */
function eachList(this: unknown, list: unknown, options: Handlebars.HelperOptions): string {
  if (!Array.isArray(list) || list.length === 0) return options.inverse(this);
  return (Handlebars.helpers.each as Handlebars.HelperDelegate).call(this, list, options) as string;
}

/** The same text, or both refuse a template that does not parse. */
const same = (ours: Outcome, theirs: Outcome) =>
  'text' in ours
    ? 'text' in theirs && ours.text === theirs.text
    : 'refused' in theirs && ours.refused.join() === 'TEMPLATE_SYNTAX';

/** The deliberate difference that explains the two outcomes, 'same', or undefined. */
function classify(template: string): Expected | undefined {
  const ours = sandbox(template);
  const theirs = handlebars(template);
  if (same(ours, theirs)) return 'same';
  if ('refused' in ours) {
    if (ours.refused.every((code) => SANDBOX_CODES.has(code))) return 'outside-the-sandbox';
    if (ours.refused.every((code) => REFERENCE_CODES.has(code))) return 'checked-references';
    if (ours.refused.every((code) => code === 'INVALID_VALUE') && /\d{17}/.test(template))
      return 'number-literal-range';
    return undefined;
  }
  const ladder: Array<[Expected, Variant]> = [
    ['html-escaping', { noEscape: true }],
    ['objects-as-json', { noEscape: true, jsonText: true }],
    ['run-scope-inside-each', { noEscape: true, jsonText: true, rootScope: true }],
    ['each-needs-a-list', { noEscape: true, jsonText: true, rootScope: true, listsOnly: true }],
  ];
  const brackets = 'refused' in theirs;
  for (const [kind, variant] of ladder) {
    if (same(ours, handlebars(template, { ...variant, brackets })))
      return brackets ? 'final-digit-segment' : kind;
  }
  return undefined;
}

describe('templates against Handlebars', () => {
  const generated = generateTemplates(20_261, 240);
  const counts = new Map<string, number>();
  const unexplained: Array<{ template: string; ours: Outcome; theirs: Outcome }> = [];

  it.each(HAND_WRITTEN)('%j renders as Handlebars or differs as %s', (template, expected) => {
    expect(classify(template)).toBe(expected);
  });

  it('explains every difference over the whole corpus', () => {
    const corpus = [...HAND_WRITTEN.map(([t]) => t), ...generated];
    for (const template of corpus) {
      const kind = classify(template);
      counts.set(kind ?? 'unexplained', (counts.get(kind ?? 'unexplained') ?? 0) + 1);
      if (!kind) unexplained.push({ template, ours: sandbox(template), theirs: handlebars(template) });
    }
    console.log(
      `differential: ${corpus.length} templates (${HAND_WRITTEN.length} hand-written, ${generated.length} generated); ` +
        [...counts].map(([k, n]) => `${k} ${n}`).join(', '),
    );
    expect(unexplained).toEqual([]);
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    // The generator writes only forms both accept: most of its templates must render identically.
    const generatedSame = generated.filter((t) => classify(t) === 'same').length;
    expect(generatedSame).toBeGreaterThan(generated.length / 2);
    for (const kind of counts.keys()) expect(kind === 'same' || kind in DELIBERATE).toBe(true);
  });
});
