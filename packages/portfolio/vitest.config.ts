import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/fast-check-setup.ts'],
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
