/** Routes the Temporal SDK's own logs through our logger, once per process, at warn or above. */
import { Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { Logger } from '../logger.js';

let installed = false;

export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  installed = true;
  const child = logger.child({ component: 'temporal-sdk' });
  const levels: Record<LogLevel, (meta: LogMetadata | undefined, msg: string) => void> = {
    TRACE: () => undefined,
    DEBUG: () => undefined,
    INFO: () => undefined,
    WARN: (meta, msg) => child.warn(meta ?? {}, msg),
    ERROR: (meta, msg) => child.error(meta ?? {}, msg),
  };
  Runtime.install({
    logger: {
      log: (level, msg, meta) => levels[level](meta, msg),
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: (msg, meta) => child.warn(meta ?? {}, msg),
      error: (msg, meta) => child.error(meta ?? {}, msg),
    },
  });
}
