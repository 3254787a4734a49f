/**
 * The service logger (pino). Redaction is configured here once: request bodies, query strings,
 * auth headers and anything named like a secret never reach the log.
 *
 * Logs are JSON lines, except on a developer's terminal: with `LOG_FORMAT=auto` (the default), a
 * process whose stdout is a TTY outside production pretty-prints them with pino-pretty when it is
 * installed. pino-pretty is optional and loaded only then; without it the logs stay JSON.
 * Pretty-printing formats the lines pino has already redacted, so redaction holds in both formats.
 */
import { createRequire } from 'node:module';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { ProcessConfig } from './config.js';

export type Logger = PinoLogger;

/** The `LOG_FORMAT` setting. */
export type LogFormatSetting = 'auto' | 'json' | 'pretty';
/** What a logger writes: JSON lines, or pretty lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-skillflow-anonymous-id"]',
  'req.headers["proxy-authorization"]',
  // A request URL may carry a credential (a download link's token): never logged whole.
  'req.url',
  'req.query',
  'req.body',
  'body',
  'query',
  'input',
  'output',
  'password',
  '*.password',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
];

/**
 * The format a process logs in: `json` and `pretty` are taken as set; `auto` is pretty only when
 * stdout is a TTY and `NODE_ENV` is not `production`, so piped, collected and production logs
 * stay JSON.
 */
export function chooseLogFormat(opts: {
  setting: LogFormatSetting;
  isTTY: boolean;
  nodeEnv: string;
}): LogFormat {
  if (opts.setting !== 'auto') return opts.setting;
  return opts.isTTY && opts.nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** The part of pino-pretty's API used here: a stream that prettifies pino's JSON lines. */
type PrettyFactory = (opts: {
  destination?: number | DestinationStream | NodeJS.WritableStream;
  sync?: boolean;
}) => DestinationStream;

/** pino-pretty, or undefined when it is not installed (it is an optional development aid). */
export function loadPinoPretty(): PrettyFactory | undefined {
  try {
    return createRequire(import.meta.url)('pino-pretty') as PrettyFactory;
  } catch {
    return undefined;
  }
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** JSON (the default) or pretty lines; pretty falls back to JSON without pino-pretty. */
  format?: LogFormat;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
  /** How pino-pretty is loaded ({@link loadPinoPretty}); undefined when it is not installed. */
  loadPretty?: () => PrettyFactory | undefined;
}

/** A logger at `level` with `bindings` on every line, redacting {@link REDACT_PATHS}. */
export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  opts: LoggerOptions = {},
): Logger {
  const options = {
    level,
    base: { service: 'skillflow', ...bindings },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  const pretty = opts.format === 'pretty' ? (opts.loadPretty ?? loadPinoPretty)() : undefined;
  if (pretty) return pino(options, pretty({ destination: opts.destination ?? 1, sync: true }));
  const logger = opts.destination ? pino(options, opts.destination) : pino(options);
  if (opts.format === 'pretty')
    logger.info('pretty logs need pino-pretty (npm install pino-pretty); logging JSON');
  return logger;
}

/** The logger of a service process, in the format its config and its stdout call for. */
export function createProcessLogger(
  config: Pick<ProcessConfig, 'LOG_LEVEL' | 'LOG_FORMAT' | 'NODE_ENV'>,
  stdout: { isTTY?: boolean } = process.stdout,
): Logger {
  const format = chooseLogFormat({
    setting: config.LOG_FORMAT,
    isTTY: stdout.isTTY === true,
    nodeEnv: config.NODE_ENV,
  });
  return createLogger(config.LOG_LEVEL, {}, { format });
}
