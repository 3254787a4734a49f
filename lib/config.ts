/**
 * The one typed configuration object, parsed once at boot from the environment with zod.
 * Pass it down; never read process.env elsewhere. Every variable is listed in docs/configuration.md.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
/** Unset and empty both mean "not configured". */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = optionalString.pipe(
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
);
/** A whole, non-negative number of credits or requests (0 allows nothing). */
const credits = z.coerce.number().int().min(0).max(100_000_000);
/** A comma-separated list of IP addresses and CIDR ranges (`10.0.0.0/8,::1`); empty = none. */
const cidrList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
  )
  .refine(
    (entries) =>
      entries.every((e) => {
        const [addr = '', prefix, extra] = e.split('/');
        const family = isIP(addr);
        if (family === 0 || extra !== undefined) return false;
        if (prefix === undefined) return true;
        const n = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
        return n >= 0 && n <= (family === 4 ? 32 : 128);
      }),
    'must be comma-separated IP addresses or CIDR ranges, e.g. 10.0.0.0/8,fd00::/8',
  );
/** An http(s) URL template whose host or path holds `{language}` (the encyclopedia edition). */
const languageUrlTemplate = optionalString.pipe(
  z
    .string()
    .refine((v) => v.includes('{language}'), 'must contain {language}')
    .refine((v) => URL.canParse(v.replaceAll('{language}', 'en')), 'must be an http(s) URL template')
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL template')
    .optional(),
);
/** A comma-separated list of host names or `host:port` entries; empty = none. */
const hostList = z
  .string()
  .default('upload.wikimedia.org')
  .transform((v) =>
    v
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine(
    (hosts) => hosts.every((h) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(h)),
    'must be comma-separated host names, optionally with :port',
  );
const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8080),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('.data'),

  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('skillflow'),
  TEMPORAL_UI_URL: optionalUrl,
  TEMPORAL_CLI_PATH: optionalString,
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),

  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),

  SKILLFLOW_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(
        /^(?:(?:[A-Za-z0-9_-]{1,32}:)?[A-Za-z0-9+/]{43}=)(?:,(?:[A-Za-z0-9_-]{1,32}:)?[A-Za-z0-9+/]{43}=)*$/,
        'must be comma-separated entries of 32 random bytes in base64, each optionally prefixed by "<key-id>:"',
      )
      .optional(),
  ),
  /** Lets chat webhooks reach loopback receivers (local development, tests); refused in production. */
  WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
  /** Chat content sealed by the server (readable through the API) instead of to the owner's chat keys; development only. */
  CHAT_SERVER_SEALED: bool.default(false),
  CODEC_CORS_ORIGINS: z.string().default('http://localhost:8233,http://127.0.0.1:8233'),

  SECRETS_DIR: optionalString,

  SHOP_URL: optionalUrl,
  ICON_URL: optionalUrl,
  ICON_SVG_RATE_LIMIT_PER_MINUTE: credits.default(300),
  ICON_SVG_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  ENCYCLOPEDIA_URL: languageUrlTemplate,
  POWER_URL: optionalUrl,
  POWER_PRODUCT_ORIGIN: z
    .url({ protocol: /^https$/, error: 'must be an https URL' })
    .default('https://www.ti.com'),
  POWER_CACHE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  POWER_SIM_LATENCY_MS: ms(0, 60_000).default(2_500),
  DECISION_URL: optionalUrl,
  DECISION_API_KEY: optionalString,
  DECISION_MODEL: z.string().min(1).default('decision-v1-2026-01'),
  DECISION_SAFEGUARD_MODEL: z.string().min(1).default('safeguard-v1-2026-01'),
  PROXY_URL: optionalUrl,
  ENCYCLOPEDIA_USER_AGENT: z
    .string()
    .min(8)
    .max(300)
    .default('skillflow/0.1 (self-hosted skillflow; set ENCYCLOPEDIA_USER_AGENT to your contact)'),
  ENCYCLOPEDIA_IMAGE_HOSTS: hostList,
  ENCYCLOPEDIA_IMAGE_MAX_BYTES: z.coerce.number().int().min(1024).max(20_000_000).default(2_000_000),
  ENCYCLOPEDIA_TIMEOUT_MS: ms(500, 60_000).default(8_000),
  ENCYCLOPEDIA_OWNER_PER_MINUTE: credits.default(60),
  ENCYCLOPEDIA_IP_PER_MINUTE: credits.default(120),
  ENCYCLOPEDIA_OUTBOUND_PER_MINUTE: credits.default(300),
  ENCYCLOPEDIA_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  ENCYCLOPEDIA_CACHE_ENTRIES: z.coerce.number().int().min(0).max(100_000).default(1_000),
  ENCYCLOPEDIA_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3_600),

  RATE_LIMIT_FREE_PER_MINUTE: credits.default(30),
  RATE_LIMIT_STANDARD_PER_MINUTE: credits.default(120),
  RATE_LIMIT_PRO_PER_MINUTE: credits.default(600),
  PROVIDER_RATE_LIMITS: z
    .string()
    .regex(
      /^$|^([a-z0-9_*-]{1,64}=\d{1,7}\/\d{1,7})(,[a-z0-9_*-]{1,64}=\d{1,7}\/\d{1,7})*$/,
      'must be comma-separated <provider>=<requests>/<seconds> entries (provider * = every provider)',
    )
    .default('shop=600/60,decision=120/60,power=20/60,*=300/60'),
  ANONYMOUS_IDENTITY_DAILY_CREDITS: credits.default(20),
  ANONYMOUS_IDENTITY_WEEKLY_CREDITS: credits.default(60),
  ANONYMOUS_IDENTITY_MONTHLY_CREDITS: credits.default(150),
  ANONYMOUS_IP_DAILY_CREDITS: credits.default(50),
  ANONYMOUS_IP_WEEKLY_CREDITS: credits.default(150),
  ANONYMOUS_IP_MONTHLY_CREDITS: credits.default(400),
  ANONYMOUS_POOL_DAILY_CREDITS: credits.default(5_000),
  ANONYMOUS_POOL_WEEKLY_CREDITS: credits.default(20_000),
  ANONYMOUS_POOL_MONTHLY_CREDITS: credits.default(60_000),

  PUBLIC_RATE_LIMIT_PER_MINUTE: credits.default(60),
  HOOK_RATE_LIMIT_PER_MINUTE: credits.default(120),
  TRUST_PROXY: cidrList,
  HTTP_REQUEST_TIMEOUT_MS: ms(1000, 600_000).default(30_000),
  HTTP_HEADERS_TIMEOUT_MS: ms(1000, 600_000).default(10_000),

  OWNER_MAX_DEFINITIONS: credits.default(200),
  OWNER_MAX_SCHEDULES: credits.default(20),
  OWNER_MAX_RUNNING_RUNS: credits.default(20),
  /** Runs of one owner with a step running at once, the others queued (0: no cap). */
  OWNER_RUN_CONCURRENCY: credits.default(0),
  OWNER_MAX_QUEUED_TASKS: credits.default(50),
  OWNER_PROVIDER_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),

  QUEUE_MAX_PER_KEY: z.coerce.number().int().min(0).max(10_000).default(10),
  API_KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** Workspace sessions: signed out after this long unused, and after the maximum age at the latest. */
  SESSION_IDLE_TIMEOUT_S: z.coerce.number().int().min(60).max(2_592_000).default(43_200),
  SESSION_MAX_AGE_S: z.coerce.number().int().min(300).max(2_592_000).default(604_800),
  /** A session's cookie token is replaced this often (the old one stays valid for 60 s). */
  SESSION_ROTATE_S: z.coerce.number().int().min(10).max(86_400).default(900),
  /** `auto`: the session cookie is `Secure` (and `__Host-` named) when NODE_ENV is production. */
  SESSION_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** One-time workspace sign-in links expire this long after they are made. */
  SIGN_IN_LINK_TTL_S: z.coerce.number().int().min(30).max(3600).default(600),
  /** Lifetime of a generated-asset download link, seconds (at most 5 minutes). */
  DOWNLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(1).max(300).default(300),
  DEFINITIONS_DIR: z.string().min(1).default('definitions/examples'),
  DEFINITIONS_OWNER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an owner id of letters, digits, _ and -')
    .default('owner_dev'),
  RUN_WORKER: bool.default(true),
  /** Workflows the worker keeps in memory (docs/benchmarks.md "Worker memory" for sizing). */
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  RUN_API: bool.default(true),
  START_SIMULATORS: bool.default(true),

  /** Base URL of an OTLP/HTTP receiver; unset (and no traces endpoint) = tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** The traces URL itself (used as given, no `/v1/traces` appended); wins over the base URL. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json'], {
      error: 'must be http/protobuf or http/json (gRPC is not supported)',
    })
    .default('http/protobuf'),
  OTEL_SERVICE_NAME: z.string().trim().min(1).max(200).default('skillflow'),
  OTEL_SDK_DISABLED: bool.default(false),
  /** Store queries at least this slow get a span; faster ones none. */
  TRACE_STORE_QUERY_MIN_MS: z.coerce.number().int().min(0).max(600_000).default(50),
});

