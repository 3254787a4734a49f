import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WARNING_CODES } from './warnings.js';

describe('warning codes', () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
  const documented = [...readme.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gmu)].map((m) => m[1]);

  it('are SCREAMING_SNAKE and listed in the README, and the README lists no others', () => {
    for (const code of WARNING_CODES) expect(code).toMatch(/^[A-Z]+(?:_[A-Z]+)*$/u);
    expect([...documented].sort()).toEqual([...WARNING_CODES].sort());
  });
});
