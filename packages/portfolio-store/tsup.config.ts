import { bin, library } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig([
  library({ entry: ['src/index.ts', 'src/testing.ts'] }),
  bin({ entry: { 'bin/svc-migrate': 'src/bin/svc-migrate.ts' } }),
]);
