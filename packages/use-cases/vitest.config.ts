import { defineConfig } from 'vitest/config';

export default defineConfig({
  // the embedded database's first open runs every migration; on a busy machine that exceeds
  // vitest's default 10 s hook timeout
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], hookTimeout: 60_000 },
});
