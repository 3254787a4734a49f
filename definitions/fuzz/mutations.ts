/**
 * Mutations of valid definitions for the compiler's property tests. Tree mutations work on the
 * data before it is written (delete, duplicate, swap and rename keys, change types, inject
 * templates, nest deeply, grow strings, add unicode); text mutations work on the written YAML
 * (anchors, aliases, merge keys, alias bombs, duplicate keys, tags) or on any text (cut, splice,
 * repeat). Every piece of author text a mutation adds holds the marker `qz`.
 */
import fc from 'fast-check';
import { MARKER, markedText } from './schema-arbitrary.js';

type Tree = Record<string, unknown> | unknown[];

/** Template fragments inside and outside the sandbox, well-formed or not. */
const TEMPLATE_FRAGMENTS = [
  '{{qz}}',
  '{{steps.qz.x}}',
  '{{inputs.qz}}',
  '{{#each steps.qz}}{{this}}{{/each}}',
  '{{#if}}',
  '{{/if}}',
  '{{> qz}}',
  '{{#> qz}}x{{/qz}}',
  '{{../qz}}',
  '{{@root.qz}}',
  '{{lookup qz "a"}}',
  '{{qz k=1}}',
  '{{#each qz as |a|}}{{a}}{{/each}}',
  '{{{{raw}}}}qz{{{{/raw}}}}',
  '{{"qz"}}',
  '{{len (json (json (json steps.qz)))}}',
  '{{steps.qz.__proto__}}',
  '{{steps.qz.constructor.prototype}}',
  '{{inputs.qz.[01]}}',
  '{{inputs.qz.0}}',
  '{{default inputs.qz 1e400}}',
  `{{default inputs.qz ${'9'.repeat(400)}}}`,
  '{{~qz~}}',
  '{{!-- qz --}}',
  '{{',
  '}}',
  '$nodes.qz.output.x',
  '$nodes.qz.output.results[].qz',
  '@encyclopedia:qz:Qz',
  '@encyclopedia:en:Qz',
];

/** `if` fragments, well-formed or not. */
const CONDITION_FRAGMENTS = [
  'qz == 1',
  '!qz',
  'inputs.qz = 1',
  '(((',
  "'qz",
  '$nodes.qz.output',
  'steps.qz.x >= "qz"',
  '&&',
  '1 < 2 < 3',
];

/** Values of every type, for type changes and injected keys. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  markedText(0, 30),
  fc.constantFrom(...TEMPLATE_FRAGMENTS, ...CONDITION_FRAGMENTS),
  fc.array(markedText(0, 8), { maxLength: 3 }),
  fc.dictionary(markedText(1, 8), fc.integer(), { maxKeys: 3 }),
);

/** Keys to rename to: the language's own (in the wrong place) and made-up ones. */
const KEYS = fc.oneof(
  fc.constantFrom(
    'title',
    'description',
    'start_when',
    'manual',
    'schedule',
    'cron',
    'every',
    'timezone',
    'steps',
    'id',
    'use_app_skill',
    'send_chat_message',
    'decide',
    'input',
    'inputs',
    'if',
    'timeout',
    'continue_on_error',
    'requests',
    'fallback',
    'options',
    '__proto__',
    'constructor',
    'prototype',
  ),
  markedText(1, 12),
);

/** One tree mutation; `at` picks the node (modulo the node count). */
export type TreeMutation =
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'swap'; at: number; other: number }
  | { kind: 'rename'; at: number; key: string }
  | { kind: 'retype'; at: number; value: unknown }
  | { kind: 'template'; at: number; fragment: string; position: number }
  | { kind: 'nest'; at: number; depth: number; list: boolean }
  | { kind: 'huge'; at: number; length: number; unit: string }
  | { kind: 'unicode'; at: number; text: string };

