/**
 * Every sealed column of the platform store, with the context its values are bound to
 * (lib/crypto/sealed-value.ts). Owner modules seal and open through these, and the
 * re-encryption command walks the same list, so a new sealed column is added in one place.
 */
import type { SealContext } from '../crypto/sealed-value.js';

/** The context of each sealed cell. */
export const sealedCell = {
  chatMessage: (id: string, owner: string): SealContext => ({
    table: 'chat_messages',
    column: 'content_sealed',
    row: id,
    owner,
  }),
  chatWebhookUrl: (chatId: string, owner: string): SealContext => ({
    table: 'chats',
    column: 'webhook_url_sealed',
    row: chatId,
    owner,
  }),
  embed: (id: string, owner: string): SealContext => ({
    table: 'embeds',
    column: 'content_sealed',
    row: id,
    owner,
  }),
  /** Keyed by the root id: a replacement upload keeps the row id, the (owner, root) is unique. */
  workspaceResult: (rootId: string, owner: string): SealContext => ({
    table: 'workspace_results',
    column: 'payload_sealed',
    row: rootId,
    owner,
  }),
  definitionSource: (definitionId: string, version: number, owner: string): SealContext => ({
    table: 'definition_versions',
    column: 'source_sealed',
    row: `${definitionId}/${version}`,
    owner,
  }),
  definitionPlan: (definitionId: string, version: number, owner: string): SealContext => ({
    table: 'definition_versions',
    column: 'plan_sealed',
    row: `${definitionId}/${version}`,
    owner,
  }),
  /** Keyed by the key hash (the row's primary key). */
  idempotentAnswer: (keyHash: string, owner: string): SealContext => ({
    table: 'idempotency_keys',
    column: 'answer_sealed',
    row: keyHash,
    owner,
  }),
  /** A webhook's signing secrets and pinned children, keyed by its hook id. */
  webhook: (
    hookId: string,
    owner: string,
    column: 'secret_sealed' | 'previous_secret_sealed' | 'children_sealed',
  ): SealContext => ({
    table: 'webhooks',
    column,
    row: hookId,
    owner,
  }),
};
