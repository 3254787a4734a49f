/**
 * The owner of `idempotency_keys`: the claims of `Idempotency-Key` headers and the first answer
 * of each, so a repeated request gets that answer instead of a second effect.
 *
 * Nothing readable is stored. The row's key is an HMAC-SHA256, under the keyring's
 * `idempotency-key` subkey, of the owner, the route scope and the key; the request's fingerprint
 * is an HMAC under the same subkey; the answer is sealed to its row and owner. The subkey is the
 * hash key's (the oldest in the ring), so prepending a key for rotation keeps every claim.
 *
 * A claim is one atomic statement (an insert that takes over only an expired row), so of any
 * number of concurrent claims of one key exactly one wins, on PGlite and on PostgreSQL alike.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { subkey, type Keyring } from '../../crypto/keyring.js';
import { openJson, sealJson } from '../../crypto/sealed-value.js';
import type { Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/** How long an answered key replays its answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * How long an unanswered claim holds its key: longer than any request may take, so a live
 * request never loses it, yet a claim whose process died frees its key in the end.
 */
export const IDEMPOTENCY_LEASE_MS = 10 * 60_000;
/** The largest answer body remembered (UTF-8 bytes); a larger answer is not remembered. */
export const MAX_IDEMPOTENT_ANSWER_BYTES = 64 * 1024;
/** Expired rows deleted per claim. */
const SWEEP_BATCH = 100;

/** A remembered first answer, as it is replayed, and the scopes of the key that made it. */
export const IdempotentAnswerSchema = z.object({
  status: z.number().int().min(200).max(299),
  content_type: z.string(),
  body: z.string(),
  /**
   * The scopes of the API key whose request made the answer (none on a route without keys);
   * bounded where the key was created.
   */
  scopes: z.array(z.string()).optional(),
});
export type IdempotentAnswer = z.infer<typeof IdempotentAnswerSchema>;

/** What identifies a claim: who, where (method, route and path params) and with which key. */
export interface IdempotencyRequest {
  ownerId: string;
  /** The route scope, e.g. `POST /v1/workflows/:id/runs {"id":"wf_x"}`. */
  scope: string;
  /** The header's value. */
  key: string;
  /** The request's canonical form; the same key with another fingerprint is a reuse. */
  fingerprint: string;
}

/** A won claim: complete or release it. */
export interface IdempotencyClaim {
  ownerId: string;
  keyHash: string;
  /** The claim's time, which fences completion and release against a later claim. */
  claimedAt: Date;
  /**
   * A UUID drawn by the first claim of this request and kept by a claim that takes over its
   * unanswered lease: the id of the work the request starts.
   */
  taskSeed: string;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  | { kind: 'in_flight' }
  | { kind: 'reused' }
  | { kind: 'answered'; answer: IdempotentAnswer };

/** The store owner of `idempotency_keys`; `now` is passed in so tests can move the clock. */
/** How long an expired row is kept before a sweep deletes it. */
export const SWEEP_GRACE_MS = 10 * 60_000;

export class IdempotencyKeys {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
  ) {}

  private hmac(...parts: string[]): string {
    const key = subkey(this.keyring, this.keyring.hashKeyId, 'idempotency-key');
    return createHmac('sha256', key).update(parts.join('\0')).digest('hex');
  }

  /** The row key of a request (exported for tests that age a row). */
  keyHashOf(req: Pick<IdempotencyRequest, 'ownerId' | 'scope' | 'key'>): string {
    return this.hmac('key', req.ownerId, req.scope, req.key);
  }

