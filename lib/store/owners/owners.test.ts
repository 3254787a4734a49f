/**
 * One owner per table (lib/store/owners/README.md): the map names every table of the schema
 * once, each query-builder call on a table sits in that table's owner, and no module outside
 * the owners (and the generic re-encryption command) reaches the store's query builder or seals.
 * The lint rule covers imports; this covers calls through an injected store (`deps.store.db`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const ownersDir = 'lib/store/owners';
const SOURCE_DIRS = [
  'activities',
  'api',
  'bench',
  'definitions',
  'lib',
  'scripts',
  'simulators',
  'worker',
  'workflows',
];
/** Outside the owners on purpose: see the README. */
const GENERIC = new Set(['lib/store/reencrypt.ts', 'lib/store/db.ts', 'lib/crypto/sealed-value.ts']);

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('lib/store/migrations/'));
}

const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

/** table → owner file, from the README table. */
function ownerMap(): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of read(`${ownersDir}/README.md`).split('\n')) {
    const m = /^\| ((?:`\w+`(?:, )?)+)\s*\| `([\w-]+\.ts)`/.exec(line);
    if (!m) continue;
    for (const t of m[1]!.matchAll(/`(\w+)`/g)) map.set(t[1]!, `${ownersDir}/${m[2]}`);
  }
  return map;
}

describe('table owners', () => {
  const map = ownerMap();
  const files = SOURCE_DIRS.flatMap(sources);

  it('the map names every table of the schema, and only those, with an existing owner', () => {
    const schema = read('lib/store/schema.ts');
    const db = schema.slice(schema.indexOf('export interface Database {'));
    const tables = [...db.matchAll(/^\s+(\w+): \w+Table;$/gm)].map((m) => m[1]!).sort();
    expect(tables.length).toBeGreaterThanOrEqual(12);
    expect([...map.keys()].sort()).toEqual(tables);
    for (const owner of new Set(map.values())) expect(files).toContain(owner);
  });

  it("every query-builder call on a table is in that table's owner", () => {
    const misplaced: string[] = [];
    let calls = 0;
    for (const f of files) {
      for (const m of read(f).matchAll(/\.(?:selectFrom|insertInto|updateTable|deleteFrom)\(\s*'(\w+)'/g)) {
        calls += 1;
        if (map.get(m[1]!) !== f) misplaced.push(`${f}: ${m[0]}`);
      }
    }
    expect(calls).toBeGreaterThan(20);
    expect(misplaced).toEqual([]);
  });

  it('only owners run SQL, open a transaction or seal', () => {
    const owners = new Set(map.values());
    const offenders = files.filter(
      (f) =>
        !owners.has(f) &&
        !GENERIC.has(f) &&
        /\.db\b|\bsql`|\.transaction\(|\b(?:sealJson|openJson|openLegacyJson)\(/.test(read(f)),
    );
    expect(offenders).toEqual([]);
  });
});
