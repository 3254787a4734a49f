/** Per-test-file setup: route the Temporal SDK's logs through a warn-level logger (no INFO noise). */
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';

installTemporalRuntime(createLogger(process.env.TEST_LOG_LEVEL ?? 'error'));
