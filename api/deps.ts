/** What the API needs from the rest of the process, built once at boot and passed down. */
import type { Registry } from '../activities/registry/registry.js';
import type { Config } from '../lib/config.js';
import type { Keyring } from '../lib/crypto/keyring.js';
import type { Limits } from '../lib/limits/index.js';
import type { Logger } from '../lib/logger.js';
import type { SecretStore } from '../lib/secrets.js';
import type { Store } from '../lib/store/db.js';
import type { ResolveHost } from '../lib/net/webhook.js';
import type { TemporalClient } from '../lib/temporal/client.js';

export interface ApiDeps {
  config: Config;
  logger: Logger;
  store: Store;
  temporal: TemporalClient;
  registry: Registry;
  keyring: Keyring;
  secrets: SecretStore;
  /** Every limit of the process (lib/limits/index.ts): the platform's, shared with its worker. */
  limits: Limits;
  /** Resolves chat webhook hosts; the system resolver when unset (tests inject a fixed table). */
  resolveHost?: ResolveHost;
}
