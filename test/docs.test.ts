/**
 * Keeps the docs true: the configuration reference lists exactly the variables of the code with
 * their defaults, the README's apps and skills table equals what the registry loads, the simulators table equals simulators/, and
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
const configuration = readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');

/** The body rows of the Markdown table between `<!-- name:start -->` and `<!-- name:end -->`. */
function tableRows(name: string, doc = readme): string[][] {
  const block = new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)<!-- ${name}:end -->`).exec(doc)?.[1];
  if (block === undefined) throw new Error(`the document has no ${name} table`);
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

/**
 * How docs/configuration.md shows a default the code applies: a literal in backticks (a list as
 * its comma-separated entries), or, for a variable without one, `unset`, `empty`, or what takes
 * its place at start (the words below).
 */
const UNSET_DEFAULTS = new Set([
  'unset',
  'empty',
  'simulator',
  'generated in dev',
  'dev server UI',
  '`http://HOST:PORT`',
]);
function shownDefault(value: unknown): string | undefined {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  const text = Array.isArray(value)
    ? value.join(',')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : `${value as string | number | boolean}`;
  return `\`${text}\``;
}

describe('docs/configuration.md', () => {
  const rows = tableRows('configuration', configuration);
  const defaults = ConfigSchema.parse({}) as Record<string, unknown>;

  it('lists exactly the variables the code reads, once each', () => {
    const documented = rows.map((r) => r[0]!.replace(/`/g, ''));
    expect([...documented].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('shows the default the code applies for each variable', () => {
    for (const [cell, shown] of rows) {
      const name = cell!.replace(/`/g, '');
      const code = shownDefault(defaults[name]);
      if (code === undefined) expect(UNSET_DEFAULTS, name).toContain(shown);
      else expect(shown, name).toBe(code);
    }
  });
});

describe('defaults stated outside the configuration reference', () => {
  const defaults = ConfigSchema.parse({}) as Record<string, unknown>;
  const docs = [
    'README.md',
    ...readdirSync(path.join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'configuration.md')
      .map((f) => `docs/${f}`),
  ];

  it('are the defaults the code applies', () => {
    let checked = 0;
    for (const doc of docs) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      // "`VARIABLE`, default `value`", "`VARIABLE` (default `value`)", line breaks allowed.
      for (const m of text.matchAll(/`([A-Z][A-Z0-9_]{3,})`[^`.]{0,40}?\bdefault\s+`([^`]+)`/g)) {
        const [, name, shown] = m;
        if (!Object.hasOwn(ConfigSchema.shape, name!)) continue;
        checked += 1;
        expect(`\`${shown}\``, `${doc}: ${name}`).toBe(shownDefault(defaults[name!]));
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('README', () => {
  it('points to the configuration reference', () => {
    expect(readme).toContain('[docs/configuration.md](docs/configuration.md)');
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
    const reserved = [...configuration.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\| [^|]*\| Reserved /gm)].map(
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
