import { createCipheriv, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKeyring, type Keyring } from '../crypto/keyring.js';
import { LegacySealedValueError, openJson, sealJson } from '../crypto/sealed-value.js';
import { openStore, type Store } from './db.js';
import { countLegacySealed, reencryptStore } from './reencrypt.js';
import { sealedCell } from './sealed-columns.js';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const OLD: Keyring = parseKeyring(`old:${key(1)}`, 'env');
const ROTATED: Keyring = parseKeyring(`new:${key(2)},old:${key(1)}`, 'env');

/** A value as the previous release sealed it: raw key, the key id alone as AAD. */
function legacySeal(keyId: string, raw: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(raw, 'base64'), iv);
  cipher.setAAD(Buffer.from(keyId));
  const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
  return `${keyId}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
}

describe('store re-encryption', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pgliteDir: 'memory://' });
    await store.db
      .insertInto('chats')
      .values([
        {
          chat_id: 'chat_a',
          owner_id: 'owner_a',
          focus_mode: null,
          webhook_url_sealed: sealJson(
            OLD,
            'https://hooks.example.com/a',
            sealedCell.chatWebhookUrl('chat_a', 'owner_a'),
          ),
        },
        {
          chat_id: 'chat_legacy',
          owner_id: 'owner_b',
          focus_mode: null,
          webhook_url_sealed: legacySeal('old', key(1), 'https://hooks.example.com/legacy'),
        },
      ])
      .execute();
    await store.db
      .insertInto('definitions')
      .values({ id: 'wf_1', owner_id: 'owner_a', current_version: 1, trigger_type: 'manual' })
      .execute();
    await store.db
      .insertInto('definition_versions')
      .values({
        definition_id: 'wf_1',
        version: 1,
        source_sealed: legacySeal('old', key(1), 'title: x'),
        plan_sealed: sealJson(OLD, { title: 'x' }, sealedCell.definitionPlan('wf_1', 1, 'owner_a')),
      })
      .execute();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('refuses old-format values clearly, and counts them for the boot check', async () => {
    const row = await store.db
      .selectFrom('chats')
      .selectAll()
      .where('chat_id', '=', 'chat_legacy')
      .executeTakeFirstOrThrow();
    expect(() =>
      openJson(OLD, row.webhook_url_sealed!, sealedCell.chatWebhookUrl('chat_legacy', 'owner_b')),
    ).toThrow(LegacySealedValueError);
    expect(await countLegacySealed(store)).toBe(2);
  });

  it('re-seals everything under the new active key, upgrading old-format values without loss', async () => {
    const report = await reencryptStore(store, ROTATED);
    expect(report).toEqual({
      'chats.webhook_url_sealed': { resealed: 2, current: 0 },
      'definition_versions.source_sealed': { resealed: 1, current: 0 },
      'definition_versions.plan_sealed': { resealed: 1, current: 0 },
    });
    expect(await countLegacySealed(store)).toBe(0);
    const chats = await store.db.selectFrom('chats').selectAll().orderBy('chat_id').execute();
    expect(chats.map((c) => c.webhook_url_sealed!.slice(0, 7))).toEqual(['v2.new.', 'v2.new.']);
    expect(
      chats.map((c) =>
        openJson(ROTATED, c.webhook_url_sealed!, sealedCell.chatWebhookUrl(c.chat_id, c.owner_id)),
      ),
    ).toEqual(['https://hooks.example.com/a', 'https://hooks.example.com/legacy']);
    const version = await store.db.selectFrom('definition_versions').selectAll().executeTakeFirstOrThrow();
    expect(openJson(ROTATED, version.source_sealed, sealedCell.definitionSource('wf_1', 1, 'owner_a'))).toBe(
      'title: x',
    );
    // The new key alone now opens everything: the old key can be dropped.
    const newOnly = parseKeyring(`new:${key(2)}`, 'env');
    expect(openJson(newOnly, version.plan_sealed, sealedCell.definitionPlan('wf_1', 1, 'owner_a'))).toEqual({
      title: 'x',
    });
    // A second run finds nothing to do.
    expect(await reencryptStore(store, ROTATED)).toEqual({
      'chats.webhook_url_sealed': { resealed: 0, current: 2 },
      'definition_versions.source_sealed': { resealed: 0, current: 1 },
      'definition_versions.plan_sealed': { resealed: 0, current: 1 },
    });
  });

  it('pages through large tables (1,201 messages, more than two pages) and binds each to its own cell', async () => {
    const ids = Array.from({ length: 1201 }, (_, i) => `msg_${String(i).padStart(5, '0')}`);
    await store.db
      .insertInto('chat_messages')
      .values(
        ids.map((id, i) => ({
          id,
          chat_id: 'chat_a',
          owner_id: `owner_${i % 3}`,
          task_id: null,
          step_id: null,
          content_sealed: sealJson(OLD, { n: i }, sealedCell.chatMessage(id, `owner_${i % 3}`)),
        })),
      )
      .execute();
    const report = await reencryptStore(store, ROTATED);
    expect(report['chat_messages.content_sealed']).toEqual({ resealed: 1201, current: 0 });
    const rows = await store.db.selectFrom('chat_messages').selectAll().orderBy('id').execute();
    expect(
      rows.map((r) => openJson(ROTATED, r.content_sealed!, sealedCell.chatMessage(r.id, r.owner_id))),
    ).toEqual(ids.map((_, i) => ({ n: i })));
    expect(rows.every((r) => r.content_sealed!.startsWith('v2.new.'))).toBe(true);
  });
});
