/**
 * Browser-encrypted workspace results (POST /v1/apps/workspace/results). The upload is bound to
 * the owner the browser encrypted for; rows are written by their owner,
 * lib/store/owners/workspace-results.ts.
 */
import type { Keyring } from '../../lib/crypto/keyring.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { saveWorkspaceResult } from '../../lib/store/owners/workspace-results.js';

/** What an upload stored; `created` is false when it replaced an earlier upload of the root. */
export interface StoredWorkspaceResult {
  resultId: string;
  created: boolean;
  storedAt: Date;
}

/** Stores the browser-encrypted uploads of the workspace app. */
export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
  ) {}

  /** Stores the owner's upload for a root; EXPECTED_USER_MISMATCH when it was meant for someone else. */
  async saveResults(
    ownerId: string,
    upload: { expectedUserId: string; rootId: string; childCount: number; payload: unknown },
  ): Promise<StoredWorkspaceResult> {
    if (upload.expectedUserId !== ownerId)
      throw new SkillflowError('EXPECTED_USER_MISMATCH', undefined, { field: 'expected_user_id' });
    const now = new Date();
    const row = await saveWorkspaceResult(this.store, this.keyring, {
      ownerId,
      rootId: upload.rootId,
      childCount: upload.childCount,
      payload: upload.payload,
      now,
    });
    return { resultId: row.id, created: row.inserted, storedAt: now };
  }
}
