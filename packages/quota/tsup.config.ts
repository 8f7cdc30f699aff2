import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
  },
  {
    entry: { 'bin/svc-admin': 'src/bin/svc-admin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
  },
]);