export type RawConfig = z.infer<typeof ConfigSchema>;
export type Variable = keyof RawConfig;

/**
 * Which slice each variable belongs to. Every variable is in exactly one slice (checked by
 * lib/config.test.ts); a module receives only the slice it needs. A field keeps its variable's
 * name, so a search for the variable finds every reader.
 */
export const CONFIG_SLICES = {
  process: [
    'NODE_ENV',
    'LOG_LEVEL',
    'LOG_FORMAT',
    'DATA_DIR',
    'RUN_API',
    'RUN_WORKER',
    'START_SIMULATORS',
    'DEFINITIONS_DIR',
    'DEFINITIONS_OWNER_ID',
  ],
  api: [
    'HOST',
    'PORT',
    'PUBLIC_URL',
    'TRUST_PROXY',
    'HTTP_REQUEST_TIMEOUT_MS',
    'HTTP_HEADERS_TIMEOUT_MS',
    'CODEC_CORS_ORIGINS',
    'API_KEY_CACHE_TTL_MS',
    'SESSION_IDLE_TIMEOUT_S',
    'SESSION_MAX_AGE_S',
    'SESSION_ROTATE_S',
    'SESSION_COOKIE_SECURE',
    'SIGN_IN_LINK_TTL_S',
    'DOWNLOAD_LINK_TTL_SECONDS',
  ],
  temporal: [
    'TEMPORAL_ADDRESS',
    'TEMPORAL_NAMESPACE',
    'TEMPORAL_TASK_QUEUE',
    'TEMPORAL_UI_URL',
    'TEMPORAL_CLI_PATH',
    'TEMPORAL_DEV_PORT',
    'TEMPORAL_UI_PORT',
    'WORKER_MAX_CACHED_WORKFLOWS',
  ],
  store: ['DATABASE_URL'],
  security: ['SKILLFLOW_ENCRYPTION_KEY', 'SECRETS_DIR', 'WEBHOOK_ALLOW_LOOPBACK', 'CHAT_SERVER_SEALED'],
  limits: [
    'RATE_LIMIT_FREE_PER_MINUTE',
    'RATE_LIMIT_STANDARD_PER_MINUTE',
    'RATE_LIMIT_PRO_PER_MINUTE',
    'PUBLIC_RATE_LIMIT_PER_MINUTE',
    'HOOK_RATE_LIMIT_PER_MINUTE',
    'PROVIDER_RATE_LIMITS',
    'ANONYMOUS_IDENTITY_DAILY_CREDITS',
    'ANONYMOUS_IDENTITY_WEEKLY_CREDITS',
    'ANONYMOUS_IDENTITY_MONTHLY_CREDITS',
    'ANONYMOUS_IP_DAILY_CREDITS',
    'ANONYMOUS_IP_WEEKLY_CREDITS',
    'ANONYMOUS_IP_MONTHLY_CREDITS',
    'ANONYMOUS_POOL_DAILY_CREDITS',
    'ANONYMOUS_POOL_WEEKLY_CREDITS',
    'ANONYMOUS_POOL_MONTHLY_CREDITS',
    'OWNER_MAX_DEFINITIONS',
    'OWNER_MAX_SCHEDULES',
    'OWNER_MAX_RUNNING_RUNS',
    'OWNER_RUN_CONCURRENCY',
    'OWNER_MAX_QUEUED_TASKS',
    'OWNER_PROVIDER_SHARE_PERCENT',
    'QUEUE_MAX_PER_KEY',
  ],
  decision: ['DECISION_URL', 'DECISION_API_KEY', 'DECISION_MODEL', 'DECISION_SAFEGUARD_MODEL'],
  hosting: ['SHOP_URL', 'PROXY_URL'],
  design: ['ICON_URL', 'ICON_SVG_RATE_LIMIT_PER_MINUTE', 'ICON_SVG_CACHE_BYTES'],
  encyclopedia: [
    'ENCYCLOPEDIA_URL',
    'ENCYCLOPEDIA_USER_AGENT',
    'ENCYCLOPEDIA_IMAGE_HOSTS',
    'ENCYCLOPEDIA_IMAGE_MAX_BYTES',
    'ENCYCLOPEDIA_TIMEOUT_MS',
    'ENCYCLOPEDIA_OWNER_PER_MINUTE',
    'ENCYCLOPEDIA_IP_PER_MINUTE',
    'ENCYCLOPEDIA_OUTBOUND_PER_MINUTE',
    'ENCYCLOPEDIA_MAX_CONCURRENCY',
    'ENCYCLOPEDIA_CACHE_ENTRIES',
    'ENCYCLOPEDIA_CACHE_TTL_SECONDS',
  ],
  tracing: [
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    'OTEL_EXPORTER_OTLP_PROTOCOL',
    'OTEL_SERVICE_NAME',
    'OTEL_SDK_DISABLED',
    'TRACE_STORE_QUERY_MIN_MS',
  ],
  electronics: ['POWER_URL', 'POWER_PRODUCT_ORIGIN', 'POWER_CACHE_TTL_SECONDS', 'POWER_SIM_LATENCY_MS'],
} as const satisfies Record<string, readonly Variable[]>;

