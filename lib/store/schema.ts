/** Kysely table types; keep in step with lib/store/migrations/. */
import type { ColumnType, Generated } from 'kysely';

/** Defaults to now() on insert, so optional there. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ApiKeysTable {
  id: string;
  name: string;
  token_hash: string;
  scopes: ColumnType<string[], string, string>;
  tier: Generated<string>;
  owner_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface WebSessionsTable {
  id: string;
  owner_id: string;
  key_id: string;
  token_hash: string | null;
  previous_token_hash: string | null;
  previous_valid_until: Timestamp | null;
  code_hash: string | null;
  code_expires_at: Timestamp | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp;
  rotated_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface DefinitionsTable {
  id: string;
  owner_id: string;
  current_version: number;
  trigger_type: string;
  /** A keyed hash of the event trigger's name; null for other triggers. */
  event_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EventWaitsTable {
  /** `<workflow id>/<step id>`. */
  id: string;
  owner_id: string;
  event_key: string;
  match_fields: string;
  match_hash: string;
  workflow_id: string;
  step_id: string;
  expires_at: Timestamp;
  created_at: Generated<Timestamp>;
}

export interface WebhooksTable {
  hook_id: string;
  owner_id: string;
  definition_id: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_expires_at: Timestamp | null;
  children_sealed: string | null;
  created_at: Generated<Timestamp>;
  rotated_at: Timestamp;
}

export interface WebhookSignaturesTable {
  hook_id: string;
  /** SHA-256 of the accepted signature header's timestamp and HMAC. */
  signature_hash: string;
  expires_at: Timestamp;
}

export interface DefinitionVersionsTable {
  definition_id: string;
  version: number;
  source_sealed: string;
  plan_sealed: string;
  created_at: Timestamp;
}

export interface ChatsTable {
  chat_id: string;
  owner_id: string;
  focus_mode: string | null;
  webhook_url_sealed: string | null;
  updated_at: Timestamp;
}

export interface ChatMessagesTable {
  id: string;
  chat_id: string;
  owner_id: string;
  task_id: string | null;
  step_id: string | null;
  /** Server-sealed content: only in the development mode CHAT_SERVER_SEALED. */
  content_sealed: string | null;
  /** JSON list of `{ key_id, ciphertext }`: the content sealed to each of the owner's chat keys. */
  content_to_keys: string | null;
  created_at: Timestamp;
  webhook_delivered_at: Timestamp | null;
}

export interface ChatKeysTable {
  id: string;
  owner_id: string;
  /** An X25519 public key, standard base64 of 32 bytes. */
  public_key: string;
  label: string | null;
  created_at: Timestamp;
}

export interface EmbedsTable {
  id: string;
  owner_id: string;
  task_id: string;
  skill: string;
  status: string;
  content_sealed: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamsTable {
  id: string;
  name: string;
  created_at: Timestamp;
}

export interface TeamMembersTable {
  team_id: string;
  owner_id: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  can_spend: boolean;
}

export interface RateLimitsTable {
  key: string;
  points: number;
  /** Epoch milliseconds (bigint); null = never expires. */
  expire: ColumnType<string | number | null, number | null, number | null>;
}

export interface WorkspaceResultsTable {
  id: string;
  owner_id: string;
  root_id: string;
  child_count: number;
  payload_sealed: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SkillCallQueueTable {
  task_id: string;
  key_id: string;
  owner_id: string;
  run_at: ColumnType<Date, Date | string, Date | string>;
  created_at: Timestamp;
}

export interface UsageRecordsTable {
  id: string;
  task_id: string;
  owner_id: string;
  key_id: string;
  team_id: string | null;
  /** `owner:<owner id>` or `team:<team id>`: who is charged. */
  billed_to: string;
  skill: string;
  request_items: number;
  /** numeric: PGlite and pg return it as a string. */
  credits: ColumnType<string | number, number, number>;
  queued: Generated<boolean>;
  /** Estimated input tokens of the decision requests this record paid for. */
  decision_input_tokens: Generated<number>;
  /** numeric USD; PGlite and pg return it as a string. */
  decision_cost_usd: ColumnType<string | number, number | undefined, number>;
  created_at: Timestamp;
}

/** Power-design search results by normalised requirement (public data, not user text). */
export interface PowerDesignCacheTable {
  payload_key: string;
  solutions: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** Claimed Idempotency-Keys: hashes and a sealed answer only (lib/store/owners/idempotency-keys.ts). */
export interface IdempotencyKeysTable {
  key_hash: string;
  owner_id: string;
  request_hash: string;
  answer_sealed: string | null;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  /** A claim's random id (a UUID), kept when the same request takes over an unanswered claim. */
  task_seed: string | null;
}

/** The limit settings every process sharing the store enforces (lib/store/owners/limit-settings.ts). */
export interface LimitSettingsTable {
  name: string;
  value: string;
  recorded_at: Timestamp;
}

export interface Database {
  idempotency_keys: IdempotencyKeysTable;
  power_design_cache: PowerDesignCacheTable;
  skill_call_queue: SkillCallQueueTable;
  usage_records: UsageRecordsTable;
  rate_limits: RateLimitsTable;
  limit_settings: LimitSettingsTable;
  workspace_results: WorkspaceResultsTable;
  embeds: EmbedsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  api_keys: ApiKeysTable;
  web_sessions: WebSessionsTable;
  definitions: DefinitionsTable;
  definition_versions: DefinitionVersionsTable;
  chats: ChatsTable;
  chat_messages: ChatMessagesTable;
  chat_keys: ChatKeysTable;
  event_waits: EventWaitsTable;
  webhooks: WebhooksTable;
  webhook_signatures: WebhookSignaturesTable;
}
