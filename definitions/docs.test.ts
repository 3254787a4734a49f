import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from './diagnostics.js';

const doc = readFileSync(new URL('../docs/workflow-language.md', import.meta.url), 'utf8');
const documented = new Set([...doc.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => m[1]));

describe('docs/workflow-language.md', () => {
  it.each(Object.keys(DIAGNOSTIC_CODES))('documents %s in the code table', (code) => {
    expect(documented.has(code)).toBe(true);
  });

  it('documents no code the compiler does not have', () => {
    expect([...documented].filter((code) => code && !Object.hasOwn(DIAGNOSTIC_CODES, code))).toEqual([]);
  });
});
