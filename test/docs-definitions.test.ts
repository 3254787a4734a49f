/**
 * Every whole definition the README and docs/ show (a ```yaml block that starts with `title:`)
 * compiles against this checkout's skill catalogue without a diagnostic: a documented example
 * is one a user can save as it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLocalCatalog } from '../cli/live-catalog.js';
import { compileDefinition } from '../definitions/index.js';
import { PROJECT_ROOT } from '../lib/config.js';

const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const examples = DOCUMENTS.flatMap((doc) => {
  const lines = readFileSync(path.join(PROJECT_ROOT, doc), 'utf8').split('\n');
  const found: { where: string; source: string }[] = [];
  lines.forEach((l, i) => {
    if (l !== '```yaml' || !lines[i + 1]?.startsWith('title:')) return;
    const end = lines.findIndex((e, j) => j > i && e === '```');
    found.push({ where: `${doc}:${i + 1}`, source: lines.slice(i + 1, end).join('\n') });
  });
  return found;
});

describe('the definitions the docs show', () => {
  it('finds them (a changed fence would drop them silently)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples)('$where compiles', async ({ source }) => {
    const result = compileDefinition(source, { catalog: await loadLocalCatalog(), format: 'yaml' });
    expect(result.ok ? [] : result.diagnostics).toEqual([]);
  });
});
