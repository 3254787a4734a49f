/**
 * The pure parts of the Idempotency-Key support: the request's canonical form (key order and
 * spacing do not count; a text body counts as JSON when it is JSON), the header's rule at its
 * bounds, and the merge with a route's own headers schema.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson, fingerprintOf, IdempotencyHeaders, withIdempotencyHeader } from './idempotency.js';

describe('canonical request form', () => {
  it('sorts object keys at every depth, keeps array order and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('gives a JSON text body and its parsed value the same fingerprint; other text counts as itself', () => {
    const parsed = fingerprintOf({ inputs: { word: 'cedar', n: 1 } }, {});
    expect(fingerprintOf(' { "inputs": { "n": 1, "word": "cedar" } } ', {})).toBe(parsed);
    expect(fingerprintOf('{"inputs":{"word":"birch","n":1}}', {})).not.toBe(parsed);
    expect(fingerprintOf('word: cedar', {})).toBe('{"body":{"text":"word: cedar"},"query":{}}');
    expect(fingerprintOf('', undefined)).toBe('{"body":null,"query":{}}');
  });

  it('counts the query: another team_id is another request', () => {
    const body = { requests: [{ text: 'a' }] };
    expect(fingerprintOf(body, { team_id: 't1' })).not.toBe(fingerprintOf(body, { team_id: 't2' }));
  });
});

describe('the Idempotency-Key header', () => {
  const valid = (key: string) => IdempotencyHeaders.safeParse({ 'idempotency-key': key }).success;

  it('takes 1-255 printable ASCII characters and nothing else', () => {
    expect(valid('a')).toBe(true);
    expect(valid(' ~'.repeat(127) + 'a')).toBe(true);
    expect(valid('x'.repeat(256))).toBe(false);
    expect(valid('')).toBe(false);
    for (const bad of ['a\tb', 'caf\u00e9', '\x7f', 'line\nbreak']) expect(valid(bad)).toBe(false);
    expect(IdempotencyHeaders.safeParse({ authorization: 'Bearer x' }).data).toEqual({
      authorization: 'Bearer x',
    });
  });

  it("joins a route's own headers schema", () => {
    const merged = withIdempotencyHeader(z.looseObject({ 'x-signature': z.string() }));
    expect(merged.safeParse({ 'x-signature': 's', 'idempotency-key': 'k' }).success).toBe(true);
    expect(merged.safeParse({ 'x-signature': 's', 'idempotency-key': '' }).success).toBe(false);
    expect(merged.safeParse({ 'idempotency-key': 'k' }).success).toBe(false);
    expect(() => withIdempotencyHeader({ type: 'object' })).toThrow('zod object');
  });
});
