/**
 * Versioned migrations, applied in name order. Never edit a migration that has shipped: add a
 * new one. Each is plain PostgreSQL SQL that also runs on PGlite.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { m0001PlatformBase } from './0001-platform-base.js';
import { m0002EmbedsTeams } from './0002-embeds-teams.js';
import { m0003LimitsWorkspace } from './0003-limits-workspace.js';
import { m0004CallQueueUsage } from './0004-call-queue-usage.js';
import { m0005PowerCache } from './0005-power-cache.js';
import { m0006DecisionCost } from './0006-decision-cost.js';
import { m0007ChatsPerOwner } from './0007-chats-per-owner.js';
import { m0008IdempotencyKeys } from './0008-idempotency-keys.js';
import { m0009EventIndex } from './0009-event-index.js';
import { m0010Webhooks } from './0010-webhooks.js';
import { m0011LimitSettings } from './0011-limit-settings.js';
import { m0012IdempotencyTaskSeed } from './0012-idempotency-task-seed.js';
import { m0013WebSessions } from './0013-web-sessions.js';
import { m0014ChatKeys } from './0014-chat-keys.js';

const migrations: Record<string, Migration> = {
  '0001-platform-base': m0001PlatformBase,
  '0002-embeds-teams': m0002EmbedsTeams,
  '0003-limits-workspace': m0003LimitsWorkspace,
  '0004-call-queue-usage': m0004CallQueueUsage,
  '0005-power-cache': m0005PowerCache,
  '0006-decision-cost': m0006DecisionCost,
  '0007-chats-per-owner': m0007ChatsPerOwner,
  '0008-idempotency-keys': m0008IdempotencyKeys,
  '0009-event-index': m0009EventIndex,
  '0010-webhooks': m0010Webhooks,
  '0011-limit-settings': m0011LimitSettings,
  '0012-idempotency-task-seed': m0012IdempotencyTaskSeed,
  '0013-web-sessions': m0013WebSessions,
  '0014-chat-keys': m0014ChatKeys,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
