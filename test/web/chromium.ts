/** Where Debian's chromium is, and whether browser tests run (also used by bench/web.bench.ts). */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Browser tests skip (saying why in their title) only when chromium is absent on a developer's
 * machine. Under CI (`CI=true`, where .ci/run installs it) they never skip: a missing browser fails.
 */
export const hasChromium = existsSync(CHROMIUM) || process.env.CI === 'true';
export const SKIP_REASON = `needs Debian chromium at ${CHROMIUM}`;
