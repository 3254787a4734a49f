/**
 * The corpus of the differential test against Handlebars: hand-written templates for every
 * documented form (each with the outcome expected: the same as Handlebars, or a named deliberate
 * difference), and templates from a seeded generator over the same context.
 */

/** A 20-digit key: past the safe integer range, so it must be read as written. */
const KEY20 = '12345678901234567890';

/** The context both renderers get: `inputs` for the sandbox, the same object for Handlebars. */
export const CORPUS_INPUTS = {
  name: 'Ada & <Bob> "the" `x`',
  count: 3,
  zero: 0,
  price: 11.9,
  flag: true,
  off: false,
  empty: '',
  tags: ['x', 'y', 'z'],
  none: [],
  meta: {
    '01': 'zero-one',
    '1': 'one',
    [KEY20]: 'twenty',
    title: 'M',
    deep: { leaf: 'L', n: 0 },
    list: [['a', 'b'], ['c']],
    blank: null,
  },
  people: [
    { name: 'Ann', age: 31, premium: true, tags: ['a', 'b'], pet: { kind: 'cat' } },
    { name: 'Bo', age: 0, premium: false, tags: [], pet: null },
  ],
};

/** The run input declarations matching {@link CORPUS_INPUTS}. */
export const CORPUS_INPUT_TYPES: Record<keyof typeof CORPUS_INPUTS, string> = {
  name: 'string',
  count: 'integer',
  zero: 'integer',
  price: 'number',
  flag: 'boolean',
  off: 'boolean',
  empty: 'string',
  tags: 'array',
  none: 'array',
  meta: 'object',
  people: 'array',
};

/** What a corpus template is expected to give: the same as Handlebars, or a deliberate difference. */
export type Expected =
  | 'same'
  | 'html-escaping'
  | 'objects-as-json'
  | 'run-scope-inside-each'
  | 'each-needs-a-list'
  | 'final-digit-segment'
  | 'outside-the-sandbox'
  | 'checked-references'
  | 'number-literal-range';

