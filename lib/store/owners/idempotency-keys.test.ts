/**
 * The owner of `idempotency_keys` on both store engines: of concurrent claims of one key exactly
 * one wins (PostgreSQL runs them really in parallel); the answer replays only for the same
 * request, sealed to its row; a release frees the key; rows expire (lease, then 24 hours) and
 * are swept in bounded batches; the table holds no plaintext key, request or answer.
 */
import { describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../../test/helpers/store-engines.js';
import { TEST_KEYRING } from '../../../test/helpers/fixtures.js';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyKeys,
  MAX_IDEMPOTENT_ANSWER_BYTES,
  type IdempotencyClaim,
  type IdempotencyRequest,
} from './idempotency-keys.js';

describe.each(storeEngines())('idempotency keys on $name', (engine) => {
  const current = useEngineStore(engine);
  const now = new Date('2026-11-23T12:00:00.000Z');
  const later = (ms: number) => new Date(now.getTime() + ms);
  let n = 0;
  /** A request with a fresh key. */
  const fresh = (over: Partial<IdempotencyRequest> = {}): IdempotencyRequest => ({
    ownerId: 'owner_a',
    scope: 'POST /v1/workflows/:id/runs {"id":"wf_a"}',
    key: `secret-key-${++n}`,
    fingerprint: '{"inputs":{"name":"cedar"}}',
    ...over,
  });
  const answer = { status: 202, content_type: 'application/json', body: '{"task_id":"run_1"}' };
  const claimOf = async (keys: IdempotencyKeys, req: IdempotencyRequest, at = now) => {
    const out = await keys.claim(req, at);
    if (out.kind !== 'claimed') throw new Error(`expected a claim, got ${out.kind}`);
    return out.claim;
  };

  it('lets exactly one of 20 concurrent claims win; the rest see it in flight', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => keys.claim(req, now)));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_flight')).toHaveLength(19);
  });

  it('replays the answer for the same request, refuses another request, and stores no plaintext', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    const claim = await claimOf(keys, req);
    expect(await keys.claim(req, later(1000))).toEqual({ kind: 'in_flight' });
    expect(await keys.claim({ ...req, fingerprint: '{}' }, later(1000))).toEqual({ kind: 'reused' });
    expect(await keys.complete(claim, answer)).toBe('stored');
    expect(await keys.claim(req, later(2000))).toEqual({ kind: 'answered', answer });
    expect(await keys.claim({ ...req, fingerprint: '{}' }, later(2000))).toEqual({ kind: 'reused' });

    const row = await current()
      .db.selectFrom('idempotency_keys')
      .selectAll()
      .where('key_hash', '=', claim.keyHash)
      .executeTakeFirstOrThrow();
    const text = JSON.stringify(row);
    for (const plain of [req.key, 'cedar', 'run_1', 'task_id', 'wf_a']) expect(text).not.toContain(plain);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.answer_sealed).toMatch(/^v2\.test\./);
    expect(new Date(row.expires_at).getTime()).toBe(now.getTime() + IDEMPOTENCY_TTL_MS);
  });

  it("keeps the first request's key scopes with its answer, sealed", async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    const scoped = { ...answer, scopes: ['workflows', 'skill:echo.shout'] };
    expect(await keys.complete(await claimOf(keys, req), scoped)).toBe('stored');
    expect(await keys.claim(req, later(1000))).toEqual({ kind: 'answered', answer: scoped });
    const row = await current()
      .db.selectFrom('idempotency_keys')
      .select('answer_sealed')
      .where('key_hash', '=', keys.keyHashOf(req))
      .executeTakeFirstOrThrow();
    expect(row.answer_sealed).not.toContain('workflows');
  });

  it('scopes keys per owner and per route', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    await claimOf(keys, req);
    await claimOf(keys, { ...req, ownerId: 'owner_b' });
    await claimOf(keys, { ...req, scope: 'POST /v1/workflows/:id/runs {"id":"wf_b"}' });
  });

  it('frees a released key, and a stale release never frees a later claim', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    const first = await claimOf(keys, req);
    await keys.release(first);
    const second = await claimOf(keys, { ...req, fingerprint: 'another body' }, later(1));
    await keys.release(first);
    expect(await keys.claim(req, later(2))).toEqual({ kind: 'reused' });
    await keys.complete(first, answer);
    expect(
      await keys
        .complete(second, { ...answer, body: '{"task_id":"run_2"}' })
        .then(() => keys.claim({ ...req, fingerprint: 'another body' }, later(3))),
    ).toEqual({ kind: 'answered', answer: { ...answer, body: '{"task_id":"run_2"}' } });
  });

  it('does not remember an answer over the cap: the key is released', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const req = fresh();
    const claim = await claimOf(keys, req);
    const big = {
      ...answer,
      status: 200,
      body: JSON.stringify({ t: 'x'.repeat(MAX_IDEMPOTENT_ANSWER_BYTES) }),
    };
    expect(await keys.complete(claim, big)).toBe('released');
    await claimOf(keys, req, later(1));
  });

  it('ends an answered key after 24 hours and an unanswered claim after its lease', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const answered = fresh();
    await keys.complete(await claimOf(keys, answered), answer);
    expect((await keys.claim(answered, later(IDEMPOTENCY_TTL_MS - 1))).kind).toBe('answered');
    const again: IdempotencyClaim = await claimOf(keys, answered, later(IDEMPOTENCY_TTL_MS));
    expect(again.claimedAt).toEqual(later(IDEMPOTENCY_TTL_MS));

    const abandoned = fresh();
    await claimOf(keys, abandoned);
    expect((await keys.claim(abandoned, later(IDEMPOTENCY_LEASE_MS - 1))).kind).toBe('in_flight');
    await claimOf(keys, { ...abandoned, fingerprint: 'another' }, later(IDEMPOTENCY_LEASE_MS));
  });

  it('sweeps expired rows in bounded batches', async () => {
    const keys = new IdempotencyKeys(current(), TEST_KEYRING);
    const past = new Date('2020-01-01T00:00:00.000Z');
    const count = async () =>
      Number(
        (
          await current()
            .db.selectFrom('idempotency_keys')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('expires_at', '<=', now)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let i = 0; i < 5; i++) await claimOf(keys, fresh(), past);
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(5);
    expect(await keys.sweep(now, 2)).toBe(2);
    expect(await count()).toBe(before - 2);
    // A claim sweeps too.
    await claimOf(keys, fresh());
    expect(await count()).toBe(Math.max(0, before - 2 - 100));
  });
});
