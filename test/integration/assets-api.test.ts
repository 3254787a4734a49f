/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Generated-asset download links over real HTTP, on a real Temporal test server and worker with
 * the power simulator: the owner's link downloads the exact bytes of each asset (original
 * output, schematic SVG, parts list); a member of the team a call was billed to may download its
 * assets while a member; another owner gets the embed route's 404; an expired,
 * tampered or revoked-key link is 403 with its whole envelope; the token never reaches the logs;
 * the JS SDK and the CLI (`skillflow assets get`) download the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { buildApp } from '../../api/app.js';
import { createKey } from '../../lib/keys.js';
import { createLogger } from '../../lib/logger.js';
import { revokeApiKey } from '../../lib/store/owners/api-keys.js';
import { createClient } from '../../sdk/index.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { powerConfig } from '../helpers/power-config.js';
import { runCli } from '../helpers/stack.js';

const DESIGN = '/v1/apps/electronics/skills/get_power_design';
const SEARCH = '/v1/apps/electronics/skills/search_power_designs';
const TTL_SECONDS = 2;

const INVALID = {
  error: {
    code: 'DOWNLOAD_LINK_INVALID',
    message:
      'The download link is not valid: it is malformed or altered, the API key that asked for it was revoked, or that caller may no longer read the asset.',
    details: {},
  },
};
const EXPIRED = {
  error: {
    code: 'DOWNLOAD_LINK_EXPIRED',
    message: 'The download link has expired; ask for a new one.',
    details: {},
  },
};

