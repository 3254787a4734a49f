/**
 * Keyed hashes for the event index, so the store never holds an event name or a match value in
 * plaintext: HMAC-SHA256 under the keyring's `event-index` subkey of its hash key (the last,
 * oldest entry, which outlives rotations of the active key, as guest-id hashing does).
 *
 * - `eventKey(name)`: what a definition's event trigger and a waiting step are found by;
 * - `matchHash(name, fields)`: a waiting step's match, over its sorted field names and values.
 *   The API computes the same hash from an event's data for each set of field names in use.
 */
import { createHmac } from 'node:crypto';
import { matchText } from '../../definitions/runtime/event-match.js';
import { subkey, type Keyring } from '../crypto/keyring.js';

function hmac(keyring: Keyring, value: unknown): string {
  return createHmac('sha256', subkey(keyring, keyring.hashKeyId, 'event-index'))
    .update(JSON.stringify(value))
    .digest('base64url');
}

export function eventKey(keyring: Keyring, name: string): string {
  return hmac(keyring, ['event', name]);
}

/** A match's field names, sorted, as the index stores them (names only: never values). */
export function matchFields(match: Readonly<Record<string, string>>): string {
  return Object.keys(match).sort().join(',');
}

export function matchHash(keyring: Keyring, name: string, match: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(match)
    .sort()
    .map((k) => [k, match[k]]);
  return hmac(keyring, ['match', name, pairs]);
}

/**
 * The hash a waiting step with match fields `fields` (as `matchFields` wrote them) would have if
 * this event's data fit it; undefined when a field is missing or not comparable.
 */
export function dataMatchHash(
  keyring: Keyring,
  name: string,
  fields: string,
  data: Readonly<Record<string, unknown>>,
): string | undefined {
  const match: Record<string, string> = {};
  for (const field of fields === '' ? [] : fields.split(',')) {
    const text = Object.hasOwn(data, field) ? matchText(data[field]) : undefined;
    if (text === undefined) return undefined;
    match[field] = text;
  }
  return matchHash(keyring, name, match);
}
