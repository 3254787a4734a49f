/**
 * Sources that fill the 64 KiB limit, for the compiler's time and memory budget: a valid
 * definition grown to 200 steps or to long templates, and the worst shapes of invalid text
 * (duplicate keys, alias bombs, deep nesting, unclosed mustaches, thousands of diagnostics).
 */
import fc from 'fast-check';
import { LIMITS } from '../limits.js';
import { toSource, type DefinitionData } from './definition-arbitraries.js';
import { MARKER } from './schema-arbitrary.js';

/** How a source is grown towards the limit. */
export type Growth =
  | 'steps'
  | 'template'
  | 'duplicateKeys'
  | 'aliasBomb'
  | 'deepNesting'
  | 'mustaches'
  | 'unknownFields'
  | 'flowJson'
  | 'references';

/** A growth's size, as a share of the limit (0.5-1), and the source format. */
export const growth = fc.record({
  share: fc.integer({ min: 50, max: 100 }).map((n) => n / 100),
  format: fc.constantFrom('yaml' as const, 'json' as const),
});

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** Repeats `unit(i)` after `head` while the text stays within `budget` bytes. */
function fill(
  head: string,
  unit: (i: number) => string,
  tail: string,
  budget: number,
  max = Infinity,
): string {
  let out = head;
  let size = bytes(head) + bytes(tail);
  for (let i = 0; i < max; i++) {
    const next = unit(i);
    const n = bytes(next);
    if (size + n > budget) break;
    out += next;
    size += n;
  }
  return out + tail;
}

const CHAT = (i: number, message: string) => ({ id: `s${i}`, send_chat_message: { title: MARKER, message } });

/** Appends chat steps with `message` to the definition while it stays within `budget` bytes. */
function withChats(data: DefinitionData, message: string, format: 'yaml' | 'json', budget: number): string {
  const steps = (data.steps as unknown[]) ?? [];
  const extra: unknown[] = [];
  const write = (more: unknown[]) => toSource({ ...data, steps: [...steps, ...more] }, format);
  while (bytes(write([...extra, CHAT(extra.length, message)])) <= budget)
    extra.push(CHAT(extra.length, message));
  return write(extra);
}

/** Grows `data` (a generated definition) to `share` of the source limit, in the given way. */
export function growSource(
  data: DefinitionData,
  kind: Growth,
  share: number,
  format: 'yaml' | 'json',
): string {
  const budget = Math.floor(LIMITS.maxSourceBytes * share);
  const base = toSource(data, format);
  const steps = (data.steps as unknown[]) ?? [];
  switch (kind) {
    case 'steps': {
      const copy = (n: number) =>
        Array.from({ length: n }, (_, i) => {
          const step = structuredClone(steps[i % steps.length]) as Record<string, unknown>;
          step.id = `${String(step.id)}_${i}`;
          return step;
        });
      const perStep = Math.max(1, bytes(base) / Math.max(1, steps.length));
      let n = Math.min(LIMITS.maxSteps, Math.max(1, Math.floor(budget / perStep)));
      let source = toSource({ ...data, steps: copy(n) }, format);
      while (n > 1 && bytes(source) > budget) {
        n = Math.max(1, Math.floor(n * 0.9));
        source = toSource({ ...data, steps: copy(n) }, format);
      }
      return source;
    }
    case 'template': {
      const first = steps[0] as { id: string } | undefined;
      const ref = first ? `steps.${first.id}` : 'steps.missing';
      const unit = `{{#each ${ref}.results}}{{#if this}}{{json this}}{{else}}{{len ${ref}}}{{/if}}{{/each}}${MARKER}`;
      const message = unit.repeat(Math.floor(LIMITS.maxTemplateChars / unit.length));
      return withChats(data, message, format, budget);
    }
    case 'references': {
      const ids = steps.map((s) => (s as { id: string }).id);
      const unit = (i: number) => `{{steps.${ids[i % ids.length] ?? MARKER}.${MARKER}${i}}}`;
      const message = fill('', unit, '', Math.min(budget - bytes(base) - 200, LIMITS.maxTemplateChars));
      return toSource({ ...data, steps: [...steps, CHAT(999, message)] }, format);
    }
    case 'duplicateKeys':
      return format === 'json'
        ? fill('{', (i) => `"title": "${MARKER}${i}",`, '"steps": []}', budget)
        : fill(base, (i) => `title: ${MARKER}${i}\n`, '', budget);
    case 'aliasBomb':
      return format === 'json'
        ? fill('{"steps": [', () => `{"id": "${MARKER}", "if": "$nodes.${MARKER}.output.x"},`, '{}]}', budget)
        : fill(
            `a0: &a0 [${MARKER}, ${MARKER}]\n`,
            (i) => `a${i + 1}: &a${i + 1} [*a${i}, *a${i}, *a${i}, *a${i}]\n`,
            base,
            budget,
          );
    case 'deepNesting': {
      const depth = LIMITS.maxDepth - 2;
      const nested =
        format === 'json'
          ? `${'['.repeat(depth)}1${']'.repeat(depth)},`
          : `- ${'['.repeat(depth)}1${']'.repeat(depth)}\n`;
      return format === 'json'
        ? fill('{"title": "t", "x": [', () => nested, '1]}', budget)
        : fill(`${base}\nx:\n`, () => nested, '', budget);
    }
    case 'mustaches': {
      const message = fill('', (i) => (i % 2 ? '{{' : `{{#if ${MARKER}}}`), '', LIMITS.maxTemplateChars - 10);
      return withChats(data, message, format, budget);
    }
    case 'unknownFields':
      return format === 'json'
        ? fill('{"steps": [', (i) => `{"${MARKER}${i}": ${i}, "id": 1},`, '{}]}', budget)
        : fill('steps:\n', (i) => `  - { ${MARKER}${i}: ${i}, id: 1, timeout: ${MARKER} }\n`, '', budget);
    case 'flowJson':
      return fill(
        '{"title": "t", "start_when": {"manual": {}}, "steps": [',
        (i) =>
          `{"id": "s${i}", "send_chat_message": {"title": "${MARKER}", "message": "{{inputs.${MARKER}}}"}},`,
        '{}]}',
        budget,
      );
  }
}
