/**
 * Sealed store values: JSON sealed into one text column as `v2.<keyId>.<base64>`, under the
 * store subkey, with the table, column, row and owner bound as associated data. A value copied
 * to another row, column, table or owner does not open.
 *
 * Values from before this format (`<keyId>.<base64>`, the raw key, no context) are refused with
 * {@link LegacySealedValueError}; `npm run store:reencrypt` re-seals them (lib/store/reencrypt.ts).
 */
import { DecryptionError, open, seal } from './aead.js';
import type { Keyring } from './keyring.js';

/** Where a sealed value lives. `row` is the row's primary key (joined with `/` when composite). */
export interface SealContext {
  table: string;
  column: string;
  row: string;
  owner: string;
}

const PREFIX = 'v2.';

/** Thrown for a value sealed in the old format. */
export class LegacySealedValueError extends DecryptionError {
  constructor() {
    super('the value is sealed in the old format; run `npm run store:reencrypt`');
    this.name = 'LegacySealedValueError';
  }
}

function contextString(ctx: SealContext): string {
  return ['store', ctx.table, ctx.column, ctx.row, ctx.owner].join('\0');
}

/** Seals a JSON value for one cell of the store. */
export function sealJson(keyring: Keyring, value: unknown, ctx: SealContext): string {
  const { keyId, data } = seal(
    keyring,
    'store',
    Buffer.from(JSON.stringify(value), 'utf8'),
    contextString(ctx),
  );
  return `${PREFIX}${keyId}.${data.toString('base64')}`;
}

/** Whether a sealed value is in the old, context-free format. */
export function isLegacySealed(sealed: string): boolean {
  return !sealed.startsWith(PREFIX) || sealed.indexOf('.', PREFIX.length) < 0;
}

/** The key id a value was sealed under. */
export function sealedKeyId(sealed: string): string {
  return isLegacySealed(sealed)
    ? sealed.slice(0, sealed.indexOf('.'))
    : sealed.slice(PREFIX.length, sealed.indexOf('.', PREFIX.length));
}

/** Opens a value sealed by {@link sealJson} for the same cell. */
export function openJson<T = unknown>(keyring: Keyring, sealed: string, ctx: SealContext): T {
  if (isLegacySealed(sealed)) throw new LegacySealedValueError();
  const dot = sealed.indexOf('.', PREFIX.length);
  const plain = open(
    keyring,
    'store',
    sealed.slice(PREFIX.length, dot),
    Buffer.from(sealed.slice(dot + 1), 'base64'),
    contextString(ctx),
  );
  return JSON.parse(plain.toString('utf8')) as T;
}

/** Opens an old-format value (raw key, no context). Only the re-encryption command uses this. */
export function openLegacyJson(keyring: Keyring, sealed: string): unknown {
  const dot = sealed.indexOf('.');
  if (dot <= 0) throw new DecryptionError('not a sealed value');
  const plain = open(keyring, 'legacy', sealed.slice(0, dot), Buffer.from(sealed.slice(dot + 1), 'base64'));
  return JSON.parse(plain.toString('utf8')) as unknown;
}
