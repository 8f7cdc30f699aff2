import { defineConfig } from 'vitest/config';

// Storage suites open real databases (PGlite start-up takes seconds on a busy 2-core machine).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
