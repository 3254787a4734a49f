/**
 * Routes the Temporal SDK's own logs, including the native core's (forwarded instead of printed
 * to the console), through our logger, once per process, at warn or above. Every line passes
 * through {@link redactSdkLog} first: no failure message, stack or detail reaches the log.
 */
import { makeTelemetryFilterString, Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from '../logger.js';
import { redactSdkLog } from './sdk-log.js';

let installed = false;

export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
  const child = logger.child({ component: 'temporal-sdk' });
  const emit = (level: 'warn' | 'error', msg: string, meta: LogMetadata | undefined) => {
    const line = redactSdkLog(msg, meta);
    child[level](line.meta, line.message);
  };
  const levels: Record<LogLevel, (msg: string, meta: LogMetadata | undefined) => void> = {
    TRACE: () => undefined,
    DEBUG: () => undefined,
    INFO: () => undefined,
    WARN: (msg, meta) => emit('warn', msg, meta),
    ERROR: (msg, meta) => emit('error', msg, meta),
  };
  Runtime.install({
    logger: {
      log: (level, msg, meta) => levels[level](msg, meta),
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (msg, meta) => emit('warn', msg, meta),
      error: (msg, meta) => emit('error', msg, meta),
    },
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }), forward: {} },
    },
  });
}
