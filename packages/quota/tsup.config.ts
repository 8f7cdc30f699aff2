import { defineConfig } from 'tsup';
import { bin, library } from '@svc/tsup-config';

export default defineConfig([
  library({ entry: ['src/index.ts'] }),
  bin({ entry: { 'bin/svc-admin': 'src/bin/svc-admin.ts' } }),
]);