/** Hand-written cases: every documented form, and every deliberate difference. */
export const HAND_WRITTEN: ReadonlyArray<readonly [string, Expected]> = [
  // plain text, paths and triple-stash
  ['plain text only', 'same'],
  ['', 'same'],
  ['{{inputs.count}} items', 'same'],
  ['{{inputs.price}}|{{inputs.zero}}|{{inputs.flag}}|{{inputs.off}}|{{inputs.empty}}', 'same'],
  ['{{inputs.missing_field_is_checked}}', 'checked-references'],
  ['{{inputs.meta.title}}{{inputs.meta.deep.leaf}}{{inputs.meta.nope}}', 'same'],
  ['{{inputs.meta.blank}}|{{inputs.meta.deep.n}}', 'same'],
  ['{{{inputs.name}}}', 'same'],
  ['{{inputs.name}}', 'html-escaping'],
  ['{{inputs.tags}}', 'objects-as-json'],
  ['{{inputs.meta.deep}}', 'objects-as-json'],
  ['{{{inputs.people}}}', 'objects-as-json'],
  // indices, .length and numeric keys
  ['{{inputs.tags.[0]}}{{inputs.tags.[2]}}{{inputs.tags.[9]}}', 'same'],
  ['{{inputs.tags.length}} {{inputs.none.length}}', 'same'],
  ['{{inputs.people.[1].name}} {{inputs.people.0.name}}', 'same'],
  ['{{inputs.meta.[01]}}|{{inputs.meta.[1]}}|{{inputs.meta.1.x}}', 'same'],
  [`{{inputs.meta.[${KEY20}]}}`, 'same'],
  [`{{inputs.meta.${KEY20}.x}}`, 'same'],
  ['{{inputs.tags.0}}', 'final-digit-segment'],
  ['{{inputs.meta.list.1.0}}', 'final-digit-segment'],
  ['{{default inputs.tags.5 "none"}}', 'final-digit-segment'],
  ['{{#each inputs.meta.list.0}}{{this}}{{/each}}', 'final-digit-segment'],
  [`{{inputs.meta.${KEY20}}}`, 'final-digit-segment'],
  // blocks
  ['{{#if inputs.flag}}yes{{/if}}', 'same'],
  ['{{#if inputs.off}}yes{{else}}no{{/if}}', 'same'],
  ['{{#if inputs.zero}}a{{else}}b{{/if}}{{#if inputs.empty}}c{{else}}d{{/if}}', 'same'],
  [
    '{{#if inputs.none}}a{{else}}b{{/if}}{{#if inputs.meta}}c{{/if}}{{#if inputs.meta.blank}}e{{/if}}',
    'same',
  ],
  ['{{#unless inputs.flag}}a{{else}}b{{/unless}}', 'same'],
  ['{{#if inputs.off}}1{{else if inputs.zero}}2{{else if inputs.count}}3{{else}}4{{/if}}', 'same'],
  ['{{#unless inputs.none}}empty{{/unless}}', 'same'],
  ['{{#each inputs.tags}}{{@index}}={{this}}{{#unless @last}},{{/unless}}{{/each}}', 'same'],
  ['{{#each inputs.tags}}{{#if @first}}[{{/if}}{{.}}{{#if @last}}]{{/if}}{{/each}}', 'same'],
  ['{{#each inputs.none}}x{{else}}nothing{{/each}}', 'same'],
  ['{{#each inputs.people}}{{name}}:{{this.age}}{{#if premium}}*{{/if}} {{/each}}', 'same'],
  ['{{#each inputs.people}}{{#each tags}}{{this}}{{else}}-{{/each}};{{/each}}', 'same'],
  ['{{#each inputs.people}}{{this.pet.kind}}{{/each}}', 'same'],
  [
    '{{#each inputs.meta.list}}{{#each this}}{{#each ../x}}{{/each}}{{/each}}{{/each}}',
    'outside-the-sandbox',
  ],
  ['{{#each inputs.people}}{{this.pet}}|{{/each}}', 'objects-as-json'],
  ['{{#each inputs.people}}{{inputs.count}}{{/each}}', 'run-scope-inside-each'],
  ['{{#each inputs.tags}}{{#each inputs.people}}{{name}}{{/each}}{{/each}}', 'run-scope-inside-each'],
  ['{{#each inputs.count}}x{{/each}}', 'checked-references'],
  ['{{#each inputs.meta}}{{this}}{{else}}not a list{{/each}}', 'each-needs-a-list'],
  ['{{#each inputs.people}}{{#each pet}}{{this}}{{/each}}{{/each}}', 'each-needs-a-list'],
  // helpers, sub-expressions and literals
  [
    '{{len inputs.tags}} {{len inputs.name}} {{len inputs.meta}} {{len inputs.count}} {{len inputs.meta.nope}}',
    'same',
  ],
  ['{{json inputs.count}} {{json inputs.flag}} {{json inputs.meta.nope}}', 'same'],
  ['{{json inputs.tags}}', 'html-escaping'],
  ['{{{json inputs.meta.deep}}}', 'same'],
  ['{{default inputs.empty "fallback"}} {{default inputs.meta.blank 5}} {{default inputs.zero 7}}', 'same'],
  [
    "{{default inputs.meta.nope 'single'}} {{default inputs.meta.nope true}} {{default inputs.meta.nope null}}",
    'same',
  ],
  ['{{default inputs.meta.nope -2.50}} {{default inputs.meta.nope 9007199254740991}}', 'same'],
  ['{{#if (len inputs.tags)}}some{{/if}}{{#if (len inputs.none)}}none{{/if}}', 'same'],
  ['{{len (json inputs.meta.deep)}} {{len (default inputs.meta.nope "abc")}}', 'same'],
  ['{{#if (default inputs.meta.blank inputs.flag)}}y{{/if}}', 'same'],
  ['{{#each inputs.people}}{{len tags}}{{default pet.kind "none"}}{{/each}}', 'same'],
  [`{{default inputs.meta.nope ${'9'.repeat(400)}}}`, 'number-literal-range'],
  ['{{default inputs.meta.nope 12345678901234567890}}', 'number-literal-range'],
  // comments and whitespace control
  ['a {{!-- a comment --}} b {{! short }} c', 'same'],
  ['a   {{~inputs.count~}}   b', 'same'],
  ['{{#each inputs.tags~}}\n  {{this}}\n{{~/each}}', 'same'],
  ['list:\n{{#each inputs.tags}}\n- {{this}}\n{{/each}}\nend', 'same'],
  ['{{#if inputs.flag}}\n  yes\n{{else}}\n  no\n{{/if}}\n', 'same'],
  // outside the sandbox
  ['{{> partial}}', 'outside-the-sandbox'],
  ['{{#with inputs.meta}}{{title}}{{/with}}', 'outside-the-sandbox'],
  ['{{lookup inputs.meta "title"}}', 'outside-the-sandbox'],
  ['{{@root.inputs.count}}', 'outside-the-sandbox'],
  ['{{#each inputs.tags as |t|}}{{t}}{{/each}}', 'outside-the-sandbox'],
  ['{{#each inputs.tags}}{{@key}}{{/each}}', 'outside-the-sandbox'],
  ['{{json inputs.meta indent=2}}', 'outside-the-sandbox'],
  ['{{"literal"}}', 'outside-the-sandbox'],
  ['{{{{raw}}}}{{x}}{{{{/raw}}}}', 'outside-the-sandbox'],
  ['{{shout inputs.count}}', 'outside-the-sandbox'],
  ['{{#each inputs.people}}{{../inputs.count}}{{/each}}', 'outside-the-sandbox'],
  // references the compiler checks
  ['{{count}}', 'checked-references'],
  ['{{this}}', 'checked-references'],
  ['{{inputs.name.length}}', 'checked-references'],
  ['{{inputs.tags.[01]}}', 'checked-references'],
  // both refuse
  ['{{#if inputs.flag}}open', 'same'],
  ['{{#each inputs.tags}}x{{/if}}', 'same'],
  ['{{inputs.count', 'same'],
];

