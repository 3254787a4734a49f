import { defineConfig } from 'vitest/config';

/**
 * The soak test measures latency over minutes, which is meaningless beside other test files on
 * two cores: it is left out here and runs alone afterwards (`npm run test:soak`,
 * vitest.soak.config.ts).
 */
export const SOAK_TESTS = 'test/soak/**';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', '.data/**', '.tools/**', SOAK_TESTS],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