  /**
   * Claims the key, or says why not: another request with it is in flight, it was used for
   * another request, or it already has an answer (returned for replay).
   */
  async claim(req: IdempotencyRequest, now: Date, leaseMs = IDEMPOTENCY_LEASE_MS): Promise<ClaimOutcome> {
    const keyHash = this.keyHashOf(req);
    const requestHash = this.hmac('request', req.fingerprint);
    // A claim that loses to a release, an expiry or a completion in between looks again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const values = {
        key_hash: keyHash,
        owner_id: req.ownerId,
        request_hash: requestHash,
        answer_sealed: null,
        created_at: now,
        expires_at: new Date(now.getTime() + leaseMs),
        task_seed: randomUUID(),
      };
      const won = await this.store.db
        .insertInto('idempotency_keys')
        .values(values)
        .onConflict((oc) =>
          oc
            .column('key_hash')
            .doUpdateSet({
              ...values,
              // The same request taking over an unanswered claim keeps its seed.
              task_seed: sql<string>`case when idempotency_keys.answer_sealed is null
                and idempotency_keys.request_hash = excluded.request_hash
                and idempotency_keys.task_seed is not null
                then idempotency_keys.task_seed else excluded.task_seed end`,
            })
            .where('idempotency_keys.expires_at', '<=', now),
        )
        .returning('task_seed')
        .executeTakeFirst();
      if (won) {
        // Best effort: the next claim sweeps again.
        await this.sweep(now).catch(() => undefined);
        return {
          kind: 'claimed',
          claim: {
            ownerId: req.ownerId,
            keyHash,
            claimedAt: now,
            taskSeed: won.task_seed ?? values.task_seed,
          },
        };
      }
      const row = await this.store.db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'answer_sealed'])
        .where('key_hash', '=', keyHash)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (!row) continue;
      if (row.request_hash !== requestHash) return { kind: 'reused' };
      if (row.answer_sealed === null) return { kind: 'in_flight' };
      const opened = openJson(
        this.keyring,
        row.answer_sealed,
        sealedCell.idempotentAnswer(keyHash, req.ownerId),
      );
      return { kind: 'answered', answer: IdempotentAnswerSchema.parse(opened) };
    }
    // Three races lost in a row: the key is busy.
    return { kind: 'in_flight' };
  }

  /**
   * Remembers the claim's answer for 24 hours from the claim. An answer over
   * {@link MAX_IDEMPOTENT_ANSWER_BYTES} is not remembered: the claim is released instead.
   */
  async complete(claim: IdempotencyClaim, answer: IdempotentAnswer): Promise<'stored' | 'released'> {
    if (Buffer.byteLength(answer.body, 'utf8') > MAX_IDEMPOTENT_ANSWER_BYTES) {
      await this.release(claim);
      return 'released';
    }
    const sealed = sealJson(
      this.keyring,
      IdempotentAnswerSchema.parse(answer),
      sealedCell.idempotentAnswer(claim.keyHash, claim.ownerId),
    );
    await this.store.db
      .updateTable('idempotency_keys')
      .set({
        answer_sealed: sealed,
        expires_at: new Date(claim.claimedAt.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .where('key_hash', '=', claim.keyHash)
      .where('created_at', '=', claim.claimedAt)
      .where('answer_sealed', 'is', null)
      .execute();
    return 'stored';
  }

  /** Frees the claim's key (its request failed), unless a later claim holds it now. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.store.db
      .deleteFrom('idempotency_keys')
      .where('key_hash', '=', claim.keyHash)
      .where('created_at', '=', claim.claimedAt)
      .where('answer_sealed', 'is', null)
      .execute();
  }

  /**
   * Deletes up to `limit` rows expired for over {@link SWEEP_GRACE_MS}; returns how many. The
   * grace keeps an unanswered claim whose lease has just ended (and its seed) for the retry that
   * takes it over.
   */
  async sweep(now: Date, limit = SWEEP_BATCH): Promise<number> {
    const before = new Date(now.getTime() - SWEEP_GRACE_MS);
    const res = await this.store.db
      .deleteFrom('idempotency_keys')
      .where('key_hash', 'in', (db) =>
        db.selectFrom('idempotency_keys').select('key_hash').where('expires_at', '<=', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
