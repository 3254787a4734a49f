import { defineConfig } from 'vitest/config';
import base, { SOAK_TESTS } from './vitest.config.js';

/** `npm run test:soak`: only the soak test, alone (one file, one fork, nothing beside it). */
export default defineConfig({
  test: {
    ...base.test,
    include: [`${SOAK_TESTS}/*.test.ts`],
    exclude: ['node_modules/**', '.data/**', '.tools/**'],
    fileParallelism: false,
  },
});
