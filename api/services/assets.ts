/**
 * Generated-asset download links (/v1/assets): a fresh signed URL for one asset of an embed the
 * caller may read, and the bytes behind such a URL. The caller may read its own embeds and, when
 * the call that made one was billed to a team (team execution), the embeds of the team's calls
 * while it is a member. Both ends check this: a link for an embed the caller may not read, or a
 * missing one, is the same 404 as the embed route's. At download the token is checked (403
 * DOWNLOAD_LINK_INVALID or DOWNLOAD_LINK_EXPIRED), then the key that asked for it must still be
 * live (a revoked key's links die with it), and the right to the embed is checked again for
 * that caller (a member who left the team can no longer download).
 */
import type { Registry } from '../../activities/registry/registry.js';
import type { AssetFile } from '../../activities/registry/types.js';
import {
  signDownloadLink,
  verifyDownloadLink,
  type AssetName,
  type DownloadLinkClaims,
} from '../../lib/crypto/download-link.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Principal } from '../../lib/keys.js';
import type { Store } from '../../lib/store/db.js';
import { apiKeyById } from '../../lib/store/owners/api-keys.js';
import { requireSkill } from '../scopes.js';
import type { EmbedsService } from './embeds.js';

/** The most designs one long-running electronics call returns. */
export const MAX_DESIGN_INDEX = 4;

/** What a link names within an embed. */
export interface AssetRef {
  embedId: string;
  asset: AssetName;
  design: number;
}

/** One file to download. */
export interface Download {
  contentType: string;
  body: string;
  filename: string;
}

export interface DownloadLink {
  url: string;
  expires_at: string;
}

export class AssetsService {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly registry: Registry,
    private readonly embeds: EmbedsService,
    /** The team a task's call was billed to (lib/store/owners/usage-records.ts). */
    private readonly teamOfTask: (taskId: string, ownerId: string) => Promise<string | undefined>,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A fresh link to one asset of the principal's embed, under `origin` (the API's base URL). */
  async createLink(p: Principal, ref: AssetRef, origin: string): Promise<DownloadLink> {
    await this.file(p.ownerId, ref, (appId, skillId) => requireSkill(p, appId, skillId));
    const expiresAt = this.now() + this.ttlSeconds * 1000;
    const claims: DownloadLinkClaims = { ...ref, ownerId: p.ownerId, keyId: p.keyId, expiresAt };
    const token = signDownloadLink(this.keyring, claims);
    return { url: `${origin}/v1/assets/download/${token}`, expires_at: new Date(expiresAt).toISOString() };
  }

  /** The file behind a link's token. */
  async download(token: string): Promise<Download> {
    const check = verifyDownloadLink(this.keyring, token, this.now());
    if (!check.ok)
      throw new SkillflowError(
        check.reason === 'expired' ? 'DOWNLOAD_LINK_EXPIRED' : 'DOWNLOAD_LINK_INVALID',
      );
    const { claims } = check;
    const key = await apiKeyById(this.store, claims.keyId);
    if (!key || key.revokedAt || key.ownerId !== claims.ownerId)
      throw new SkillflowError('DOWNLOAD_LINK_INVALID');
    try {
      return await this.file(claims.ownerId, claims, () => undefined);
    } catch (err) {
      // The embed is gone, or the caller may no longer read it: the link is dead, like a revoked key's.
      if (err instanceof SkillflowError && err.code === 'NOT_FOUND')
        throw new SkillflowError('DOWNLOAD_LINK_INVALID');
      throw err;
    }
  }

  /** The asset of an embed the owner may read; `authorize` sees the embed's skill before anything is read. */
  private async file(
    ownerId: string,
    ref: AssetRef,
    authorize: (appId: string, skillId: string) => unknown,
  ): Promise<Download> {
    const row = await this.embeds.findShared(ownerId, ref.embedId, this.teamOfTask);
    const [appId = '', skillId = ''] = row.skill.split('.');
    authorize(appId, skillId);
    const { output } = this.embeds.result(row);
    const own = this.registry.available(appId, skillId)?.impl.assetFile;
    const file: AssetFile | undefined =
      ref.asset === 'original'
        ? ref.design === 0
          ? {
              contentType: 'application/json; charset=utf-8',
              body: JSON.stringify(output),
              extension: 'json',
            }
          : undefined
        : own?.(ref.asset, output, ref.design);
    if (!file) throw unavailableAsset();
    const design = ref.asset === 'original' ? '' : `.${ref.design}`;
    return {
      contentType: file.contentType,
      body: file.body,
      filename: `${row.id}.${ref.asset}${design}.${file.extension}`,
    };
  }
}

/** An asset (or design) this embed does not have; never quotes what the client sent. */
function unavailableAsset(): SkillflowError {
  return new SkillflowError('INVALID_PARAMETER', 'This embed has no file for that asset and design.', {
    issues: [{ path: 'asset', message: 'not available for this embed', location: 'body' }],
  });
}
