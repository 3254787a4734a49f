/**
 * The YAML editor's pure logic: what can be completed at a cursor position, which skill name is
 * under the pointer, and where a diagnostic is underlined.
 */
import { describe, expect, it } from 'vitest';
import {
  completionContext,
  skillAt,
  STEP_KEYS,
  stepIdsOf,
  TOP_KEYS,
} from '../../web/src/workflow/completion-context.js';
import { spanOf } from '../../web/src/workflow/lint.js';
import type { Diagnostic } from '../../web/src/workflow/diagnostics.js';

/** The context at the `|` of `text` (the bar removed). */
function at(text: string) {
  const pos = text.indexOf('|');
  return completionContext(text.slice(0, pos) + text.slice(pos + 1), pos);
}

const DOC = [
  'title: Ideas',
  'start_when:',
  '  manual: {}',
  'steps:',
  '  - id: search',
  '    use_app_skill: hosting.search_domains',
  '  - id: pause',
  '    wait:',
  '      duration: 1s',
  '  - id: notify',
  '    send_chat_message:',
  '      title: Domains',
].join('\n');

describe('completion at the cursor', () => {
  it('offers the top-level keys at the start of a line', () => {
    expect(at('ti|')).toEqual({ kind: 'key', from: 0, keys: TOP_KEYS });
    expect(at(`${DOC}\nou|`)).toEqual({ kind: 'key', from: DOC.length + 1, keys: TOP_KEYS });
  });

  it('offers step keys in a new list item and beside a step key', () => {
    expect(at(`${DOC}\n  - |`)).toMatchObject({ kind: 'key', keys: STEP_KEYS });
    expect(at(`${DOC.split('\n').slice(0, 5).join('\n')}\n    us|`)).toMatchObject({
      kind: 'key',
      keys: STEP_KEYS,
    });
  });

  it("offers a construct's own keys inside it", () => {
    expect(at(`${DOC}\n      me|`)).toMatchObject({ kind: 'key', keys: ['title', 'message', 'chat_id'] });
    expect(at('start_when:\n  |')).toMatchObject({
      kind: 'key',
      keys: ['manual', 'schedule', 'event', 'webhook'],
    });
    const wait = DOC.split('\n').slice(0, 8).join('\n');
    expect(at(`${wait}\n      |`)).toMatchObject({ kind: 'key', keys: ['duration', 'until'] });
  });

  it('offers nothing inside a value or in a skill input', () => {
    expect(at('title: Ide|as')).toBeUndefined();
    expect(at('steps:\n  - id: a\n    input:\n      |')).toBeUndefined();
  });

  it('offers skill names after use_app_skill', () => {
    expect(at('  - use_app_skill: hosting.se|')).toEqual({ kind: 'skill', from: 19 });
    expect(at("    use_app_skill: '|")).toEqual({ kind: 'skill', from: 20 });
  });

  it('offers the ids of the steps before the current one after {{steps.', () => {
    const text = `${DOC}\n      message: '{{steps.|`;
    expect(at(text)).toEqual({ kind: 'step', from: text.indexOf('|'), earlier: ['search', 'pause'] });
    // In the second step, only the first is earlier.
    const second = DOC.replace('duration: 1s', 'until: "{{steps.se|"');
    expect(at(second)).toMatchObject({ kind: 'step', earlier: ['search'] });
    // In the first step, none.
    expect(at(DOC.replace('hosting.search_domains', '{{steps.|}}'))).toMatchObject({ earlier: [] });
  });

  it("offers a step's fields after {{steps.<id>.", () => {
    const text = `${DOC}\n      message: '{{ steps.search.res|`;
    expect(at(text)).toEqual({ kind: 'field', from: text.indexOf('|') - 3, step: 'search' });
  });

  it('offers earlier step ids and their fields in a condition', () => {
    const text = `${DOC}\n    if: $nodes.|`;
    expect(at(text)).toEqual({ kind: 'step', from: text.indexOf('|'), earlier: ['search', 'pause'] });
    const field = `${DOC}\n    if: $nodes.search.output.re| == 0`;
    expect(at(field)).toEqual({ kind: 'field', from: field.indexOf('|') - 2, step: 'search' });
  });

  it('lists the step ids with their lines', () => {
    expect(stepIdsOf(DOC)).toEqual([
      { id: 'search', line: 5 },
      { id: 'pause', line: 7 },
      { id: 'notify', line: 10 },
    ]);
  });
});

describe('the skill name under the pointer', () => {
  it('is the whole app.skill name on a use_app_skill line', () => {
    const from = DOC.indexOf('hosting.search_domains');
    expect(skillAt(DOC, from + 3)).toEqual({ name: 'hosting.search_domains', from, to: from + 22 });
    expect(skillAt(DOC, from + 22)).toEqual({ name: 'hosting.search_domains', from, to: from + 22 });
    expect(skillAt(DOC, from - 3)).toBeUndefined();
    expect(skillAt(DOC, DOC.indexOf('Domains'))).toBeUndefined();
  });
});

describe('underlined diagnostics', () => {
  const d = (line: number, column: number): Diagnostic => ({
    code: 'UNKNOWN_SKILL',
    message: 'm',
    path: '',
    line,
    column,
  });

  it('underlines the word at the line and column', () => {
    const from = DOC.indexOf('hosting.search_domains');
    expect(spanOf(DOC, d(6, 20))).toEqual({ from, to: from + 'hosting.search_domains'.length });
  });

  it('underlines the last character when the column is past the end of the line', () => {
    const end = DOC.indexOf('\n', DOC.indexOf('start_when'));
    expect(spanOf(DOC, d(2, 99))).toEqual({ from: end - 1, to: end });
    expect(spanOf('', d(1, 1))).toEqual({ from: 0, to: 0 });
  });
});
