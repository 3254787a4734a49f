import { defineConfig } from 'vitest/config';
import base, { QUIET_TESTS } from './vitest.config.js';

/**
 * `npm run test:quiet`: the tests that measure time, alone and one after another (one file, one
 * fork, nothing beside it): the compiler budget test, the domain search fault campaign, the soak test and the cluster chaos test. `npm run test:soak`
 * selects the soak test only.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: QUIET_TESTS,
    exclude: ['node_modules/**', '.data/**', '.tools/**'],
    fileParallelism: false,
  },
});
