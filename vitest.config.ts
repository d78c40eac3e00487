import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // test/stacking-ai/shared.test.ts collects AIs (global gc) to check that their engines' blocks come back.
    execArgv: ['--expose-gc'],
  },
});
