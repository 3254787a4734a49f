/**
 * What the Schemathesis contract test (contract.test.ts) does not cover: strict OpenAPI 3.1
 * validation of the document, security and error declarations on the fixture apps' routes, and
 * bodies far beyond Schemathesis' bounded generation (200-deep nesting, 200 KB strings, 500
 * groups) including the anonymous routes, which the document hides.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

type Json = Record<string, unknown>;
interface Operation {
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

/** Invalid variants of a JSON Schema's valid shape: wrong types, missing fields, extras, huge, deep. */
function invalidBodies(schema: Json | undefined): unknown[] {
  const deep: Json = {};
  let cur = deep;
  for (let i = 0; i < 200; i++) cur = cur.n = {};
  const huge = 'x'.repeat(200_000);
  const out: unknown[] = [
    null,
    42,
    'text',
    [],
    [{}],
    {},
    { [huge.slice(0, 5000)]: 1 },
    deep,
    { requests: deep },
    { requests: [deep] },
  ];
  const props = (schema?.properties ?? {}) as Record<string, Json>;
  const required = (schema?.required ?? []) as string[];
  const base: Json = {};
  for (const [name, p] of Object.entries(props))
    base[name] =
      p.type === 'array'
        ? []
        : p.type === 'boolean'
          ? true
          : p.type === 'number' || p.type === 'integer'
            ? 1
            : 'abcdefgh12345678';
  for (const name of required) {
    const { [name]: _dropped, ...rest } = base;
    out.push(rest);
  }
  for (const name of Object.keys(props)) {
    for (const wrong of [null, 12.5, 'str', true, [], {}, huge, [huge], { deep }])
      out.push({ ...base, [name]: wrong });
  }
  out.push(
    { ...base, unexpected_field: 'x' },
    { ...base, requests: Array.from({ length: 500 }, () => ({ text: huge.slice(0, 300) })) },
  );
  return out;
}

describe('the OpenAPI document and fuzzed request bodies', () => {
  let h: EngineHarness;
  let doc: { paths: Record<string, Record<string, Operation>> } & Json;
  let token: string;
  beforeAll(async () => {
    h = await startEngine({
      config: {
        RATE_LIMIT_PRO_PER_MINUTE: 1_000_000,
        ANONYMOUS_IP_DAILY_CREDITS: 1_000_000,
        ANONYMOUS_IP_WEEKLY_CREDITS: 1_000_000,
        ANONYMOUS_IP_MONTHLY_CREDITS: 1_000_000,
      },
    });
    ({ token } = await createKey(h.api.deps.store, {
      name: 'fuzz',
      scopes: ['*'],
      ownerId: 'owner_fuzz',
      tier: 'pro',
    }));
    doc = (await h.api.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await new Validator().validate(structuredClone(doc));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('covers every authenticated route with security, schemas and error responses, and no anonymous route', () => {
    const expected = [
      'get /v1/apps/{app_id}',
      'get /v1/apps/{app_id}/skills/{skill_id}',
      'get /v1/apps/{app_id}/skills/{skill_id}/details',
      'post /v1/apps/echo/skills/shout',
      'post /v1/apps/echo/skills/slow_echo',
      'post /v1/apps/metered/skills/ping',
      'get /v1/tasks/{task_id}',
      'post /v1/tasks/{task_id}/cancel',
      'post /v1/keys',
      'get /v1/keys',
      'delete /v1/keys/{key_id}',
      'get /v1/embeds/{embed_id}/file',
      'post /v1/chats',
      'post /v1/chats/webhook',
      'post /v1/chats/messages',
      'post /v1/chats/keys',
      'get /v1/chats/keys',
      'delete /v1/chats/keys/{key_id}',
      'post /v1/apps/workspace/results',
    ];
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ id: `${method} ${path}`, op })),
    );
    const ids = operations.map((o) => o.id);
    for (const id of expected) expect(ids, id).toContain(id);
    expect(ids.filter((id) => id.includes('anonymous'))).toEqual([]);
    for (const { id, op } of operations.filter((o) => o.op.security)) {
      expect(op.security, id).toEqual([{ bearerAuth: [] }]);
      const codes = Object.keys(op.responses ?? {});
      expect(codes, id).toContain('401');
      expect(
        codes.some((c) => c.startsWith('2')),
        id,
      ).toBe(true);
      const err = op.responses?.['401']?.content?.['application/json']?.schema;
      expect(err?.required, id).toEqual(['error']);
      if (id.startsWith('post') && expected.includes(id) && !id.endsWith('/cancel'))
        expect(op.requestBody?.content?.['application/json']?.schema, id).toBeDefined();
    }
    // Every authenticated operation is in the expected list or one of the pre-existing workflow routes.
    expect(operations.filter((o) => o.op.security).length).toBeGreaterThanOrEqual(expected.length);
  });

  it('answers every invalid body on every route with a 4xx envelope, never a 5xx', async () => {
    const targets: {
      method: string;
      url: string;
      schema: Json | undefined;
      headers: Record<string, string>;
    }[] = [];
    const auth = { authorization: `Bearer ${token}` };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.requestBody) continue;
        const url = path.replace(/\{[^}]+\}/g, 'fuzz_id_0001');
        targets.push({
          method,
          url,
          schema: op.requestBody.content?.['application/json']?.schema,
          headers: auth,
        });
      }
    }
    const guest = { 'x-skillflow-anonymous-id': 'fuzz-guest-000000000001' };
    const shout =
      doc.paths['/v1/apps/echo/skills/shout']?.post?.requestBody?.content?.['application/json']?.schema;
    for (const url of ['/v1/anonymous/apps/echo/skills/shout', '/v1/anonymous/apps/echo/skills/shout/quote'])
      targets.push({ method: 'post', url, schema: shout, headers: guest });
    expect(targets.length).toBeGreaterThan(10);
    let sent = 0;
    for (const t of targets) {
      for (const body of invalidBodies(t.schema)) {
        const res = await h.api.app.inject({
          method: t.method.toUpperCase() as 'POST',
          url: t.url,
          headers: { ...t.headers, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        sent++;
        const label = `${t.method} ${t.url} ${JSON.stringify(body).slice(0, 120)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const err = res.json().error;
          expect(typeof err?.code, label).toBe('string');
          expect(typeof err?.message, label).toBe('string');
          expect(typeof err?.details, label).toBe('object');
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
  }, 240_000);
});