type Slices = typeof CONFIG_SLICES;
type SliceOf<K extends keyof Slices> = Pick<RawConfig, Slices[K][number]>;

/** The platform's own slices (the apps' slices are under {@link Config.apps}). */
export type ProcessConfig = SliceOf<'process'> & {
  /** Absolute project root. */
  rootDir: string;
  /** Absolute data directory (DATA_DIR resolved against the project root). */
  dataDir: string;
};
export type ApiConfig = SliceOf<'api'>;
export type TemporalConfig = SliceOf<'temporal'>;
export type StoreConfig = SliceOf<'store'> & { dataDir: string };
export type SecurityConfig = SliceOf<'security'> & { dataDir: string };
export type LimitsConfig = SliceOf<'limits'>;
export type DecisionConfig = SliceOf<'decision'>;
export type TracingConfig = SliceOf<'tracing'>;
export type HostingConfig = SliceOf<'hosting'>;
export type DesignConfig = SliceOf<'design'>;
export type EncyclopediaConfig = SliceOf<'encyclopedia'>;
export type ElectronicsConfig = SliceOf<'electronics'>;

/** The variables of the catalogue's apps, one slice per app id. */
export interface AppsConfig {
  hosting: HostingConfig;
  design: DesignConfig;
  encyclopedia: EncyclopediaConfig;
  electronics: ElectronicsConfig;
}

