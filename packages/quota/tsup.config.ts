import { bin, library } from '@svc/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig([
  library({ entry: ['src/index.ts'] }),
  bin({ entry: { 'bin/svc-admin': 'src/bin/svc-admin.ts' } }),
]);
