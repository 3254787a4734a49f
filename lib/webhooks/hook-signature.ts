/**
 * Webhook request signatures. A hook's signing secret is `whsec_` and 43 base64url characters;
 * the HMAC key is that string exactly as shown (its UTF-8 bytes). A request carries
 * `X-Skillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; it
 * may hold several `v1=` values (a sender signing with an old and a new secret while it rolls
 * over). A header is accepted when its timestamp is within `SIGNATURE_TOLERANCE_S` of now and
 * one `v1` equals the HMAC under one of the hook's secrets, compared in constant time. Whether
 * the signature was used before is the store's concern (lib/store/owners/webhooks.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-skillflow-signature';
/** How far a signature's timestamp may be from now, either way. */
export const SIGNATURE_TOLERANCE_S = 300;
/** The longest header read; a longer one is refused unread. */
const MAX_HEADER_CHARS = 1024;
/** The most `v1=` values one header may carry. */
const MAX_SIGNATURES = 4;

/** A new hook id: `hk_` and 32 hex characters, not guessable. */
export const newHookId = (): string => `hk_${randomBytes(16).toString('hex')}`;

/** A new signing secret: `whsec_` and 256 random bits in base64url. */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** What a hook id looks like (anything else is not a hook). */
export const HOOK_ID_PATTERN = /^hk_[0-9a-f]{32}$/;

/** The hex HMAC-SHA256 a request with this body, signed at `t`, carries. */
export function hookSignature(secret: string, t: number, body: Buffer | string): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/** A whole header value for `body`, signed now (or at `t`). */
export function signatureHeader(
  secret: string,
  body: Buffer | string,
  t = Math.floor(Date.now() / 1000),
): string {
  return `t=${t},v1=${hookSignature(secret, t, body)}`;
}

interface ParsedHeader {
  t: number;
  v1: Buffer[];
}

function parseHeader(value: string): ParsedHeader | undefined {
  if (value.length > MAX_HEADER_CHARS) return undefined;
  let t: number | undefined;
  const v1: Buffer[] = [];
  for (const part of value.split(',')) {
    const [name, item, ...rest] = part.trim().split('=');
    if (item === undefined || rest.length > 0) return undefined;
    if (name === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(item)) return undefined;
      t = Number(item);
    } else if (name === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(item) || v1.length === MAX_SIGNATURES) return undefined;
      v1.push(Buffer.from(item, 'hex'));
    }
    // Other schemes are ignored, so a sender may add newer ones.
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}

export type SignatureCheck =
  | { ok: true; t: number; signatureHash: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks a request's signature header against the hook's secrets. `signatureHash` identifies the
 * accepted signature (a SHA-256 of its timestamp and HMAC) for the replay check.
 */
export function checkSignature(
  header: string | undefined,
  body: Buffer,
  secrets: readonly string[],
  nowMs: number,
): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowMs / 1000 - parsed.t) > SIGNATURE_TOLERANCE_S) return { ok: false, reason: 'stale' };
  for (const secret of secrets) {
    const expected = Buffer.from(hookSignature(secret, parsed.t, body), 'hex');
    for (const given of parsed.v1) {
      if (timingSafeEqual(expected, given)) {
        const signatureHash = createHash('sha256').update(`${parsed.t}.`).update(expected).digest('hex');
        return { ok: true, t: parsed.t, signatureHash };
      }
    }
  }
  return { ok: false, reason: 'mismatch' };
}
