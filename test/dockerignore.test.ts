/**
 * The image's build context (.dockerignore) keeps out secrets, env files, VCS data and tests,
 * and keeps in what `node scripts/main.ts` needs. Patterns are evaluated with Docker's rules
 * (Go filepath.Match per path, `**` for any number of folders, a matched folder excludes all
 * beneath it) over every file git tracks plus the paths that must never ship.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../lib/config.js';

const patterns = readFileSync(new URL('../.dockerignore', import.meta.url), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

function toRegExp(pattern: string): RegExp {
  const body = pattern
    .replace(/^\/+/, '')
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${body}$`);
}

const rules = patterns.map((p) => ({ negate: p.startsWith('!'), re: toRegExp(p.replace(/^!/, '')) }));

/** Is the path (or a folder above it) excluded from the build context? */
function ignored(file: string): boolean {
  const parts = file.split('/');
  let out = false;
  for (const rule of rules) {
    for (let i = 1; i <= parts.length; i++) {
      if (rule.re.test(parts.slice(0, i).join('/'))) out = !rule.negate;
    }
  }
  return out;
}

describe('.dockerignore', () => {
  it('keeps secrets, env files, VCS data and tests out of the image', () => {
    for (const file of [
      'secrets/codec_auth_token',
      'deploy/secrets/proxy_password',
      '.env',
      '.env.production',
      'deploy/.env.local',
      '.git/HEAD',
      '.git/config',
      'test/integration/api-base.test.ts',
      'test/fixtures/apps/echo/app.ts',
      'lib/config.test.ts',
      'activities/apps/hosting/skills/search-domains/fixtures.test-helpers.ts',
      '.data/encryption.key',
      '.data/dev-api-key',
    ])
      expect(ignored(file), file).toBe(true);
  });

  it('ships the runtime code and nothing test-only from the repository', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const shipped = tracked.filter((f) => !ignored(f));
    for (const file of [
      'package.json',
      'package-lock.json',
      'scripts/main.ts',
      'api/app.ts',
      'lib/config.ts',
    ])
      expect(shipped, file).toContain(file);
    expect(shipped.filter((f) => /(^|\/)test\/|\.test\.ts$|\.test-helpers\.ts$|(^|\/)\.env/.test(f))).toEqual(
      [],
    );
  });
});
