/**
 * Download links for generated assets: a sealed token `v2.<key id>.<base64url>`, its claims
 * encrypted and authenticated with AES-256-GCM (lib/crypto/aead.ts) under the keyring's
 * `download-link` subkey: bound to one owner, one embed, one asset (and design) and the API key
 * that asked for it, with an expiry. The random IV makes every link different and none can be
 * guessed or forged; the encryption keeps what it names (owner, embed, key) from whoever holds
 * the link. The token is the whole credential: it travels in the download URL.
 * A token that is malformed, oversized, sealed under an unknown key or tampered with is
 * `invalid`; an authentic one past its expiry is `expired`.
 */
import { z } from 'zod';
import { open, seal } from './aead.js';
import type { Keyring } from './keyring.js';

/** Well above any token this module seals (about 330 characters), below the router's path limit. */
export const MAX_DOWNLOAD_TOKEN_CHARS = 480;

const VERSION = 'v2';
/** Bound as associated data: a blob sealed for another use never opens as a link. */
const CONTEXT = 'download-link';

/** The generated assets of an embed: its original output, a power design's schematic and parts list. */
export const ASSET_NAMES = ['original', 'schematic', 'parts'] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

const ClaimsSchema = z
  .object({
    /** Owner id. */
    o: z.string().min(1).max(64),
    /** Embed id. */
    e: z.string().min(1).max(64),
    a: z.enum(ASSET_NAMES),
    /** Design index (0 for assets with one file). */
    d: z.number().int().min(0).max(99),
    /** The API key that asked for the link. */
    k: z.string().min(1).max(64),
    /** Expiry, milliseconds since the epoch. */
    exp: z.number().int(),
  })
  .strict();
type Claims = z.infer<typeof ClaimsSchema>;

/** What a link names. */
export interface DownloadLinkClaims {
  ownerId: string;
  embedId: string;
  asset: AssetName;
  design: number;
  keyId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export type DownloadLinkCheck =
  { ok: true; claims: DownloadLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

export function signDownloadLink(keyring: Keyring, claims: DownloadLinkClaims): string {
  const c: Claims = {
    o: claims.ownerId,
    e: claims.embedId,
    a: claims.asset,
    d: claims.design,
    k: claims.keyId,
    exp: claims.expiresAt,
  };
  const { keyId, data } = seal(keyring, 'download-link', Buffer.from(JSON.stringify(c), 'utf8'), CONTEXT);
  return `${VERSION}.${keyId}.${data.toString('base64url')}`;
}

/** The claims of an authentic token (not yet checked for shape or expiry); undefined otherwise. */
function openClaims(keyring: Keyring, token: unknown): unknown {
  if (typeof token !== 'string' || token.length > MAX_DOWNLOAD_TOKEN_CHARS) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return undefined;
  const [, keyId = '', sealed = ''] = parts;
  if (!keyring.keys.has(keyId)) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  // Only the exact encoding it was given: base64url decoding skips stray and trailing characters.
  if (bytes.toString('base64url') !== sealed) return undefined;
  try {
    return JSON.parse(open(keyring, 'download-link', keyId, bytes, CONTEXT).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function verifyDownloadLink(keyring: Keyring, token: unknown, nowMs: number): DownloadLinkCheck {
  const parsed = ClaimsSchema.safeParse(openClaims(keyring, token));
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const c = parsed.data;
  if (c.exp <= nowMs) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: { ownerId: c.o, embedId: c.e, asset: c.a, design: c.d, keyId: c.k, expiresAt: c.exp },
  };
}