/** A small seeded generator (mulberry32): the same seed always gives the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOP_PATHS = [
  'inputs.count',
  'inputs.zero',
  'inputs.price',
  'inputs.flag',
  'inputs.off',
  'inputs.empty',
  'inputs.name',
  'inputs.tags',
  'inputs.none',
  'inputs.tags.[1]',
  'inputs.tags.length',
  'inputs.meta.title',
  'inputs.meta.deep.leaf',
  'inputs.meta.deep.n',
  'inputs.meta.deep',
  'inputs.meta.blank',
  'inputs.meta.[01]',
  'inputs.meta.nope',
  'inputs.people.[0].name',
  'inputs.people.1.age',
  'inputs.meta.list.[0].[1]',
];
const TOP_LISTS = ['inputs.tags', 'inputs.none', 'inputs.people', 'inputs.meta.list'];
/** Paths readable inside `#each` over each list, by list. */
const ITEM_PATHS: Record<string, string[]> = {
  'inputs.tags': ['this', '.', '@index', '@first', '@last'],
  'inputs.none': ['this', '@index'],
  'inputs.people': [
    'name',
    'this.name',
    'age',
    'premium',
    'this.pet.kind',
    'pet.kind',
    'tags',
    '@index',
    '@last',
  ],
  'inputs.meta.list': ['this', 'this.[0]', 'this.length', '@index', '@first'],
};
const ITEM_LISTS: Record<string, string[]> = {
  'inputs.people': ['tags', 'this.tags'],
  'inputs.meta.list': ['this'],
};
const LITERALS = ['"text"', "'q'", '0', '42', '-1.5', 'true', 'false', 'null'];
const WORDS = ['a', ' ', 'Hello, ', '\n', ' - ', 'x&y', '<b>', '  '];

class Generator {
  constructor(private readonly next: () => number) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }

  /** A path readable where `list` is the innermost `#each` list (undefined at the top). */
  private path(list: string | undefined): string {
    if (list && this.next() < 0.75) return this.pick(ITEM_PATHS[list] ?? ['this']);
    return this.pick(TOP_PATHS);
  }

  private value(list: string | undefined): string {
    const path = this.path(list);
    const open = this.next() < 0.15 ? '{{~' : '{{';
    const close = this.next() < 0.15 ? '~}}' : '}}';
    switch (Math.floor(this.next() * 6)) {
      case 0:
        return `${open}len ${path}${close}`;
      case 1:
        return `{{{json ${path}}}}`;
      case 2:
        return `${open}default ${path} ${this.pick(LITERALS)}${close}`;
      case 3:
        return `{{{${path}}}}`;
      default:
        return `${open}${path}${close}`;
    }
  }

  private condition(list: string | undefined): string {
    const path = this.path(list);
    const roll = this.next();
    if (roll < 0.2) return `(len ${path})`;
    if (roll < 0.3) return `(default ${path} ${this.pick(LITERALS)})`;
    return path;
  }

  /** A run of 1-3 parts; `depth` bounds block nesting. */
  sequence(list: string | undefined, depth: number): string {
    const parts: string[] = [];
    const count = 1 + Math.floor(this.next() * 3);
    for (let i = 0; i < count; i++) parts.push(this.part(list, depth));
    return parts.join('');
  }

  private part(list: string | undefined, depth: number): string {
    const roll = this.next();
    if (depth >= 3 || roll < 0.3) return this.pick(WORDS);
    if (roll < 0.6) return this.value(list);
    if (roll < 0.8) {
      const block = this.next() < 0.7 ? 'if' : 'unless';
      const otherwise = this.next() < 0.5 ? `{{else}}${this.sequence(list, depth + 1)}` : '';
      return `{{#${block} ${this.condition(list)}}}${this.sequence(list, depth + 1)}${otherwise}{{/${block}}}`;
    }
    if (roll < 0.85) return '{{!-- note --}}';
    const inner = list && ITEM_LISTS[list] && this.next() < 0.5 ? this.pick(ITEM_LISTS[list]) : undefined;
    const over = inner ?? this.pick(TOP_LISTS);
    // The nested lists of elements hold strings, like inputs.tags: the same element paths apply.
    const scope = inner ? 'inputs.tags' : over;
    const otherwise = this.next() < 0.4 ? `{{else}}${this.sequence(list, depth + 1)}` : '';
    return `{{#each ${over}}}${this.sequence(scope, depth + 1)}${otherwise}{{/each}}`;
  }
}

/** `count` templates from the generator seeded with `seed`. */
export function generateTemplates(seed: number, count: number): string[] {
  const generator = new Generator(random(seed));
  return Array.from({ length: count }, () => generator.sequence(undefined, 0));
}