describe('generated-asset download links', () => {
  let h: EngineHarness;
  let sim: PowerSimulator;
  let base: string;
  let embedId: string;
  let searchEmbedId: string;
  let output: any;
  let ids: string[] = [];
  let tmp: string;

  const link = async (body: unknown, token = h.token) => {
    const res = await fetch(`${base}/v1/assets/download-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  };
  const get = async (url: string) => {
    const res = await fetch(url);
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'skillflow-assets-'));
    sim = await startPowerSimulator({ latencyMs: 5 });
    h = await startEngine({
      apps: APPS,
      config: { ...powerConfig(sim.url), DOWNLOAD_LINK_TTL_SECONDS: TTL_SECONDS },
    });
    await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    const address = h.api.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;

    const search = await h.request('POST', SEARCH, {
      requests: [{ vinMin: 10, vinMax: 24, vout: [5], iout: [2], max_results: 2 }],
    });
    searchEmbedId = search.json.embed_id;
    const found = await h.waitForTask(
      search.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
      30_000,
    );
    ids = found.result.output.results[0].solutions.map((s: { id: string }) => s.id);
    expect(ids).toHaveLength(2);

    const design = await h.request('POST', DESIGN, { requests: ids.map((id) => ({ solution_id: id })) });
    expect(design.status).toBe(202);
    embedId = design.json.embed_id;
    const done = await h.waitForTask(
      design.json.task_id,
      (t) => t.status === 'completed' || t.status === 'failed',
      30_000,
    );
    expect(done.status).toBe('completed');
    output = done.result.output;
    expect(output.results).toHaveLength(2);
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    await sim?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('gives the owner a fresh, expiring link that downloads the exact bytes of each asset', async () => {
    const original = await h.api.app.inject({
      method: 'GET',
      url: `/v1/embeds/${embedId}/file?format=original`,
      headers: { authorization: `Bearer ${h.token}` },
    });
    const parts1 = JSON.stringify({
      solution_id: ids[1],
      part_count: output.results[1].parts.length,
      parts: output.results[1].parts,
    });
    const cases: [unknown, string, string, string][] = [
      [{ embed_id: embedId }, 'application/json; charset=utf-8', `${embedId}.original.json`, original.body],
      [
        { embed_id: embedId, asset: 'schematic' },
        'image/svg+xml; charset=utf-8',
        `${embedId}.schematic.0.svg`,
        output.results[0].schematic.svg,
      ],
      [
        { embed_id: embedId, asset: 'parts', design: 1 },
        'application/json; charset=utf-8',
        `${embedId}.parts.1.json`,
        parts1,
      ],
    ];
    for (const [body, type, filename, expected] of cases) {
      const before = Date.now();
      const l = await link(body);
      expect(l.status).toBe(200);
      expect(Object.keys(l.json).sort()).toEqual(['expires_at', 'url']);
      expect(l.json.url).toMatch(new RegExp(`^${base}/v1/assets/download/v2\\.[^/]+$`));
      const expires = Date.parse(l.json.expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + TTL_SECONDS * 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000);
      const { res, bytes } = await get(l.json.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    }
    // A random nonce: two links to the same asset differ.
    const [a, b] = [await link({ embed_id: embedId }), await link({ embed_id: embedId })];
    expect(a.json.url).not.toBe(b.json.url);
  });

  it("answers another owner's or a missing embed with the embed route's 404", async () => {
    const notFound = { error: { code: 'NOT_FOUND', message: 'No embed with this id.', details: {} } };
    expect(await link({ embed_id: embedId }, h.otherToken)).toEqual({ status: 404, json: notFound });
    expect(await link({ embed_id: 'emb_missing' })).toEqual({ status: 404, json: notFound });
    const embedRoute = await fetch(`${base}/v1/embeds/${embedId}/file`, {
      headers: { authorization: `Bearer ${h.otherToken}` },
    });
    expect(await embedRoute.json()).toEqual(notFound);
  });

  it('lets a member of the team a call was billed to download its assets, while a member', async () => {
    const db = h.api.deps.store.db;
    await db.insertInto('teams').values({ id: 'team_assets', name: 'Assets' }).execute();
    await db
      .insertInto('team_members')
      .values([
        { team_id: 'team_assets', owner_id: 'owner_a', role: 'member', can_spend: true },
        { team_id: 'team_assets', owner_id: 'owner_b', role: 'viewer', can_spend: false },
      ])
      .execute();
    // owner_a runs a design for the team; owner_b, a member who may not spend, may read its assets.
    const call = await h.request('POST', `${DESIGN}?team_id=team_assets`, {
      requests: [{ solution_id: ids[0] }],
    });
    expect(call.status).toBe(202);
    const done = await h.waitForTask(call.json.task_id, (t) => t.status === 'completed', 30_000);
    const member = await link({ embed_id: call.json.embed_id, asset: 'schematic' }, h.otherToken);
    expect(member.status).toBe(200);
    const { res, bytes } = await get(member.json.url);
    expect(res.status).toBe(200);
    expect(bytes.toString('utf8')).toBe(done.result.output.results[0].schematic.svg);
    // The owner's embeds billed to itself stay its own.
    const notFound = { error: { code: 'NOT_FOUND', message: 'No embed with this id.', details: {} } };
    expect(await link({ embed_id: embedId }, h.otherToken)).toEqual({ status: 404, json: notFound });
    // Leaving the team ends it: the link already made is dead, a new one is refused.
    await db
      .deleteFrom('team_members')
      .where('team_id', '=', 'team_assets')
      .where('owner_id', '=', 'owner_b')
      .execute();
    const after = await get(member.json.url);
    expect(after.res.status).toBe(403);
    expect(JSON.parse(after.bytes.toString('utf8'))).toEqual(INVALID);
    expect(await link({ embed_id: call.json.embed_id, asset: 'schematic' }, h.otherToken)).toEqual({
      status: 404,
      json: notFound,
    });
    // The caller who ran it keeps its own right.
    expect((await link({ embed_id: call.json.embed_id }, h.token)).status).toBe(200);
  });

  it('refuses an asset or design the embed does not have, naming no input', async () => {
    const unavailable = {
      error: {
        code: 'INVALID_PARAMETER',
        message: 'This embed has no file for that asset and design.',
        details: { issues: [{ path: 'asset', message: 'not available for this embed', location: 'body' }] },
      },
    };
    expect(await link({ embed_id: searchEmbedId, asset: 'parts' })).toEqual({
      status: 400,
      json: unavailable,
    });
    expect(await link({ embed_id: embedId, asset: 'schematic', design: 2 })).toEqual({
      status: 400,
      json: unavailable,
    });
    const top = await link({ embed_id: searchEmbedId, asset: 'schematic' });
    const { res, bytes } = await get(top.json.url);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(bytes.toString('utf8')).toMatch(/^<svg /);
  });

  it('refuses a tampered or malformed link with 403 DOWNLOAD_LINK_INVALID', async () => {
    const { url } = (await link({ embed_id: embedId, asset: 'schematic' })).json;
    const token = url.split('/').pop() as string;
    const [v, kid, sealed] = token.split('.');
    // The link names no owner, embed or key to whoever holds it.
    for (const named of ['owner_a', embedId, 'schematic'])
      expect(Buffer.from(sealed!, 'base64url').toString('latin1')).not.toContain(named);
    const forged = Buffer.from(
      JSON.stringify({ o: 'owner_a', e: embedId, a: 'parts', d: 0, k: 'k', exp: Date.now() + 60_000 }),
    ).toString('base64url');
    const flipped = `${sealed!.slice(0, 30)}${sealed![30] === 'A' ? 'B' : 'A'}${sealed!.slice(31)}`;
    for (const bad of [`${v}.${kid}.${forged}`, `${v}.${kid}.${flipped}`, 'v1.x.y.z', 'nonsense']) {
      const { res, bytes } = await get(`${base}/v1/assets/download/${bad}`);
      expect(res.status).toBe(403);
      expect(JSON.parse(bytes.toString('utf8'))).toEqual(INVALID);
    }
  });

  it('refuses an expired link with 403 DOWNLOAD_LINK_EXPIRED', async () => {
    const { url } = (await link({ embed_id: embedId })).json;
    await sleep(TTL_SECONDS * 1000 + 100);
    const { res, bytes } = await get(url);
    expect(res.status).toBe(403);
    expect(res.headers.get('cache-control')).toBeNull();
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(EXPIRED);
  });

  it('refuses the link of a key revoked since it asked', async () => {
    const key = await createKey(h.api.deps.store, { name: 'short', scopes: ['*'], ownerId: 'owner_a' });
    const { url } = (await link({ embed_id: embedId }, key.token)).json;
    expect((await get(url)).res.status).toBe(200);
    await revokeApiKey(h.api.deps.store, 'owner_a', key.id);
    const { res, bytes } = await get(url);
    expect(res.status).toBe(403);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(INVALID);
  });

  it('never writes the token to the logs, at any level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logged = await buildApp({
      ...h.api.deps,
      logger: createLogger('trace', {}, { destination: sink }),
    });
    try {
      await logged.ready();
      const res = await logged.inject({
        method: 'POST',
        url: '/v1/assets/download-links',
        headers: { authorization: `Bearer ${h.token}` },
        payload: { embed_id: embedId, asset: 'schematic' },
      });
      const token = (res.json().url as string).split('/').pop() as string;
      const ok = await logged.inject({ method: 'GET', url: `/v1/assets/download/${token}` });
      expect(ok.statusCode).toBe(200);
      const tampered = await logged.inject({ method: 'GET', url: `/v1/assets/download/${token}x` });
      expect(tampered.statusCode).toBe(403);
      const long = await logged.inject({
        method: 'GET',
        url: `/v1/assets/download/${token}${'x'.repeat(600)}`,
      });
      expect(long.statusCode).toBeGreaterThanOrEqual(400);
      const boom = await logged.inject({ method: 'POST', url: `/v1/assets/download/${token}` });
      expect(boom.statusCode).toBe(405);
      const log = lines.join('');
      expect(log).toContain('"route":"/v1/assets/download/:token"');
      const [, , sealed] = token.split('.');
      for (const secret of [token, sealed!, sealed!.slice(0, 40)]) expect(log).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });

  it('downloads through the JS SDK, and through the CLI to a file or stdout', async () => {
    const client = createClient({ baseUrl: base, token: h.token });
    const svg = await client.assets.download({ embedId, asset: 'schematic', design: 1 });
    expect(Buffer.from(svg).toString('utf8')).toBe(output.results[1].schematic.svg);
    const l = await client.assets.downloadLink({ embedId, asset: 'parts' });
    const parts = JSON.parse(Buffer.from(await client.assets.fetchLink(l.url)).toString('utf8'));
    expect(parts).toEqual({ solution_id: ids[0], part_count: 6, parts: output.results[0].parts });

    const env = { SKILLFLOW_URL: base, SKILLFLOW_API_KEY: h.token };
    const file = path.join(tmp, 'schematic.svg');
    const wrote = await runCli(['assets', 'get', embedId, '--asset', 'schematic', '-o', file], env);
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(output.results[0].schematic.svg);

    writeFileSync(file, 'keep me');
    const refused = await runCli(['assets', 'get', embedId, '--asset', 'schematic', '-o', file], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('The output file exists; pass --force to overwrite it.');
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    const forced = await runCli(
      ['assets', 'get', embedId, '--asset', 'schematic', '-o', file, '--force'],
      env,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(output.results[0].schematic.svg);

    const stdout = await runCli(['assets', 'get', embedId, '-o', '-'], env);
    expect(stdout.code, stdout.stderr).toBe(0);
    expect(JSON.parse(stdout.stdout)).toEqual(output);

    const foreign = await runCli(['assets', 'get', embedId, '-o', '-'], {
      ...env,
      SKILLFLOW_API_KEY: h.otherToken,
    });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('NOT_FOUND');
  }, 60_000);
});
