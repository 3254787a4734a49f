import { defineConfig } from 'vitest/config';
import base, { TIMING_TESTS } from './vitest.config.js';

/** `npm run test:timing`: the timing-sensitive tests, one file at a time, nothing beside them. */
export default defineConfig({
  test: {
    ...base.test,
    include: TIMING_TESTS,
    exclude: ['node_modules/**', '.data/**', '.tools/**'],
    fileParallelism: false,
  },
});
