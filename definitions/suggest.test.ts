import { describe, expect, it } from 'vitest';
import { KNOWN_SKILLS } from '../sdk/generated.js';
import { boundedDistance, suggestNames } from './suggest.js';

const SKILLS = KNOWN_SKILLS;

describe('did you mean', () => {
  it('measures edit distance with swaps, and gives up past the allowance', () => {
    expect(boundedDistance('search', 'search', 2)).toBe(0);
    expect(boundedDistance('serach', 'search', 2)).toBe(1);
    expect(boundedDistance('serch', 'search', 2)).toBe(1);
    expect(boundedDistance('kitten', 'sitting', 3)).toBe(3);
    expect(boundedDistance('kitten', 'sitting', 2)).toBeUndefined();
    expect(boundedDistance('a', 'abcdef', 3)).toBeUndefined();
  });

  it('suggests the closest skills: a typo, a missing app, other case and hyphens', () => {
    expect(suggestNames('hosting.search_domain', SKILLS)).toEqual(['hosting.search_domains']);
    expect(suggestNames('search_domains', SKILLS)).toEqual(['hosting.search_domains']);
    expect(suggestNames('Hosting.Search-Domains', SKILLS)).toEqual(['hosting.search_domains']);
    expect(suggestNames('electronics.search_power_design', SKILLS)).toEqual([
      'electronics.search_power_designs',
    ]);
    expect(suggestNames('weather.forecast', SKILLS)).toEqual([]);
  });

  it('suggests step ids closest first, at most three, and none for an overlong name', () => {
    expect(suggestNames('serch', ['search', 'notify', 'seek', 'sarch'])).toEqual(['sarch', 'search']);
    expect(suggestNames('step', ['step1', 'step2', 'step3', 'step4'])).toEqual(['step1', 'step2', 'step3']);
    expect(suggestNames('x'.repeat(129), ['x'.repeat(129)])).toEqual([]);
  });
});