/** Tree mutations. */
export const treeMutation: fc.Arbitrary<TreeMutation> = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), key: KEYS }),
  fc.record({ kind: fc.constant('retype' as const), at: fc.nat(), value: anyValue }),
  fc.record({
    kind: fc.constant('template' as const),
    at: fc.nat(),
    fragment: fc.constantFrom(...TEMPLATE_FRAGMENTS, ...CONDITION_FRAGMENTS),
    position: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('nest' as const),
    at: fc.nat(),
    depth: fc.integer({ min: 1, max: 40 }),
    list: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('huge' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1000, max: 20_000 }),
    unit: fc.constantFrom('qz', '{{', '}}', 'é', '😀', '\u0000', '\n', '{{qz}}', ' ', '#'),
  }),
  fc.record({
    kind: fc.constant('unicode' as const),
    at: fc.nat(),
    text: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((s) => s + MARKER),
  }),
);

interface Slot {
  parent: Tree;
  key: string | number;
}

/** Every slot (key or index) of a tree, depth first. */
function slots(tree: Tree): Slot[] {
  const out: Slot[] = [];
  const walk = (node: Tree): void => {
    for (const key of Object.keys(node)) {
      const k = Array.isArray(node) ? Number(key) : key;
      out.push({ parent: node, key: k });
      const child = (node as Record<string | number, unknown>)[k];
      if (typeof child === 'object' && child !== null) walk(child as Tree);
    }
  };
  walk(tree);
  return out;
}

const get = (slot: Slot): unknown => (slot.parent as Record<string | number, unknown>)[slot.key];
const put = (slot: Slot, value: unknown): void => {
  Object.defineProperty(slot.parent, slot.key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
};

/** Applies mutations to a copy of `data`. */
export function mutateTree(data: unknown, mutations: readonly TreeMutation[]): unknown {
  const root = { root: structuredClone(data) };
  for (const m of mutations) {
    const all = slots(root).slice(1);
    const slot = all.length > 0 ? all[m.at % all.length] : undefined;
    if (!slot) break;
    applyOne(slot, m, all);
  }
  return root.root;
}

function applyOne(slot: Slot, m: TreeMutation, all: Slot[]): void {
  const value = get(slot);
  switch (m.kind) {
    case 'delete':
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
      else delete slot.parent[slot.key];
      return;
    case 'duplicate':
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 0, structuredClone(value));
      else put({ parent: slot.parent, key: `${String(slot.key)}_${MARKER}` }, structuredClone(value));
      return;
    case 'swap': {
      const other = all[m.other % all.length]!;
      const otherValue = get(other);
      if (containsEither(value, otherValue)) return;
      put(other, value);
      put(slot, otherValue);
      return;
    }
    case 'rename':
      if (Array.isArray(slot.parent)) return put(slot, { [m.key]: value });
      delete slot.parent[slot.key];
      return put({ parent: slot.parent, key: m.key }, value);
    case 'retype':
      return put(slot, structuredClone(m.value));
    case 'template': {
      const text = typeof value === 'string' ? value : '';
      const at = m.position % (text.length + 1);
      return put(slot, text.slice(0, at) + m.fragment + text.slice(at));
    }
    case 'nest': {
      let nested = value;
      for (let i = 0; i < m.depth; i++) nested = m.list ? [nested] : { [MARKER]: nested };
      return put(slot, nested);
    }
    case 'huge':
      return put(slot, MARKER + m.unit.repeat(Math.ceil(m.length / m.unit.length)));
    case 'unicode':
      return put(slot, typeof value === 'string' ? value + m.text : m.text);
  }
}

function containsEither(a: unknown, b: unknown): boolean {
  const holds = (outer: unknown, inner: unknown): boolean =>
    outer === inner ||
    (typeof outer === 'object' &&
      outer !== null &&
      Object.values(outer).some((child) => holds(child, inner)));
  return (
    (typeof a === 'object' && a !== null && holds(a, b)) ||
    (typeof b === 'object' && b !== null && holds(b, a))
  );
}

