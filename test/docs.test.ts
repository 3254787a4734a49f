/**
 * Keeps the README true: every configuration variable is documented with its default, the apps
 * and skills table equals what the registry loads, the simulators table equals simulators/, and
 * a variable documented as reserved is read by no code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../activities/registry/registry.js';
import { ConfigSchema, loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { staticSecrets } from '../lib/secrets.js';
import { APPS } from '../activities/apps/index.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The body rows of the Markdown table between `<!-- name:start -->` and `<!-- name:end -->`. */
function tableRows(name: string): string[][] {
  const block = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(readme)?.[1];
  if (block === undefined) throw new Error(`README has no ${name} table`);
  const rows = block
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  return rows.slice(2); // header and separator
}

/** Every .ts/.mjs source file under `dir` (tests excluded), relative to the repository. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mjs)$/.test(f) && !/\.test\.ts$|test-helpers\.ts$/.test(f))
    .map((f) => path.join(dir, f));
}

describe('README', () => {
  it('lists every configuration variable in the configuration table', () => {
    const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\|/gm)].map((m) => m[1]);
    for (const name of Object.keys(ConfigSchema.shape)) expect(documented, name).toContain(name);
  });

  it('states the two-command quick start', () => {
    expect(readme).toMatch(/```sh\nnpm start[^\n]*\nnpm test[^\n]*\n```/);
  });

  it('lists exactly the apps and skills the registry loads, with mode, anonymous access and policy', async () => {
    const registry = await loadRegistry(
      {
        config: loadConfig({ LOG_LEVEL: 'silent' }),
        logger: createLogger('silent'),
        secrets: staticSecrets({}),
      },
      APPS,
    );
    expect(registry.problems).toEqual([]);
    const loaded = registry.apps.flatMap((app) =>
      app.skills.map((s) => [
        `\`${app.id}\``,
        `\`${s.id}\``,
        s.capabilities.mode,
        s.anonymousAccess,
        `\`${s.policy}\``,
      ]),
    );
    const sort = (rows: string[][]) => rows.map((r) => r.join(' | ')).sort();
    expect(sort(tableRows('apps-and-skills'))).toEqual(sort(loaded));
    expect(loaded.length).toBeGreaterThan(0);
  });

  it('lists exactly the simulators under simulators/', () => {
    const dirs = readdirSync(path.join(ROOT, 'simulators'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `\`simulators/${d.name}\``)
      .sort();
    expect(
      tableRows('simulators')
        .map((r) => r[0])
        .sort(),
    ).toEqual(dirs);
  });

  it('calls a variable reserved only while no code outside lib/config.ts reads it', () => {
    const reserved = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\| [^|]*\| Reserved /gm)].map(
      (m) => m[1]!,
    );
    const files = ['activities', 'api', 'worker', 'workflows', 'simulators', 'scripts', 'cli', 'lib'].flatMap(
      sourceFiles,
    );
    for (const name of reserved) {
      const readers = files.filter(
        (f) => f !== path.join('lib', 'config.ts') && readFileSync(path.join(ROOT, f), 'utf8').includes(name),
      );
      expect(readers, name).toEqual([]);
    }
  });
});
