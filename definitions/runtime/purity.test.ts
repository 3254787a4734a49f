import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The interpreter workflow imports this folder, so it must stay deterministic: local imports
 * only, and no clock, randomness, dynamic code or host access.
 */
const dir = new URL('./', import.meta.url);
const sources = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => ({ file: f, text: readFileSync(new URL(f, dir), 'utf8') }));

describe('definitions/runtime purity', () => {
  it('has modules to check', () => {
    expect(sources.map((s) => s.file)).toContain('render-template.ts');
  });

  it.each(sources)('$file imports only sibling modules', ({ text }) => {
    const specifiers = [...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
    expect(specifiers.filter((s) => !s?.startsWith('./'))).toEqual([]);
  });

  it.each(sources)('$file uses no clock, randomness, eval or host globals', ({ text }) => {
    const banned =
      /\b(Date|Math\.random|crypto|eval|Function|process|require|setTimeout|setInterval|globalThis|performance)\b/;
    const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(banned.exec(code)?.[0]).toBeUndefined();
  });
});
