import { describe, expect, it } from 'vitest';
import { DecryptionError } from './aead.js';
import { parseKeyring, subkey } from './keyring.js';
import { openJson, sealJson, type SealContext } from './sealed-value.js';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const RING = parseKeyring(`a:${key(1)}`, 'env');
const CELL: SealContext = { table: 'chats', column: 'webhook_url_sealed', row: 'chat_1', owner: 'owner_a' };

describe('sealed store values', () => {
  it('open only in the cell they were sealed for', () => {
    const sealed = sealJson(RING, 'https://hooks.example.com/x', CELL);
    expect(sealed.startsWith('v2.a.')).toBe(true);
    expect(openJson(RING, sealed, CELL)).toBe('https://hooks.example.com/x');
    for (const moved of [
      { ...CELL, row: 'chat_2' },
      { ...CELL, owner: 'owner_b' },
      { ...CELL, column: 'focus_mode' },
      { ...CELL, table: 'chat_messages' },
    ]) {
      expect(() => openJson(RING, sealed, moved)).toThrow(DecryptionError);
    }
  });

  it('derives independent subkeys per purpose; the guest-hash key follows the last (oldest) key', () => {
    const ring = parseKeyring(`new:${key(2)},old:${key(1)}`, 'env');
    expect(ring.activeKeyId).toBe('new');
    expect(ring.hashKeyId).toBe('old');
    const purposes = (['payload', 'store', 'guest-hash'] as const).map((p) =>
      subkey(ring, 'new', p).toString('hex'),
    );
    expect(new Set(purposes).size).toBe(3);
    expect(purposes).not.toContain(Buffer.alloc(32, 2).toString('hex'));
    // Prepending a key for rotation leaves the guest-hash subkey as it was.
    expect(subkey(ring, ring.hashKeyId, 'guest-hash')).toEqual(subkey(RING, RING.hashKeyId, 'guest-hash'));
  });
});