/** One text mutation of written YAML (or any text); `at` picks a line. */
export type TextMutation =
  | { kind: 'anchor'; at: number; other: number }
  | { kind: 'merge'; at: number }
  | { kind: 'aliasBomb'; levels: number; width: number }
  | { kind: 'duplicateLine'; at: number }
  | { kind: 'tag'; at: number; tag: string }
  | { kind: 'splice'; at: number; text: string }
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'repeat'; at: number; times: number };

/** Text mutations. */
export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ kind: fc.constant('anchor' as const), at: fc.nat(), other: fc.nat() }),
  fc.record({ kind: fc.constant('merge' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('aliasBomb' as const),
    levels: fc.integer({ min: 1, max: 12 }),
    width: fc.integer({ min: 2, max: 10 }),
  }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('tag' as const),
    at: fc.nat(),
    tag: fc.constantFrom(
      '!!str',
      '!!int',
      '!!map',
      '!!binary',
      '!qz',
      '!<tag:qz>',
      '!!set',
      '!!omap',
      '!!timestamp',
    ),
  }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.constantFrom(
        '&qz ',
        '*qz',
        '<<: *qz',
        '? ',
        '%YAML 1.2\n---\n',
        '---\n',
        '...\n',
        '\t',
        '"',
        "'",
        '|',
        '>',
        '[',
        ']',
        '{',
        '}',
        ',',
        ': ',
        '- ',
        '#qz',
        '\\',
        '\uFEFF',
        '\r',
        '\u2028',
      ),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), times: fc.integer({ min: 2, max: 400 }) }),
);

const KEY_LINE = /^(\s*(?:- )?)([A-Za-z_][\w]*):(.*)$/;

/** Applies text mutations; the result may exceed any limit (the compiler must still answer). */
export function mutateText(text: string, mutations: readonly TextMutation[]): string {
  let out = text;
  for (const m of mutations) out = applyText(out, m);
  return out;
}

function applyText(text: string, m: TextMutation): string {
  const lines = text.split('\n');
  const pick = (n: number) => n % Math.max(1, lines.length);
  switch (m.kind) {
    case 'anchor': {
      const [a, b] = [pick(m.at), pick(m.other)];
      const ma = KEY_LINE.exec(lines[a] ?? '');
      const mb = KEY_LINE.exec(lines[b] ?? '');
      if (!ma || !mb) return text;
      lines[a] = `${ma[1]}${ma[2]}: &qz${a}${ma[3]}`;
      if (a !== b) lines[b] = `${mb[1]}${mb[2]}: *qz${a}`;
      return lines.join('\n');
    }
    case 'merge': {
      const at = pick(m.at);
      const match = KEY_LINE.exec(lines[at] ?? '');
      if (!match) return text;
      const indent = ' '.repeat((match[1] ?? '').length + 2);
      lines.splice(at + 1, 0, `${indent}<<: { ${MARKER}: 1 }`, `${indent}<<: *qzbase`);
      return `qzbase: &qzbase { ${MARKER}: 2 }\n${lines.join('\n')}`;
    }
    case 'aliasBomb': {
      const bomb = [`a0: &a0 [${'"qz",'.repeat(m.width)}]`];
      for (let i = 1; i <= m.levels; i++) bomb.push(`a${i}: &a${i} [${`*a${i - 1},`.repeat(m.width)}]`);
      return `${bomb.join('\n')}\n${text}`;
    }
    case 'duplicateLine': {
      const at = pick(m.at);
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    }
    case 'tag': {
      const at = pick(m.at);
      const match = KEY_LINE.exec(lines[at] ?? '');
      if (!match) return text;
      lines[at] = `${match[1]}${match[2]}: ${m.tag}${match[3]}`;
      return lines.join('\n');
    }
    case 'splice': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + m.text + text.slice(at);
    }
    case 'cut': {
      const at = m.at % (text.length + 1);
      return text.slice(0, at) + text.slice(at + m.length);
    }
    case 'repeat': {
      const at = pick(m.at);
      lines.splice(at, 0, ...Array<string>(m.times - 1).fill(lines[at] ?? ''));
      return lines.join('\n');
    }
  }
}
