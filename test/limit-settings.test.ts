/**
 * Every process on one store enforces the same limits: the first process records its limit
 * settings; on PostgreSQL a later one whose values differ refuses to start, naming the
 * variables; `npm run limits:apply` records the environment's values deliberately. On an
 * embedded PGlite store (one process) a restart with new values records them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_SLICES, loadConfig, PROJECT_ROOT, type RawConfig } from '../lib/config.js';
import { checkLimitSettings, SHARED_LIMIT_VARIABLES } from '../lib/limits/settings.js';
import { openStore, type Store } from '../lib/store/db.js';
import { createTestPlatform } from './helpers/platform.js';
import { startTestPostgres, type TestPostgres } from './helpers/postgres.js';

describe('the shared limit variables', () => {
  it('cover every limit variable the limits README names and every variable of the limits slice', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'lib/limits/README.md'), 'utf8');
    const named = [
      ...readme.matchAll(/`([A-Z][A-Z0-9_]+_(?:MINUTE|CREDITS|PERCENT|KEY|CONCURRENCY|LIMITS))`/g),
    ].map((m) => m[1]!);
    expect(named.length).toBeGreaterThanOrEqual(8);
    for (const v of [...new Set(named), ...CONFIG_SLICES.limits]) expect(SHARED_LIMIT_VARIABLES).toContain(v);
    expect(SHARED_LIMIT_VARIABLES).toHaveLength(27);
  });
});

describe('limit settings on PostgreSQL', () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startTestPostgres();
  });
  afterAll(() => pg?.stop());
  beforeEach(async () => {
    const store = await openStore({ databaseUrl: pg.url });
    await store.db.deleteFrom('limit_settings').execute();
    await store.close();
  });

  const start = (config: Partial<RawConfig>) => createTestPlatform({ databaseUrl: pg.url, config });

  it('a second process with other limit values refuses to start, naming each variable that differs', async () => {
    const first = await start({ RATE_LIMIT_FREE_PER_MINUTE: 60, ICON_SVG_RATE_LIMIT_PER_MINUTE: 300 });
    try {
      const same = await start({ RATE_LIMIT_FREE_PER_MINUTE: 60, ICON_SVG_RATE_LIMIT_PER_MINUTE: 300 });
      await same.close();
      await expect(
        start({ RATE_LIMIT_FREE_PER_MINUTE: 30, ICON_SVG_RATE_LIMIT_PER_MINUTE: 100 }),
      ).rejects.toThrow(
        'The limit settings of this process differ from those recorded in the platform store, which ' +
          'every process on it enforces: RATE_LIMIT_FREE_PER_MINUTE (recorded 60, here 30), ' +
          'ICON_SVG_RATE_LIMIT_PER_MINUTE (recorded 300, here 100). To change them deliberately, set ' +
          'the new values in every process’s environment, run `npm run limits:apply` with that ' +
          'environment, then restart the processes.',
      );
    } finally {
      await first.close();
    }
  });

  it('`npm run limits:apply` records the environment’s values: then those start and the old ones are refused', async () => {
    const first = await start({});
    await first.close();
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/limits-apply.ts'], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: pg.url,
          RATE_LIMIT_FREE_PER_MINUTE: '7',
          PROVIDER_RATE_LIMITS: 'shop=100/60',
        },
      });
    const applied = run();
    expect([applied.status, applied.stderr, applied.stdout]).toEqual([
      0,
      '',
      'limit settings recorded (27 variables)\n' +
        '  RATE_LIMIT_FREE_PER_MINUTE: 30 -> 7\n' +
        '  PROVIDER_RATE_LIMITS: shop=600/60,decision=120/60,power=20/60,*=300/60 -> shop=100/60\n',
    ]);
    expect(run().stdout).toBe('limit settings recorded (27 variables)\n  nothing changed\n');
    const changed = await start({ RATE_LIMIT_FREE_PER_MINUTE: 7, PROVIDER_RATE_LIMITS: 'shop=100/60' });
    await changed.close();
    await expect(start({})).rejects.toThrow(
      'RATE_LIMIT_FREE_PER_MINUTE (recorded 7, here 30), PROVIDER_RATE_LIMITS (recorded shop=100/60, here shop=600/60,decision=120/60,power=20/60,*=300/60).',
    );
  });
});

describe('limit settings on PGlite (one process per store)', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
  });
  afterAll(async () => store?.close());

  it('a restart with new values records them', async () => {
    await checkLimitSettings(store, loadConfig({ QUEUE_MAX_PER_KEY: '10' }));
    await checkLimitSettings(store, loadConfig({ QUEUE_MAX_PER_KEY: '20' }));
    const row = await store.db
      .selectFrom('limit_settings')
      .select('value')
      .where('name', '=', 'QUEUE_MAX_PER_KEY')
      .executeTakeFirst();
    expect(row).toEqual({ value: '20' });
  });
});
