/**
 * Restricted option values a compiled plan writes literally: found at any depth (loops, parallel
 * groups, error handlers) in each request item, never for a value that comes from a reference.
 */
import { describe, expect, it } from 'vitest';
import { planOf, withSteps } from '../testing/compile.js';
import { literalOptionUses, type OptionRule } from './option-uses.js';

const RULES: Record<string, OptionRule[]> = {
  'design.search_icons': [{ field: 'license_policy', value: 'all', scope: 'icons:all-licenses' }],
};
const rulesOf = (ref: string) => RULES[ref] ?? [];

const icons = (id: string, items: string, indent = '  ') =>
  [`- id: ${id}`, '  use_app_skill: design.search_icons', '  input:', `    requests: ${items}`]
    .map((line) => indent + line)
    .join('\n') + '\n';

describe('literalOptionUses', () => {
  it('finds each literal use by step and item, and ignores other values and references', () => {
    const plan = planOf(
      withSteps(
        icons('a', '[{ query: home }, { query: x, license_policy: all }]') +
          icons('b', '[{ query: home, license_policy: permissive }]') +
          icons('c', '[{ query: home, license_policy: "{{inputs.p}}" }]') +
          icons('d', '"{{inputs.list}}"'),
        '  manual:\n    inputs:\n      p: { type: string }\n      list: { type: array }',
      ),
    );
    expect(literalOptionUses([plan], rulesOf)).toEqual([
      { step: 'a', path: 'requests[1].license_policy', scope: 'icons:all-licenses' },
    ]);
  });

  it('finds uses inside loops, parallel groups and error handlers, and in a second plan', () => {
    const nested = planOf(
      withSteps(
        [
          '  - id: each',
          '    for_each:',
          '      items: [1, 2]',
          '      steps:',
          icons('inner', '[{ query: home, license_policy: all }]', '        ').trimEnd(),
          '  - id: both',
          '    parallel:',
          '      steps:',
          icons('left', '[{ query: home }]', '        ').trimEnd(),
          icons(
            'right',
            '[{ query: a }, { query: b }, { query: c, license_policy: all }]',
            '        ',
          ).trimEnd(),
          icons('guarded', '[{ query: home }]').trimEnd(),
          '    on_error:',
          icons('fallback', '[{ query: home, license_policy: all }]', '      ').trimEnd(),
          '',
        ].join('\n'),
      ),
    );
    const plain = planOf(withSteps(icons('only', '[{ query: home }]')));
    expect(literalOptionUses([plain, nested], rulesOf)).toEqual([
      { step: 'inner', path: 'requests[0].license_policy', scope: 'icons:all-licenses' },
      { step: 'right', path: 'requests[2].license_policy', scope: 'icons:all-licenses' },
      { step: 'fallback', path: 'requests[0].license_policy', scope: 'icons:all-licenses' },
    ]);
    expect(literalOptionUses([nested], () => [])).toEqual([]);
  });
});
