import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/testing.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  },
  {
    entry: { 'bin/svc-migrate': 'src/bin/svc-migrate.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
  },
]);
