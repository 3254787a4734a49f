/** The README's workspace screenshots exist and are the ones a browser test takes. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';

const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
const shown = [...readme.matchAll(/\]\(docs\/screenshots\/([a-z0-9-]+)\.png\)/g)].map((m) => m[1]!);
const testDir = path.join(PROJECT_ROOT, 'test/web');
const taken = new Set(
  readdirSync(testDir)
    .filter((f) => f.endsWith('-browser.test.ts'))
    .flatMap((f) => [
      ...readFileSync(path.join(testDir, f), 'utf8').matchAll(/screenshot\([^,]+,\s*'([a-z0-9-]+)'\)/g),
    ])
    .map((m) => m[1]!),
);

describe('README screenshots', () => {
  it('shows twelve, each committed and each taken by a browser test', () => {
    expect(shown).toHaveLength(12);
    for (const name of shown) {
      expect(existsSync(path.join(PROJECT_ROOT, 'docs/screenshots', `${name}.png`)), name).toBe(true);
      expect(taken.has(name), name).toBe(true);
    }
  });
});
