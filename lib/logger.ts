/**
 * The service logger (pino). Redaction is configured here once: request bodies, query strings,
 * auth headers and anything named like a secret never reach the log.
 */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-skillflow-anonymous-id"]',
  'req.headers["proxy-authorization"]',
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

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { service: 'skillflow', ...bindings },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  });
}
