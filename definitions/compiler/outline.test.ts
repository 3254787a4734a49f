/** The outline the compiler returns with every result: step ids, lines and output fields. */
import { describe, expect, it } from 'vitest';
import { compileForTest } from '../testing/compile.js';

const SOURCE = [
  'title: Outline',
  'start_when:',
  '  manual: {}',
  'steps:',
  '  - id: charge',
  '    use_app_skill: billing.charge_card',
  '    input: {}',
  '  - id: each',
  '    for_each:',
  '      items: [1, 2]',
  '      steps:',
  '        - id: pause',
  '          wait:',
  '            duration: 1s',
  '  - id: notify',
  '    send_chat_message:',
  '      title: Done',
  "      message: '{{steps.charge.charge_id}}'",
].join('\n');

describe('outline', () => {
  it('lists every step in source order, inner steps included, with its line and output fields', () => {
    const result = compileForTest(SOURCE);
    expect(result.outline.steps.map((s) => [s.id, s.line])).toEqual([
      ['charge', 5],
      ['each', 8],
      ['pause', 12],
      ['notify', 15],
    ]);
    expect(result.outline.steps[0]!.fields).toEqual([
      { name: 'charge_id', type: 'string' },
      { name: 'meta', type: 'record' },
    ]);
    expect(result.outline.steps[2]!.fields.map((f) => f.name)).toEqual(['until', 'waited_ms']);
    expect(result.outline.steps[3]!.fields).toEqual([]);
  });

  it('is kept for a definition with problems, and empty when the text does not parse', () => {
    const broken = compileForTest(SOURCE.replace("'{{steps.charge.charge_id}}'", "'{{steps.charge.nope}}'"));
    expect(broken.ok).toBe(false);
    expect(broken.outline.steps.map((s) => s.id)).toEqual(['charge', 'each', 'pause', 'notify']);
    const unparsable = compileForTest(`${SOURCE}\n  - id: [`);
    expect(unparsable.ok).toBe(false);
    expect(unparsable.outline).toEqual({ steps: [] });
  });
});
