/**
 * The skills framework's contracts. An app's definition (activities/apps/<app>/app.ts, see
 * define.ts) declares the app and its skills' metadata; each skill's factory returns a
 * {@link SkillImplementation}.
 */
import type { z } from 'zod';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import type { SecretStore } from '../../lib/secrets.js';
import type { ProviderUse } from '../../lib/limits/provider-limits.js';
import type { Store } from '../../lib/store/db.js';
import type { ResolvedPolicy } from '../policy.js';
import type { SkillManifest } from './manifest.js';

export type { AppManifest, SkillManifest } from './manifest.js';

/** What the registry is loaded with: the whole configuration and the process's shared parts. */
export interface RegistryContext {
  config: Config;
  logger: Logger;
  secrets: SecretStore;
  /** The platform store, for skills that cache public data in it; absent in some tests. */
  store?: Store;
}

/**
 * Everything a skill may need from the platform. No user, chat or embed context. `config` is
 * the slice its app selected (`defineApp({ config })`); `services` are the app's own long-lived
 * parts (an upstream client with its cache and budget), built once per registry by the app's
 * `defineApp({ services })` and handed to each of its skills and its routes.
 */
export type Platform<C = Config, S = undefined> = Omit<RegistryContext, 'config'> & {
  config: C;
} & (S extends undefined ? { services?: undefined } : { services: S });

/** One provider a call will use (the provider limits count requests per provider, skill and model). */
export type { ProviderUse };

/** Counts and limits one call's upstream requests (activities/runtime/upstream-meter.ts). */
export interface UpstreamMeter {
  /**
   * Called right before one request to `provider` (`model` for model providers) is sent.
   * Rejects with UPSTREAM_RATE_LIMITED (with `retryAfterMs`) when our own limit for it is used
   * up; the request must then not be sent. Resolves once it is counted.
   */
  charge(provider: string, model?: string): Promise<void>;
  /** Requests sent so far, per provider. */
  sent(): Record<string, number>;
  /** Requests sent so far, all providers together. */
  total(): number;
  /** Adds one answered decision request's estimated input tokens and cost (relevance ranking). */
  addDecisionUsage(usage: { input_tokens: number; cost_usd: number }): void;
  /** Decision usage of this call so far, recorded on its usage record. */
  decisionUsage(): { input_tokens: number; cost_usd: number };
}

/** Per-invocation context. */
export interface SkillContext {
  /** Aborts on cancellation or deadline. */
  signal: AbortSignal;
  /** Records liveness for long activities; a no-op outside Temporal. */
  heartbeat: (details?: unknown) => void;
  /**
   * True on the anonymous in-process route: the call must never wait for an upstream's
   * Retry-After; an upstream 429 ends it at once.
   */
  anonymous: boolean;
  /** Every upstream request is charged here right before it is sent (activities/runtime/upstream-meter.ts). */
  meter: UpstreamMeter;
}

export interface SkillImplementation<I = unknown, O = unknown, W = unknown> {
  /** Full input: the requests envelope, `{ requests: [item, ...] }`. */
  input: z.ZodType<I>;
  /** Schema of one request item (for the details route and JSON Schema generation). */
  requestItem: z.ZodType;
  /** Defaults applied to an omitted item field, for the details route. */
  defaults: Record<string, unknown>;
  /** Full output (the REST response body without previews). */
  output: z.ZodType<O>;
  /** Workflow-visible output (what later steps may reference), e.g. results/result_count/raw. */
  workflowOutput: z.ZodType<W>;
  run: (input: I, ctx: SkillContext) => Promise<O>;
  toWorkflowOutput: (output: O) => W;
  /** Short previews for a quick REST response. */
  previews: (output: O) => unknown[];
  /**
   * The providers (and models) a call with this input will use, for the provider-limit check
   * before dispatch. Default: every provider of the manifest.
   */
  providerUses?: (input: I) => ProviderUse[];
  /**
   * The request items of a completed call that cost credits (an item answered
   * from a cache costs nothing). Default: every request item.
   */
  billableItems?: (output: O) => number;
  /**
   * A long-running skill's own file for an embed format (e.g. an SVG picture as `preview`);
   * undefined (or no hook) serves the default JSON of that format (api/routes/embeds.ts).
   */
  embedFile?: (format: EmbedFormat, output: O) => EmbedFile | undefined;
  /**
   * A generated asset of a long-running skill's output (POST /v1/assets/download-links): the
   * `design`-th schematic or parts list; undefined when the output has no such file. Every
   * skill's embed also has its `original` output, served without this hook.
   */
  assetFile?: (asset: SkillAsset, output: O, design: number) => AssetFile | undefined;
}

/** The generated assets a skill may serve besides its `original` output. */
export type SkillAsset = 'schematic' | 'parts';

/** One generated asset file, downloaded as `<embed id>.<asset>[.<design>].<extension>`. */
export interface AssetFile extends EmbedFile {
  extension: string;
}

/** The formats of GET /v1/embeds/{embed_id}/file. */
export type EmbedFormat = 'preview' | 'full' | 'original';

/** One embed file a skill serves itself. */
export interface EmbedFile {
  contentType: string;
  body: string;
}

export interface LoadedSkill {
  manifest: SkillManifest;
  /** The manifest's policy profile, resolved at registry load. */
  policy: ResolvedPolicy;
  /** Undefined when the implementation failed to load (the skill then answers 404). */
  impl: SkillImplementation | undefined;
  loadError: string | undefined;
}
