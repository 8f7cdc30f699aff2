import { defineConfig } from 'tsup';
import { bin, library } from '@svc/tsup-config';

export default defineConfig([
  library({ entry: ['src/index.ts', 'src/testing.ts'] }),
  bin({ entry: { 'bin/svc-migrate': 'src/bin/svc-migrate.ts' } }),
]);
