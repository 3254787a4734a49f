import { describe, expect, it } from 'vitest';
import { licenseAllowed } from './licenses.js';
import { createOfflineProvider, OFFLINE_SETS, offlineIndex } from './offline.js';

describe('license filter on the real offline sets', () => {
  const idx = offlineIndex();
  it.each([
    ['lucide', 'ISC', true],
    ['tabler', 'MIT', true],
    ['mdi', 'Apache-2.0', true],
    ['system-uicons', 'Unlicense', true],
    ['simple-icons', 'CC0-1.0', true],
    ['rivet-icons', 'BSD-3-Clause', true],
    ['mdi-light', 'OFL-1.1', true],
    ['typcn', 'CC-BY-SA-4.0', false],
    ['gridicons', 'GPL-2.0-only', false],
  ])('%s declares %s; permissive shows it: %s; all shows it', (prefix, spdx, permissive) => {
    const declared = idx.collections[prefix]?.license?.spdx;
    expect(declared).toBe(spdx);
    expect(licenseAllowed(declared, 'permissive')).toBe(permissive);
    expect(licenseAllowed(declared, 'all')).toBe(true);
  });

  it('covers every shipped set', () => {
    expect(Object.keys(idx.collections).sort()).toEqual([...OFFLINE_SETS].sort());
  });

  it.each([
    ['mit', true],
    ['BSD-2-Clause', true],
    ['0BSD', true],
    ['CC0', true],
    ['cc0-1.0', true],
    ['CC-BY-4.0', false],
    ['MPL-2.0', false],
    ['', false],
    [undefined, false],
  ])('SPDX %s compares case-insensitively: %s', (spdx, allowed) => {
    expect(licenseAllowed(spdx, 'permissive')).toBe(allowed);
  });

  it('ranks exact names, then prefixes, then contains', async () => {
    const provider = createOfflineProvider(idx);
    const { icons } = await provider.search(
      { query: 'bell', limit: 4, prefixes: ['lucide'] },
      {
        signal: new AbortController().signal,
      },
    );
    expect(icons.map((i) => i.name)).toEqual(['bell', 'bell-dot', 'bell-off', 'bell-plus']);
  });
});
