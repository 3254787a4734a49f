/**
 * Signing a request to a webhook trigger's URL, for senders written in JavaScript (and tests):
 * `X-Skillflow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, the
 * HMAC key being the signing secret exactly as the API showed it. Web Crypto, so it runs in Node
 * 20 and in browsers alike. Sign the exact bytes you send: a re-serialised body does not verify.
 */

/** The header's name. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Skillflow-Signature';

/** The header's value for `body`, signed now (or at `timestamp`, in unix seconds). */
export async function signWebhook(
  secret: string,
  body: string | Uint8Array,
  timestamp: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix);
  signed.set(bytes, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return `t=${timestamp},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