/** The parsed configuration in typed slices; pass each module only the slice it needs. */
export interface Config {
  process: ProcessConfig;
  api: ApiConfig;
  temporal: TemporalConfig;
  store: StoreConfig;
  security: SecurityConfig;
  limits: LimitsConfig;
  decision: DecisionConfig;
  tracing: TracingConfig;
  apps: AppsConfig;
}

/** Thrown at boot for a bad variable; the message names each offending variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super('Invalid configuration:\n' + problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '..');

/** Parses the environment. Unknown variables are ignored; known ones are validated. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, rootDir = PROJECT_ROOT): Config {
  const known: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) known[key] = env[key];
  const parsed = ConfigSchema.safeParse(known);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({
        variable: String(i.path[0] ?? '(unknown)'),
        // Never echo the value: it may be a secret.
        message: i.message,
      })),
    );
  }
  return sliceConfig({ ...parsed.data, ...productionRules(parsed.data, known) }, rootDir);
}

function pick<K extends keyof Slices>(raw: RawConfig, slice: K): SliceOf<K> {
  const out: Record<string, unknown> = {};
  for (const variable of CONFIG_SLICES[slice]) out[variable] = raw[variable];
  return out as SliceOf<K>;
}

/** Cuts parsed values into the slices. */
export function sliceConfig(raw: RawConfig, rootDir = PROJECT_ROOT): Config {
  const dataDir = path.resolve(rootDir, raw.DATA_DIR);
  return {
    process: { ...pick(raw, 'process'), rootDir, dataDir },
    api: pick(raw, 'api'),
    temporal: pick(raw, 'temporal'),
    store: { ...pick(raw, 'store'), dataDir },
    security: { ...pick(raw, 'security'), dataDir },
    limits: pick(raw, 'limits'),
    decision: pick(raw, 'decision'),
    tracing: pick(raw, 'tracing'),
    apps: {
      hosting: pick(raw, 'hosting'),
      design: pick(raw, 'design'),
      encyclopedia: pick(raw, 'encyclopedia'),
      electronics: pick(raw, 'electronics'),
    },
  };
}

