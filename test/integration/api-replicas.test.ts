/**
 * Two API processes built separately on one PostgreSQL store and one Temporal server, as a
 * cluster runs them: a key revoked through one is refused by the other within a second, and
 * both loading the example definitions at once succeed with one set of rows and no error logged.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { loadDefinitionsDir } from '../../api/main.js';
import { PROJECT_ROOT, withValues } from '../../lib/config.js';
import { createKey } from '../../lib/keys.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startTestTemporal } from '../helpers/temporal.js';

describe.runIf(process.env.CI === 'true' || postgresAvailable())('two API replicas on one store', () => {
  let pg: TestPostgres;
  let env: TestWorkflowEnvironment;
  let one: TestApi;
  let two: TestApi;
  const dirs: string[] = [];

  beforeAll(async () => {
    pg = await startTestPostgres();
    env = await startTestTemporal();
    const taskQueue = `replicas-${randomUUID()}`;
    const opts = { taskQueue, databaseUrl: pg.url, apps: APPS };
    one = await buildTestApi(env, opts);
    two = await buildTestApi(env, opts);
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await env?.teardown();
    pg?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const get = (api: TestApi, token: string) =>
    api.app.inject({ method: 'GET', url: '/v1/keys', headers: { authorization: `Bearer ${token}` } });

  it('refuses a key on one replica within a second of its revocation through the other', async () => {
    // Both caches hear revocations (until then they cache nothing, which would prove nothing).
    for (let i = 0; i < 100 && !(one.app.principals!.caching && two.app.principals!.caching); i++)
      await sleep(50);
    const admin = await createKey(one.deps.store, { name: 'admin', scopes: ['*'], ownerId: 'owner_r' });
    const victim = await createKey(one.deps.store, { name: 'victim', scopes: ['keys'], ownerId: 'owner_r' });
    expect((await get(one, victim.token)).statusCode).toBe(200);
    expect((await get(two, victim.token)).statusCode).toBe(200);
    expect(two.app.principals!.size).toBe(1); // the second replica now answers it from its cache
    const revoked = await one.app.inject({
      method: 'DELETE',
      url: `/v1/keys/${victim.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(revoked.statusCode).toBe(204);
    const start = Date.now();
    let res = await get(two, victim.token);
    while (res.statusCode === 200 && Date.now() - start < 1_000) {
      await sleep(20);
      res = await get(two, victim.token);
    }
    expect(Date.now() - start).toBeLessThan(1_000);
    expect([res.statusCode, res.json()]).toEqual([
      401,
      { error: { code: 'UNAUTHENTICATED', message: 'The API token is unknown or revoked.', details: {} } },
    ]);
  });

  it('loads the example definitions on both replicas at once: both succeed, one set of rows, no error', async () => {
    // Every example, the scheduled one included: two replicas creating the same Temporal
    // schedule at once agree too (the schedule sync retries a lost create as an update).
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillflow-examples-'));
    dirs.push(dir);
    const examples = path.join(PROJECT_ROOT, 'definitions/examples');
    for (const f of readdirSync(examples)) copyFileSync(path.join(examples, f), path.join(dir, f));
    // Every record both replicas log, parsed from pino's output.
    const lines: { level: number; msg: string; replica: string }[] = [];
    const logged = (replica: string) =>
      pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }).child({
        replica,
      });
    const deps = (api: TestApi, replica: string) => ({
      ...api.deps,
      config: withValues(api.deps.config, { DEFINITIONS_DIR: dir }),
      logger: logged(replica),
    });
    const [a, b] = await Promise.all([
      loadDefinitionsDir(deps(one, 'one')),
      loadDefinitionsDir(deps(two, 'two')),
    ]);
    const expected = [
      'wf_file_brand_ideas_fan_out',
      'wf_file_daily_domain_watch',
      'wf_file_domain_check_with_pause',
      'wf_file_domain_ideas',
      'wf_file_name_score',
      'wf_file_names_report',
      'wf_file_order_webhook',
      'wf_file_register_when_paid',
      'wf_file_register_with_approval',
    ];
    expect(a).toEqual({ loaded: expected, failed: [] });
    expect(b).toEqual({ loaded: expected, failed: [] });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.map((l) => [l.replica, l.msg]).sort()).toEqual([
      ['one', 'workflow definitions loaded from DEFINITIONS_DIR'],
      ['two', 'workflow definitions loaded from DEFINITIONS_DIR'],
    ]);
    const owner = one.deps.config.process.DEFINITIONS_OWNER_ID;
    const rows = await one.deps.store.db
      .selectFrom('definitions')
      .innerJoin('definition_versions', 'definition_versions.definition_id', 'definitions.id')
      .select(['definitions.id', 'definition_versions.version'])
      .where('definitions.owner_id', '=', owner)
      .orderBy('definitions.id')
      .execute();
    expect(rows).toEqual(expected.map((id) => ({ id, version: 1 })));

    // A file changed before the next start (a new release): both replicas save it at once, and
    // it gets one new version.
    appendFileSync(path.join(dir, 'domain-ideas.yaml'), '# changed\n');
    lines.length = 0;
    const again = await Promise.all([
      loadDefinitionsDir(deps(one, 'one')),
      loadDefinitionsDir(deps(two, 'two')),
    ]);
    expect(again).toEqual([
      { loaded: expected, failed: [] },
      { loaded: expected, failed: [] },
    ]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    const versions = await one.deps.store.db
      .selectFrom('definition_versions')
      .select('version')
      .where('definition_id', '=', 'wf_file_domain_ideas')
      .orderBy('version')
      .execute();
    expect(versions).toEqual([{ version: 1 }, { version: 2 }]);
  });
});
