/**
 * Versioned icon URLs are cached for a year, so the sanitiser's rules are pinned to its
 * revision: a change to any of its modules fails this test until SVG_SANITISER_REVISION is raised
 * and the pinned digest below is updated with it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SVG_SANITISER_REVISION } from './svg.js';

const MODULES = ['svg.ts', 'svg-css.ts', 'svg-shape.ts', 'svg-smil.ts'];
const PINNED: Record<number, string> = { 1: '860fa63132cb265e' };

describe('the SVG sanitiser revision', () => {
  it('names the rules as they are', () => {
    const hash = createHash('sha256');
    for (const m of MODULES) hash.update(readFileSync(new URL(m, import.meta.url)));
    expect(hash.digest('hex').slice(0, 16)).toBe(PINNED[SVG_SANITISER_REVISION]);
  });
});