/** The flat variables of a sliced configuration (the inverse of {@link sliceConfig}). */
export function flattenConfig(config: Config): RawConfig {
  const { rootDir: _root, dataDir: _data, ...processVars } = config.process;
  const { dataDir: _store, ...storeVars } = config.store;
  const { dataDir: _security, ...securityVars } = config.security;
  return {
    ...processVars,
    ...config.api,
    ...config.temporal,
    ...storeVars,
    ...securityVars,
    ...config.limits,
    ...config.decision,
    ...config.tracing,
    ...config.apps.hosting,
    ...config.apps.design,
    ...config.apps.encyclopedia,
    ...config.apps.electronics,
  };
}

/**
 * The configuration with some variables replaced by already-parsed values (the simulators'
 * URLs at `npm start`, overrides in tests); each value lands in its variable's slice.
 */
export function withValues(config: Config, values: Partial<RawConfig>): Config {
  return sliceConfig({ ...flattenConfig(config), ...values }, config.process.rootDir);
}

/**
 * Production (`NODE_ENV=production`) refuses to boot without SKILLFLOW_ENCRYPTION_KEY (a
 * generated key file is a development convenience) and never starts simulators: unset,
 * START_SIMULATORS means off there; set to true it is an error.
 */
function productionRules(
  raw: RawConfig,
  given: Record<string, string | undefined>,
): Pick<RawConfig, 'START_SIMULATORS'> {
  if (raw.NODE_ENV !== 'production') return { START_SIMULATORS: raw.START_SIMULATORS };
  const problems: { variable: string; message: string }[] = [];
  if (!raw.SKILLFLOW_ENCRYPTION_KEY)
    problems.push({ variable: 'SKILLFLOW_ENCRYPTION_KEY', message: 'is required in production' });
  if (given.START_SIMULATORS !== undefined && given.START_SIMULATORS.trim() !== '' && raw.START_SIMULATORS)
    problems.push({ variable: 'START_SIMULATORS', message: 'simulators never run in production' });
  if (raw.WEBHOOK_ALLOW_LOOPBACK)
    problems.push({ variable: 'WEBHOOK_ALLOW_LOOPBACK', message: 'must not be set in production' });
  if (raw.CHAT_SERVER_SEALED)
    problems.push({ variable: 'CHAT_SERVER_SEALED', message: 'must not be set in production' });
  if (problems.length > 0) throw new ConfigError(problems);
  return { START_SIMULATORS: false };
}
