/** Keeps the README true: every configuration variable is documented with its default. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../lib/config.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every configuration variable in the configuration table', () => {
    const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\|/gm)].map((m) => m[1]);
    for (const name of Object.keys(ConfigSchema.shape)) expect(documented, name).toContain(name);
  });

  it('states the two-command quick start', () => {
    expect(readme).toMatch(/```sh\nnpm start[^\n]*\nnpm test[^\n]*\n```/);
  });
});
