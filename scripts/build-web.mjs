#!/usr/bin/env node
// Builds the web workspace (web/ → web/dist) when the build is missing or its sources changed.
// "Changed" is a content hash of web/index.html, web/vite.config.ts, web/src/**, the SDK's
// generated types (which the pages import) and the example definition the editor starts from,
// written to web/dist/.source-hash, so a fresh clone, `npm start` and `npm test` build once and
// reuse the build afterwards.
// Used by scripts/start.mjs and test/global-setup.ts; `npm run web:build` always rebuilds.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'web');
const dist = path.join(web, 'dist');
const stamp = path.join(dist, '.source-hash');

function sourceFiles() {
  const out = [
    path.join(web, 'index.html'),
    path.join(web, 'vite.config.ts'),
    path.join(web, 'tsconfig.json'),
    path.join(root, 'sdk', 'generated.ts'),
    // Bundled as text: the new-workflow editor starts from it.
    path.join(root, 'definitions', 'examples', 'domain-ideas.yaml'),
  ];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(path.join(web, 'src'));
  return out;
}

/** The hash of everything the bundle is built from. */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) {
    hash.update(path.relative(root, file)).update('\0');
    hash.update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** True when web/dist holds a build of the current sources. */
export function isBuildCurrent() {
  return (
    existsSync(path.join(dist, 'index.html')) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === sourceHash()
  );
}

/**
 * Builds web/dist unless it is current (or always, with `force`). Resolves to `'built'` or
 * `'current'`. Needs Vite (a devDependency): without it an existing build is kept as it is.
 */
export async function ensureWebBuild({ force = false, log = (m) => console.error(m) } = {}) {
  if (!force && isBuildCurrent()) return 'current';
  let vite;
  try {
    vite = await import('vite');
  } catch {
    if (existsSync(path.join(dist, 'index.html'))) return 'current';
    throw new Error('Vite is not installed (a devDependency), so the web workspace cannot be built.');
  }
  const hash = sourceHash();
  const started = Date.now();
  await vite.build({ configFile: path.join(web, 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(stamp, hash + '\n');
  log(`skillflow: built the web workspace into web/dist in ${Date.now() - started} ms`);
  return 'built';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  ensureWebBuild({ force: process.argv.includes('--force') }).catch((error) => {
    console.error(`skillflow: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
