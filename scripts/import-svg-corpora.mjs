#!/usr/bin/env node
// Rebuilds the SVG sanitiser's public test corpora under test/fixtures/svg/ from local git
// checkouts of their sources (test/fixtures/svg/README.md names them, their licences and the
// commits the files were taken from):
//
//   node scripts/import-svg-corpora.mjs <DOMPurify dir> <H5SC dir> <iconify icon-sets dir>
//
// Each input is read at the checkout's HEAD with `git show`, so a bare mirror works too. The
// output is plain JSON data (no code), written with stable key order so a re-import diffs cleanly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/svg');
/** line-md icons kept besides the ones that add an (element, attributeName) pair: every Nth. */
const LINE_MD_STRIDE = 12;

const git = (dir, ...args) =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const head = (dir) => git(dir, 'rev-parse', 'HEAD').trim();
const show = (dir, file) => git(dir, 'show', `HEAD:${file}`);
const write = (name, data) => writeFileSync(path.join(OUT, name), JSON.stringify(data, null, 1) + '\n');

/** DOMPurify's expectation fixtures: the payloads (the expected outputs are for its defaults, not ours). */
async function dompurify(dir, scratch) {
  const file = path.join(scratch, 'expect.mjs');
  writeFileSync(file, show(dir, 'test/fixtures/expect.mjs'));
  const cases = (await import(pathToFileURL(file).href)).default;
  return {
    source: 'cure53/DOMPurify test/fixtures/expect.mjs',
    commit: head(dir),
    license: 'Apache-2.0 OR MPL-2.0',
    vectors: cases.map((c, i) => ({ id: i + 1, title: c.title, payload: c.payload })),
  };
}

/** The HTML5 Security Cheatsheet items, with the `%name%` payload templates filled in as the site does. */
function h5sc(dir, scratch) {
  for (const f of ['items.js', 'payloads.js']) writeFileSync(path.join(scratch, f), show(dir, f));
  const require = createRequire(path.join(scratch, 'x.js'));
  const items = require('./items.js');
  const payloads = require('./payloads.js');
  const names = Object.keys(payloads).sort((a, b) => b.length - a.length);
  const template = new RegExp(`%(${names.join('|')})%`, 'g');
  return {
    source: 'cure53/H5SC items.js (templates filled from payloads.js)',
    commit: head(dir),
    license: 'MPL-2.0',
    vectors: items.map((it) => ({
      id: it.id,
      category: it.category,
      title: it.name.en,
      payload: it.data.replace(template, (_, k) => payloads[k]),
    })),
  };
}

/** Every svg-spinners icon, and the line-md icons that cover each animation form plus every Nth. */
function animated(dir) {
  const sets = {};
  for (const prefix of ['svg-spinners', 'line-md']) {
    const json = JSON.parse(show(dir, `json/${prefix}.json`));
    const seen = new Set();
    const icons = {};
    Object.entries(json.icons).forEach(([name, icon], i) => {
      const forms = [...icon.body.matchAll(/<(animate\w*|set)\b([^>]*)>/g)].map(
        (m) => `${m[1]}:${/attributeName="([^"]*)"/.exec(m[2])?.[1] ?? ''}`,
      );
      const adds = forms.some((f) => !seen.has(f));
      forms.forEach((f) => seen.add(f));
      if (prefix === 'svg-spinners' || adds || i % LINE_MD_STRIDE === 0) icons[name] = icon.body;
    });
    sets[prefix] = {
      name: json.info.name,
      license: json.info.license.spdx,
      author: json.info.author.name,
      width: json.width ?? json.info.height ?? 24,
      height: json.height ?? json.info.height ?? 24,
      total: Object.keys(json.icons).length,
      icons,
    };
  }
  return { source: 'iconify/icon-sets json/<prefix>.json', commit: head(dir), sets };
}

const [purifyDir, h5scDir, iconsDir] = process.argv.slice(2);
if (!purifyDir || !h5scDir || !iconsDir) {
  console.error('usage: node scripts/import-svg-corpora.mjs <DOMPurify dir> <H5SC dir> <icon-sets dir>');
  process.exit(2);
}
const scratch = mkdtempSync(path.join(tmpdir(), 'svg-corpora-'));
try {
  write('dompurify-vectors.json', await dompurify(purifyDir, scratch));
  write('h5sc-vectors.json', h5sc(h5scDir, scratch));
  write('animated-icons.json', animated(iconsDir));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
