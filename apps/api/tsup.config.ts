import { defineConfig } from 'tsup';
import { esmOnly } from '@svc/tsup-config';

export default defineConfig(
  esmOnly({ entry: ['src/index.ts', 'src/server.ts'], dts: { entry: 'src/index.ts' } }),
);
