/**
 * Download links for generated assets: a signed token (lib/crypto/signed-token.ts) under the
 * keyring's `download-link` subkey, bound to one owner, one embed, one asset (and design) and the
 * API key that asked for it, with an expiry and a random nonce (so no two links are alike and
 * none can be guessed). The token is the whole credential: it travels in the download URL.
 * A token that is malformed, oversized, signed by an unknown key or tampered with is `invalid`;
 * an authentic one past its expiry is `expired`.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Keyring } from './keyring.js';
import { openToken, signToken } from './signed-token.js';

/** Well above any token this module signs (about 350 characters), below the router's path limit. */
export const MAX_DOWNLOAD_TOKEN_CHARS = 480;

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
    n: z.string().min(16).max(64),
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
    n: randomBytes(16).toString('base64url'),
  };
  return signToken(keyring, 'download-link', c);
}

export function verifyDownloadLink(keyring: Keyring, token: unknown, nowMs: number): DownloadLinkCheck {
  const parsed = ClaimsSchema.safeParse(openToken(keyring, 'download-link', token, MAX_DOWNLOAD_TOKEN_CHARS));
  if (!parsed.success) return { ok: false, reason: 'invalid' };
  const c = parsed.data;
  if (c.exp <= nowMs) return { ok: false, reason: 'expired' };
  return {
    ok: true,
    claims: { ownerId: c.o, embedId: c.e, asset: c.a, design: c.d, keyId: c.k, expiresAt: c.exp },
  };
}
