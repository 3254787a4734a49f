/**
 * Compiles the CLI (cli/main.ts and the project modules it imports) to JavaScript under dist/,
 * so `npx skillflow` starts without transpiling TypeScript. Commands load what they need when
 * they run (code splitting: one chunk per dynamic import). Packages stay in node_modules.
 * bin/skillflow.js runs this when the build is missing or older than any of its inputs (its
 * sources, this script and package-lock.json).
 * The files sit directly in dist/, one level below the project root as the sources are, so a
 * module that finds the root from its own location (`import.meta.dirname/..`) finds it there too.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
export const CLI_BUILD = path.join(DIST, 'skillflow-cli.mjs');
export const CLI_INPUTS = path.join(DIST, 'skillflow-cli.inputs.json');
/** Chunks of a replaced build are kept this long: a CLI started from it may still load one. */
const OLD_CHUNK_MS = 24 * 60 * 60_000;

export async function buildCli() {
  const { build } = await import('esbuild');
  // A source saved while the build runs is newer than this, so the next start builds again.
  const startedAt = new Date();
  // Built beside, then swapped in: a CLI started meanwhile never loads half a build.
  const staging = path.join(DIST, `.cli-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  try {
    const result = await build({
      absWorkingDir: ROOT,
      entryPoints: { 'skillflow-cli': 'cli/main.ts' },
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'skillflow-cli-[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      metafile: true,
      logLevel: 'warning',
    });
    const sources = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
    const inputs = [...sources, 'scripts/build-cli.mjs', 'package-lock.json'];
    writeFileSync(path.join(staging, path.basename(CLI_INPUTS)), JSON.stringify(inputs));
    const files = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
    const entry = path.basename(CLI_BUILD);
    // Chunks first (their names carry a content hash), then the inputs list, the entry last; each
    // stamped with the build's start.
    for (const file of [...files.filter((f) => f !== entry), path.basename(CLI_INPUTS), entry]) {
      utimesSync(path.join(staging, file), startedAt, startedAt);
      renameSync(path.join(staging, file), path.join(DIST, file));
    }
    const kept = new Set(files);
    for (const file of readdirSync(DIST)) {
      const full = path.join(DIST, file);
      if (
        /^skillflow-cli-.+\.mjs$/.test(file) &&
        !kept.has(file) &&
        Date.now() - statSync(full).mtimeMs > OLD_CHUNK_MS
      )
        rmSync(full, { force: true });
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) await buildCli();
