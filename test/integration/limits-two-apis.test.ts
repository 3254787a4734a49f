/**
 * Two API processes on one PostgreSQL store (two apps built as `npm run cluster` builds them,
 * each with its own leases, key cache and definition cache) admit an owner's tier limit together
 * exactly once: 150 requests alternating between them against a limit of 60 a minute give 60
 * answers and 90 refusals, never more. A definition saved through one is started in its new
 * version through the other once the announcement arrived.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionCacheOf } from '../../lib/definition-cache.js';
import { createKey } from '../../lib/keys.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startTestTemporal } from '../helpers/temporal.js';

// Needs PostgreSQL's server binaries (LISTEN/NOTIFY, two connections): skipped only on a
// machine without them and never in CI, where a missing PostgreSQL fails the run.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('limits across two API processes', () => {
  let pg: TestPostgres;
  let env: TestWorkflowEnvironment;
  let a: TestApi;
  let b: TestApi;
  let token: string;
  let editor: string;

  beforeAll(async () => {
    pg = await startTestPostgres();
    env = await startTestTemporal();
    const opts = {
      taskQueue: 'two-apis',
      databaseUrl: pg.url,
      config: { RATE_LIMIT_STANDARD_PER_MINUTE: 60 },
    };
    a = await buildTestApi(env, opts);
    b = await buildTestApi(env, opts);
    ({ token } = await createKey(a.deps.store, { name: 't', scopes: ['*'], ownerId: 'owner_two' }));
    ({ token: editor } = await createKey(a.deps.store, { name: 'e', scopes: ['*'], ownerId: 'owner_edit' }));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await env?.teardown();
    pg?.stop();
  });

  const get = (api: TestApi, url: string) =>
    api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  it('admit the tier limit together exactly, then both refuse with the whole 429', async () => {
    const statuses: number[] = [];
    const refusals: unknown[] = [];
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => get(i % 2 === 0 ? a : b, '/v1/workflows')),
      );
      for (const r of answers) {
        statuses.push(r.statusCode);
        if (r.statusCode === 429) refusals.push(r.json());
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    const last = refusals.at(-1) as { error: { details: { retry_after_seconds: number } } };
    const wait = last.error.details.retry_after_seconds;
    expect(last).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `The standard tier allows 60 requests per minute; retry in ${wait} s.`,
        details: { tier: 'standard', limit: 60, window_seconds: 60, retry_after_seconds: wait },
      },
    });
  });

  it('a definition saved through one is read in its new version through the other within a second', async () => {
    const send = (api: TestApi, method: 'GET' | 'POST' | 'PUT', url: string, body?: string) =>
      api.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${editor}`,
          ...(body ? { 'content-type': 'application/yaml' } : {}),
        },
        ...(body ? { payload: body } : {}),
      });
    const source = (title: string) =>
      `title: ${title}\nstart_when:\n  manual: {}\nsteps:\n  - id: hi\n    send_chat_message: { title: Hi, message: hi }\n`;
    const created = await send(a, 'POST', '/v1/workflows', source('One'));
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    // b opens and caches version 1.
    expect((await send(b, 'GET', `/v1/workflows/${id}`)).json()).toMatchObject({ version: 1, title: 'One' });
    const cacheB = definitionCacheOf(b.deps.store);
    expect(cacheB.size).toBe(1);
    expect((await send(a, 'PUT', `/v1/workflows/${id}`, source('Two'))).statusCode).toBe(200);
    const started = Date.now();
    let seen: { version: number; title: string } | undefined;
    while (Date.now() - started < 1_000) {
      seen = (await send(b, 'GET', `/v1/workflows/${id}`)).json();
      if (seen?.version === 2) break;
      await sleep(20);
    }
    expect(seen).toMatchObject({ version: 2, title: 'Two' });
    expect(cacheB.size).toBe(1);
  });
});
